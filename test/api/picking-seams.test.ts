import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Endpoint } from '../../src/contract/endpoint.ts';
import { bookInventur } from '../../src/contract/inventur.ts';
import {
  type Auftrag,
  pickClaim,
  pickRelease,
  pickShortage,
  pickTake,
  kommissionierungTexts as T,
} from '../../src/contract/kommissionierung.ts';
import { bestandLagerplatz } from '../../src/contract/leitstand/bestand.ts';
import {
  type KlaerfallRow,
  klaerfaelleList,
  klaerfallZurueck,
} from '../../src/contract/leitstand/klaerfaelle.ts';
import { type PackageContentRow, packageContent, scanPackageItem } from '../../src/contract/paketinhalt.ts';
import { texts } from '../../src/contract/texts.ts';
import { buildApp } from '../../src/server/app.ts';
import { testConfig } from '../../src/server/config.ts';
import { demo } from '../../src/server/seed/demo.ts';
import { loginAs, startTestApp, type TestApp } from '../support/app.ts';
import { databaseKinds } from '../support/db.ts';
import { type Call, caller } from '../support/endpoint-call.ts';
import {
  articleId,
  insertDeliveryNote,
  locationId,
  stockInvariantViolations,
  stockOf,
} from '../support/stock.ts';

/**
 * The seams between picking and packing (issue 36): a Fehlmenge names its location and marks it for a count,
 * picking then leads elsewhere, the packing station names what was not picked and books it out itself (or, with
 * PACK_UNPICKED=refuse, refuses the note), and one login on two handhelds never books on a stale plan.
 */
describe.each(databaseKinds())('picking and packing seams on %s', (kind) => {
  let t: TestApp;
  /** A second server instance on the same database, set to refuse notes not picked. */
  let strict: FastifyInstance;
  let anna: string;
  let lead: string;
  let noteCount = 0;

  beforeAll(async () => {
    t = await startTestApp(kind);
    strict = await buildApp({ db: t.database.db, config: testConfig({ packUnpicked: 'refuse' }) });
    await strict.ready();
    anna = await loginAs(t.app, demo.passwordUser);
    lead = await loginAs(t.app, demo.leadUser);
  });
  afterAll(async () => {
    await strict.close();
    await t.close();
  });

  const db = () => t.database.db;
  const call = (endpoint: Endpoint, as: string, c: Call = {}, app = t.app) => caller(app, as)(endpoint, c);
  const pick = (endpoint: Endpoint, body: unknown, as: string) => call(endpoint, as, { body });
  const data = (res: LightMyRequestResponse) => res.json<{ data: Auftrag }>().data;
  const lineOf = (note: Auftrag, nummer: string) => {
    const line = note.positionen.find((p) => p.nummer === nummer);
    if (!line) throw new Error(`no line ${nummer} in ${note.belegnr}`);
    return line;
  };
  const take = (note: Auftrag, nummer: string, menge: number, as: string) => {
    const line = lineOf(note, nummer);
    return pick(
      pickTake,
      { id: note.id, positionId: line.id, lagerplatzId: line.lagerplatz?.id ?? 0, menge },
      as,
    );
  };
  const packing = (belegnr: string, app = t.app) => call(packageContent, anna, { params: { belegnr } }, app);
  const packScan = async (belegnr: string, itemNr: string, app = t.app) => {
    const note = await db()
      .selectFrom('delivery_notes')
      .select('id')
      .where('belegnr', '=', belegnr)
      .executeTakeFirstOrThrow();
    const body = { id: note.id, itemNr, belegnr, eu: 1, user_id: 1, paketinhalt: [], versandart: 'DHL037' };
    return call(scanPackageItem, anna, { params: { itemNr }, body }, app);
  };
  const rowsOf = (res: LightMyRequestResponse): PackageContentRow[] => res.json().data.paketinhalt;
  /** A fresh pickable note of its own, with these lines. */
  async function newNote(lines: [nummer: string, menge: number][]): Promise<string> {
    return insertDeliveryNote(db(), `LSN${String(++noteCount).padStart(4, '0')}`, lines);
  }
  const count = (location: string, nummer: string, amount: number) =>
    Promise.all([locationId(db(), location), articleId(db(), nummer)]).then(([lp, article]) =>
      call(bookInventur, lead, { body: { lp, article, amount } }),
    );
  const journalOf = (article: number) =>
    db()
      .selectFrom('movements as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .leftJoin('delivery_notes as n', 'n.id', 'm.delivery_note_id')
      .select(['m.kind', 'm.from_location_id', 'm.amount', 'u.username', 'n.belegnr'])
      .where('m.article_id', '=', article)
      .orderBy('m.id')
      .execute();

  it("a Fehlmenge names its location and book stock, marks the location for a count; after 'Zurück' picking leads elsewhere or says none holds it, and packing names the line not picked", async () => {
    const belegnr = await newNote([['100008', 3]]);
    let note = data(await pick(pickClaim, { belegnr }, anna));
    const a0402 = await locationId(db(), 'A-04-01-02');
    expect(lineOf(note, '100008').lagerplatz?.id).toBe(a0402);
    expect((await take(note, '100008', 2, anna)).statusCode).toBe(200);
    const book = await stockOf(db(), a0402, await articleId(db(), '100008'));
    const short = await pick(
      pickShortage,
      { id: note.id, positionId: lineOf(note, '100008').id, menge: 1, lagerplatzId: a0402 },
      anna,
    );
    expect(short.statusCode).toBe(200);

    // The Klärfall names the location and what the books said lay there; the location waits for a count.
    const klaerfall = async () => {
      const list = await call(klaerfaelleList, lead);
      const all = list.json<{ data: { offen: KlaerfallRow[]; abgeschlossen: KlaerfallRow[] } }>().data;
      const row = [...all.offen, ...all.abgeschlossen].find((k) => k.belegnr === belegnr);
      if (!row) throw new Error(`no Klärfall for ${belegnr}`);
      return row;
    };
    const reported = await klaerfall();
    expect(reported.positionen).toEqual([
      expect.objectContaining({
        nummer: '100008',
        fehlt: 1,
        lagerplatz: { code: 'A-04-01-02', bestand: book, zaehlen: true },
      }),
    ]);
    const location = await call(bestandLagerplatz, lead, { params: { code: 'A-04-01-02' } });
    expect(location.json().lagerplatz.zaehlenSeit).toEqual(expect.any(String));

    // 'Zurück ins Packen': the packing station says which line was not picked completely.
    const back = await call(klaerfallZurueck, lead, { params: { klaerfallId: reported.id }, body: {} });
    expect(back.statusCode).toBe(200);
    const packed = await packing(belegnr);
    expect(packed.statusCode).toBe(200);
    expect(packed.json().data.kommissioniert).toBeNull();
    expect(rowsOf(packed)).toEqual([
      expect.objectContaining({ nummer: '100008', lsmenge: 3, pemenge: 0, kommissioniert: 2 }),
    ]);

    // Picking does not lead back to the marked location: no other holds 100008, and the plan says so.
    note = data(await pick(pickClaim, { belegnr }, anna));
    expect(lineOf(note, '100008')).toMatchObject({ offen: 1, lagerplatz: null });
    // Another location gets some: the plan leads there.
    expect((await count('A-05-01-01', '100008', 4)).statusCode).toBe(200);
    note = data(await pick(pickClaim, { belegnr }, anna));
    expect(lineOf(note, '100008').lagerplatz).toMatchObject({ code: 'A-05-01-01', bestand: 4 });
    // A count on the marked location clears the mark: it is offered again (first in walking order).
    expect((await count('A-04-01-02', '100008', 22)).statusCode).toBe(200);
    note = data(await pick(pickClaim, { belegnr }, anna));
    expect(lineOf(note, '100008').lagerplatz).toMatchObject({ code: 'A-04-01-02', bestand: 22 });
    expect((await klaerfall()).positionen[0]?.lagerplatz?.zaehlen).toBe(false);
    expect(
      (await call(bestandLagerplatz, lead, { params: { code: 'A-04-01-02' } })).json().lagerplatz.zaehlenSeit,
    ).toBeNull();
    expect((await pick(pickRelease, { id: note.id }, anna)).statusCode).toBe(200);
  });

  it('a Fehlmenge without a location names the one the plan led to; one at an unknown location is refused and writes nothing', async () => {
    const belegnr = await newNote([['100006', 2]]);
    const note = data(await pick(pickClaim, { belegnr }, anna));
    const line = lineOf(note, '100006');
    const unknown = await pick(
      pickShortage,
      { id: note.id, positionId: line.id, menge: 1, lagerplatzId: 999999 },
      anna,
    );
    expect([unknown.statusCode, unknown.json().message]).toEqual([404, texts.lookup.unknownLocation]);
    const written = await db()
      .selectFrom('klaerfaelle as k')
      .innerJoin('delivery_notes as n', 'n.id', 'k.delivery_note_id')
      .select('k.id')
      .where('n.belegnr', '=', belegnr)
      .execute();
    expect(written).toEqual([]);
    const short = await pick(pickShortage, { id: note.id, positionId: line.id, menge: 1 }, anna);
    expect(short.statusCode).toBe(200);
    // The picker said one is missing: the other is there, and the line goes on from the marked location.
    expect(lineOf(data(short), '100006')).toMatchObject({ offen: 1, lagerplatz: { code: 'B-01-02-01' } });
    const reported = await db()
      .selectFrom('klaerfall_lines as l')
      .innerJoin('klaerfaelle as k', 'k.id', 'l.klaerfall_id')
      .innerJoin('delivery_notes as n', 'n.id', 'k.delivery_note_id')
      .innerJoin('locations as p', 'p.id', 'l.location_id')
      .select(['p.code', 'l.bestand', 'p.zaehlen_seit'])
      .where('n.belegnr', '=', belegnr)
      .executeTakeFirstOrThrow();
    expect(reported).toMatchObject({ code: 'B-01-02-01', bestand: 40 });
    expect(reported.zaehlen_seit).not.toBeNull();
    expect((await count('B-01-02-01', '100006', 40)).statusCode).toBe(200);
  });

  it('one login on two handhelds: scanning the note on the second takes it over; the first books nothing more and cannot let go of it', async () => {
    const belegnr = await newNote([['100007', 4]]);
    const first = await loginAs(t.app, demo.passwordUser);
    const second = await loginAs(t.app, demo.passwordUser);
    const stale = data(await pick(pickClaim, { belegnr }, first));
    expect((await take(stale, '100007', 1, first)).statusCode).toBe(200);
    const fresh = data(await pick(pickClaim, { belegnr }, second));
    expect(lineOf(fresh, '100007').kommissioniert).toBe(1);

    const art = await articleId(db(), '100007');
    const journal = (await journalOf(art)).length;
    const refused = await take(stale, '100007', 1, first);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      success: false,
      message: T.otherDevice(belegnr),
      abgegeben: belegnr,
    });
    const shortRefused = await pick(
      pickShortage,
      { id: stale.id, positionId: lineOf(stale, '100007').id, menge: 1 },
      first,
    );
    expect(shortRefused.json()).toMatchObject({ message: T.otherDevice(belegnr), abgegeben: belegnr });
    expect((await journalOf(art)).length).toBe(journal);
    // The first handheld's 'Abbrechen' does not free the note the second is picking.
    expect((await pick(pickRelease, { id: stale.id }, first)).statusCode).toBe(200);
    expect((await take(fresh, '100007', 1, second)).statusCode).toBe(200);
    // Another picker is told who has it, as before; scanning it again on the first takes it back.
    expect((await pick(pickClaim, { belegnr }, lead)).json().message).toBe(
      T.claimedBy(demo.passwordUser.name),
    );
    const back = await pick(pickClaim, { belegnr }, first);
    expect(lineOf(data(back), '100007')).toMatchObject({ kommissioniert: 2, offen: 2 });
    expect((await take(fresh, '100007', 1, second)).statusCode).toBe(409);
    expect((await pick(pickRelease, { id: stale.id }, first)).statusCode).toBe(200);
  });

  it('packing a note never picked books each scanned piece out of stock, journalled with the packer; what was picked is not booked twice', async () => {
    const belegnr = await newNote([
      ['100008', 2],
      ['100006', 7],
    ]);
    // One piece of 100008 is picked first; the rest never is.
    const note = data(await pick(pickClaim, { belegnr }, lead));
    expect((await take(note, '100008', 1, lead)).statusCode).toBe(200);
    expect((await pick(pickRelease, { id: note.id }, lead)).statusCode).toBe(200);

    const paper = await articleId(db(), '100008');
    const tape = await articleId(db(), '100006');
    const a0402 = await locationId(db(), 'A-04-01-02');
    const b0201 = await locationId(db(), 'B-01-02-01');
    const paperBefore = await stockOf(db(), a0402, paper);
    const tapeBefore = await stockOf(db(), b0201, tape);
    const paperJournal = (await journalOf(paper)).length;

    const opened = await packing(belegnr);
    expect(opened.statusCode).toBe(200);
    expect(opened.json().data.kommissioniert).toBeNull();
    expect(rowsOf(opened).map((r) => [r.nummer, r.kommissioniert])).toEqual([
      ['100008', 1],
      ['100006', 0],
    ]);
    // The first piece of 100008 was picked: nothing booked.
    expect((await packScan(belegnr, '100008')).statusCode).toBe(200);
    expect(await stockOf(db(), a0402, paper)).toBe(paperBefore);
    // The second was not: it leaves A-04-01-02 now.
    const second = await packScan(belegnr, '100008');
    expect(rowsOf(second)[0]).toMatchObject({ pemenge: 2, kommissioniert: 2 });
    expect(await stockOf(db(), a0402, paper)).toBe(paperBefore - 1);
    expect((await journalOf(paper)).slice(paperJournal)).toEqual([
      // Journalled with the note it was packed for, as a pick is.
      { kind: 'kommissionierung', from_location_id: a0402, amount: 1, username: 'demo', belegnr },
    ]);
    // Seven of 100006 (above five: the whole line at once) from B-01-02-01.
    const whole = await packScan(belegnr, '100006');
    expect(rowsOf(whole)[1]).toMatchObject({ pemenge: 7, kommissioniert: 7 });
    expect(await stockOf(db(), b0201, tape)).toBe(tapeBefore - 7);
    const status = await db()
      .selectFrom('delivery_notes')
      .select('status')
      .where('belegnr', '=', belegnr)
      .executeTakeFirstOrThrow();
    expect(status.status).toBe('gepackt');
    expect(await stockInvariantViolations(db())).toBe(0);
  });

  it('a piece no location holds is packed all the same (the packer holds it), books nothing and stays not picked', async () => {
    const { id: orphan } = await db()
      .insertInto('articles')
      .values({ nummer: '199001', name: 'Ohne Bestand', kurzbezeichnung: 'Ohne' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const belegnr = await newNote([['199001', 1]]);
    const packed = await packScan(belegnr, '199001');
    expect(packed.statusCode).toBe(200);
    expect(rowsOf(packed)[0]).toMatchObject({ pemenge: 1, kommissioniert: 0 });
    expect(await journalOf(orphan)).toEqual([]);
    expect(await stockInvariantViolations(db())).toBe(0);
  });

  it('with PACK_UNPICKED=refuse the packing station refuses a note until it is picked, then packs it booking nothing more', async () => {
    const belegnr = await newNote([['100006', 1]]);
    const message = texts.paketinhalt.notPickedRefused(belegnr);
    expect(message).toBe(`Lieferschein ${belegnr} ist nicht kommissioniert. Bitte zuerst kommissionieren.`);
    const refused = await packing(belegnr, strict);
    expect([refused.statusCode, refused.json().message]).toEqual([409, message]);
    const scan = await packScan(belegnr, '100006', strict);
    expect([scan.statusCode, scan.json().message]).toEqual([409, message]);
    expect(rowsOf(await packing(belegnr))[0]).toMatchObject({ pemenge: 0 });

    const note = data(await pick(pickClaim, { belegnr }, anna));
    expect((await take(note, '100006', 1, anna)).statusCode).toBe(200);
    const tape = await articleId(db(), '100006');
    const journal = (await journalOf(tape)).length;
    expect((await packing(belegnr, strict)).statusCode).toBe(200);
    expect((await packScan(belegnr, '100006', strict)).statusCode).toBe(200);
    expect((await journalOf(tape)).length).toBe(journal);
  });
});
