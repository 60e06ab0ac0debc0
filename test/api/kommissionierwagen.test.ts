import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logout } from '../../src/contract/auth.ts';
import type { Endpoint } from '../../src/contract/endpoint.ts';
import {
  type Auftrag,
  kommissionierungTexts as K,
  pickClaim,
  pickNext,
  pickTake,
} from '../../src/contract/kommissionierung.ts';
import {
  type CartLine,
  type CartStop,
  type CartSummary,
  cartDefer,
  cartFinish,
  cartList,
  cartPutAway,
  cartRelease,
  cartShortage,
  cartStart,
  cartUndo,
  type Fahrt,
  kommissionierwagenTexts as W,
} from '../../src/contract/kommissionierwagen.ts';
import { packageContent, scanPackageItem } from '../../src/contract/paketinhalt.ts';
import { testConfig } from '../../src/server/config.ts';
import { importCsv } from '../../src/server/import/run.ts';
import { addPickCart, demo } from '../../src/server/seed/demo.ts';
import { loginAs, noteIdOf, startTestApp, type TestApp, userIdOf } from '../support/app.ts';
import { databaseKinds } from '../support/db.ts';
import { caller } from '../support/endpoint-call.ts';
import { articleId, locationId, stockInvariantViolations, stockOf } from '../support/stock.ts';

/**
 * Rollende Kommissionierung on the handheld (issue 41, decision 33): a cart's trip from its fill to 'Wagen
 * fertig' and the packing station, on the demo's cart KW01 and its notes LS100010 … LS100015. The tests run
 * in order on one database: each goes on from the state the one before left. Races: kommissionierwagen-races.
 */
describe.each(databaseKinds())('Kommissionierwagen API on %s', (kind) => {
  let t: TestApp;
  const now = Date.parse('2026-11-28T08:00:00Z');
  /** The demo worker picks the cart; the shift lead is the other picker. */
  let anna: string;
  let lead: string;
  let leadId: number;
  /** The trip with the demo's wave LS100010 … LS100015 on KW01. */
  let trip: Fahrt;

  beforeAll(async () => {
    t = await startTestApp(kind, { pickClaimMinutes: 15 }, { clock: () => now });
    anna = await loginAs(t.app, demo.passwordUser);
    lead = await loginAs(t.app, demo.leadUser);
    leadId = await userIdOf(t.database.db, demo.leadUser.username);
  });
  afterAll(() => t.close());

  const db = () => t.database.db;
  const call = (endpoint: Endpoint, body: unknown, as: string, key?: string) =>
    caller(t.app, as)(endpoint, { body, key });
  const ok = <T = Fahrt>(res: LightMyRequestResponse): T => {
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ data: T }>().data;
  };
  const refused = (res: LightMyRequestResponse) => [res.statusCode, res.json<{ message: string }>().message];
  /** A call on a trip that is over for this login: 409 with the cart's code as the marker the screen reads. */
  const over = (res: LightMyRequestResponse) => [res.statusCode, res.json()];
  const tripOverKW01 = [409, { success: false, message: W.tripOver('KW01'), fahrtVorbei: 'KW01' }];
  const start = (code: string, as = anna) => call(cartStart, { code }, as);
  /** The open line of this note on the trip, and its stop (null: no location holds it). */
  const lineOf = (f: Fahrt, belegnr: string): { line: CartLine; stop: CartStop | null } => {
    for (const stop of f.route) {
      const line = stop.positionen.find((p) => p.belegnr === belegnr);
      if (line) return { line, stop };
    }
    const line = f.ohneBestand.find((p) => p.belegnr === belegnr);
    if (line) return { line, stop: null };
    throw new Error(`no open line of ${belegnr} on the trip`);
  };
  const put = (
    f: Fahrt,
    belegnr: string,
    options: { fach?: string; menge?: number; key?: string; as?: string } = {},
  ) => {
    const { line, stop } = lineOf(f, belegnr);
    return call(
      cartPutAway,
      {
        fahrtId: f.id,
        positionId: line.positionId,
        lagerplatzId: stop?.lagerplatz.id ?? 0,
        fach: options.fach ?? line.fach.code,
        menge: options.menge ?? line.offen,
      },
      options.as ?? anna,
      options.key,
    );
  };
  const inCompartments = (f: Fahrt) => f.faecher.map((c) => c.auftrag?.belegnr ?? null);
  const journalRows = async () =>
    (await db().selectFrom('movements').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow())
      .n;
  const noteId = (belegnr: string) => noteIdOf(db(), belegnr);
  const claimsOf = async (belegnrs: string[]) =>
    (
      await db()
        .selectFrom('pick_claims as c')
        .innerJoin('delivery_notes as n', 'n.id', 'c.delivery_note_id')
        .select('n.belegnr')
        .where('n.belegnr', 'in', belegnrs)
        .orderBy('n.belegnr')
        .execute()
    ).map((r) => r.belegnr);
  /** Where the notes lie now: [belegnr, freed_reason] of each row of the trip. */
  const rowsOfTrip = async (tripId: number) =>
    (
      await db()
        .selectFrom('pick_trip_notes as tn')
        .innerJoin('delivery_notes as n', 'n.id', 'tn.delivery_note_id')
        .select(['n.belegnr', 'tn.freed_reason'])
        .where('tn.trip_id', '=', tripId)
        .orderBy('n.belegnr')
        .execute()
    ).map((r) => [r.belegnr, r.freed_reason]);
  /** The oldest `n` notes 'Nächster Auftrag' or a cart without a wave would take now. */
  const oldestLoose = async (n: number) =>
    (
      await sql<{ belegnr: string }>`
        select n.belegnr from delivery_notes n
        where n.picked_at is null and n.status = 'offen'
          and exists (select 1 from delivery_note_lines l
            where l.delivery_note_id = n.id and l.kommissioniert + l.fehlmenge < l.lsmenge)
          and not exists (select 1 from pick_wave_notes w where w.delivery_note_id = n.id)
          and not exists (select 1 from pick_trip_notes tn where tn.delivery_note_id = n.id and tn.freed_at is null)
          and not exists (select 1 from pick_claims c where c.delivery_note_id = n.id)
        order by n.created_at, n.id limit ${n}`.execute(db())
    ).rows.map((r) => r.belegnr);
  async function releaseWave(belegnrs: string[], notesPerCart: number): Promise<number> {
    const wave = await db()
      .insertInto('pick_waves')
      .values({ profile_name: demo.pickProfile.name, released_by: leadId, notes_per_cart: notesPerCart })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const belegnr of belegnrs)
      await db()
        .insertInto('pick_wave_notes')
        .values({ delivery_note_id: await noteId(belegnr), wave_id: wave.id })
        .execute();
    return wave.id;
  }
  const newCart = (code: string, compartments: number) => addPickCart(db(), code, compartments);
  const waveNotes = ['LS100010', 'LS100011', 'LS100012', 'LS100013', 'LS100014', 'LS100015'];

  it('lists the carts by code with their compartments, and refuses an unknown cart in German', async () => {
    expect(ok(await caller(t.app, anna)(cartList))).toEqual([{ code: 'KW01', faecher: 6 }]);
    expect(refused(await start('KW99'))).toEqual([404, W.unknownCart('KW99')]);
    expect(W.unknownCart('KW99')).toBe('Wagen KW99 nicht gefunden.');
    const trips = await db().selectFrom('pick_trips').select('id').execute();
    expect(trips).toEqual([]);
  });

  it('fills KW01 with the oldest pickable notes while no wave is released, each claimed; Abbrechen frees them all', async () => {
    const expected = await oldestLoose(6);
    expect(expected[0]).toBe(demo.deliveryNotes.eu);
    const f = ok(await start('KW01'));
    expect(f.wagen.code).toBe('KW01');
    expect(f.faecher.map((c) => c.code)).toEqual([
      'KW01-1',
      'KW01-2',
      'KW01-3',
      'KW01-4',
      'KW01-5',
      'KW01-6',
    ]);
    expect(inCompartments(f)).toEqual(expected);
    expect(await claimsOf(expected)).toEqual([...expected].sort());
    expect(f.entnahmen).toEqual([]);
    expect(f.fertig).toBe(false);
    expect(ok<unknown>(await call(cartRelease, { fahrtId: f.id }, anna))).toBeUndefined();
    expect(await rowsOfTrip(f.id)).toEqual([...expected].sort().map((b) => [b, 'abgebrochen']));
    expect(await claimsOf(expected)).toEqual([]);
    // The trip is over: every call on it says so.
    expect(over(await call(cartRelease, { fahrtId: f.id }, anna))).toMatchObject(tripOverKW01);
  });

  it("fills KW01 from the oldest released wave, at most the wave's notes per cart", async () => {
    const wave = await releaseWave(waveNotes, 4);
    const f = ok(await start('KW01'));
    expect(inCompartments(f)).toEqual([...waveNotes.slice(0, 4), null, null]);
    ok<unknown>(await call(cartRelease, { fahrtId: f.id }, anna));
    await db().updateTable('pick_waves').set({ notes_per_cart: 6 }).where('id', '=', wave).execute();
  });

  it('leads the demo wave LS100010 … LS100015 over three locations for six lines, in walking order', async () => {
    trip = ok(await start('KW01'));
    expect(inCompartments(trip)).toEqual(waveNotes);
    expect(
      trip.route.map((s) => [s.lagerplatz.code, s.positionen.map((p) => [p.fach.nummer, p.nummer, p.offen])]),
    ).toEqual([
      [
        'A-03-02-01',
        [
          [1, '100007', 1],
          [2, '100007', 2],
        ],
      ],
      [
        'A-04-01-02',
        [
          [5, '100008', 1],
          [6, '100008', 2],
        ],
      ],
      [
        'B-01-02-01',
        [
          [3, '100006', 1],
          [4, '100006', 3],
        ],
      ],
    ]);
    expect(trip.route.map((s) => s.lagerplatz.bestand)).toEqual([60, 25, 40]);
    expect(trip.route.every((s) => !s.zurueckgestellt)).toBe(true);
    expect(trip.ohneBestand).toEqual([]);
    expect(trip.faecher[3]?.auftrag).toMatchObject({
      belegnr: 'LS100013',
      fertig: false,
      fehlmenge: false,
      offenStueck: 3,
      offenStopps: 1,
    });
  });

  it("refuses another picker's cart and trip, and resumes the caller's own", async () => {
    expect(refused(await start('KW01', lead))).toEqual([409, W.cartInUse('KW01', demo.passwordUser.name)]);
    expect(over(await put(trip, 'LS100010', { as: lead }))).toMatchObject(tripOverKW01);
    expect(over(await call(cartUndo, { fahrtId: trip.id, bewegungId: 1 }, lead))).toMatchObject(tripOverKW01);
    const again = ok(await start('KW01'));
    expect(again.id).toBe(trip.id);
    // The same login on a second handheld takes the trip over; the first one's calls are over.
    const second = await loginAs(t.app, demo.passwordUser);
    expect(ok(await start('KW01', second)).id).toBe(trip.id);
    expect(over(await call(cartDefer, { fahrtId: trip.id, lagerplatzId: 1 }, anna))).toMatchObject(
      tripOverKW01,
    );
    expect(ok(await start('KW01')).id).toBe(trip.id);
    await caller(t.app, second)(logout);
    expect(ok(await start('KW01')).id).toBe(trip.id);
  });

  it('refuses a put into the wrong compartment and books nothing', async () => {
    const a7 = await articleId(db(), '100007');
    const place = await locationId(db(), 'A-03-02-01');
    const [stock, journal] = [await stockOf(db(), place, a7), await journalRows()];
    const res = await put(trip, 'LS100010', { fach: 'KW01-2' });
    expect(refused(res)).toEqual([409, W.wrongCompartment('KW01-1')]);
    expect(await stockOf(db(), place, a7)).toBe(stock);
    expect(await journalRows()).toBe(journal);
    expect(refused(await put(trip, 'LS100010', { fach: 'A-03-02-01' }))).toEqual([
      409,
      W.wrongCompartment('KW01-1'),
    ]);
  });

  it('books a put once under a repeated key, journalled with its compartment and trip', async () => {
    const a7 = await articleId(db(), '100007');
    const place = await locationId(db(), 'A-03-02-01');
    const [stock, journal] = [await stockOf(db(), place, a7), await journalRows()];
    const key = randomUUID();
    const first = ok(await put(trip, 'LS100010', { key }));
    const again = ok(await put(trip, 'LS100010', { key }));
    expect(again).toEqual(first);
    expect(await stockOf(db(), place, a7)).toBe(stock - 1);
    expect(await journalRows()).toBe(journal + 1);
    const movement = await db()
      .selectFrom('movements as m')
      .innerJoin('pick_cart_compartments as f', 'f.id', 'm.compartment_id')
      .select(['m.kind', 'm.amount', 'm.from_location_id', 'm.pick_trip_id', 'f.code', 'm.request_key'])
      .where('m.request_key', '=', key)
      .execute();
    expect(movement).toEqual([
      {
        kind: 'kommissionierung',
        amount: 1,
        from_location_id: place,
        pick_trip_id: trip.id,
        code: 'KW01-1',
        request_key: key,
      },
    ]);
    expect(first.faecher[0]?.auftrag).toMatchObject({ belegnr: 'LS100010', fertig: true, offenStueck: 0 });
    expect(first.entnahmen[0]).toMatchObject({
      belegnr: 'LS100010',
      menge: 1,
      lagerplatz: 'A-03-02-01',
      nummer: '100007',
    });
    expect(first.route[0]?.positionen.map((p) => p.belegnr)).toEqual(['LS100011']);
    const note = await db()
      .selectFrom('delivery_notes')
      .select(['picked_at', 'picked_by'])
      .where('belegnr', '=', 'LS100010')
      .executeTakeFirstOrThrow();
    expect(note.picked_at).not.toBeNull();
    trip = first;
  });

  it('a Fehlmenge makes a Klärfall of its note alone; the other notes go on', async () => {
    const { line, stop } = lineOf(trip, 'LS100013');
    const res = await call(
      cartShortage,
      { fahrtId: trip.id, positionId: line.positionId, menge: 3, lagerplatzId: stop?.lagerplatz.id },
      anna,
    );
    const f = ok(res);
    expect(f.faecher[3]?.auftrag).toMatchObject({ belegnr: 'LS100013', fertig: true, fehlmenge: true });
    const note = await db()
      .selectFrom('delivery_notes')
      .select('status')
      .where('belegnr', '=', 'LS100013')
      .executeTakeFirstOrThrow();
    expect(note.status).toBe('klaerfall');
    // B-01-02-01 is marked for a count: LS100012's 100006 has no other location, so only a Fehlmenge is left.
    expect(f.route.map((s) => s.lagerplatz.code)).toEqual(['A-03-02-01', 'A-04-01-02']);
    expect(f.ohneBestand.map((l) => l.belegnr)).toEqual(['LS100012']);
    expect(f.faecher.filter((c) => c.auftrag && !c.auftrag.fertig).map((c) => c.nummer)).toEqual([
      2, 3, 5, 6,
    ]);
    // Counted again (as an Inventur would): the stop is back.
    await db()
      .updateTable('locations')
      .set({ zaehlen_seit: null })
      .where('code', '=', 'B-01-02-01')
      .execute();
    trip = ok(await start('KW01'));
    expect(trip.route.map((s) => s.lagerplatz.code)).toEqual(['A-03-02-01', 'A-04-01-02', 'B-01-02-01']);
  });

  it("'Später' moves a stop to the end of the route, and again to the end again", async () => {
    const id = (code: string) => trip.route.find((s) => s.lagerplatz.code === code)?.lagerplatz.id;
    const defer = async (code: string) =>
      ok(await call(cartDefer, { fahrtId: trip.id, lagerplatzId: id(code) }, anna)).route.map((s) => [
        s.lagerplatz.code,
        s.zurueckgestellt,
      ]);
    expect(await defer('A-03-02-01')).toEqual([
      ['A-04-01-02', false],
      ['B-01-02-01', false],
      ['A-03-02-01', true],
    ]);
    expect(await defer('A-04-01-02')).toEqual([
      ['B-01-02-01', false],
      ['A-03-02-01', true],
      ['A-04-01-02', true],
    ]);
    expect(await defer('A-03-02-01')).toEqual([
      ['B-01-02-01', false],
      ['A-04-01-02', true],
      ['A-03-02-01', true],
    ]);
    trip = ok(await start('KW01'));
  });

  it("'Rückgängig' reverses a put once (two at once: one), back onto its location, and the journal still equals stock", async () => {
    const a7 = await articleId(db(), '100007');
    const place = await locationId(db(), 'A-03-02-01');
    const stock = await stockOf(db(), place, a7);
    const f = ok(await put(trip, 'LS100011'));
    expect(await stockOf(db(), place, a7)).toBe(stock - 2);
    const putRow = f.entnahmen[0];
    expect(putRow).toMatchObject({ belegnr: 'LS100011', menge: 2, fach: { nummer: 2, code: 'KW01-2' } });
    const undo = (as = anna) => call(cartUndo, { fahrtId: trip.id, bewegungId: putRow?.bewegungId }, as);
    const both = await Promise.all([undo(), undo()]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(both.find((r) => r.statusCode === 409)?.json().message).toBe(W.cannotUndo);
    expect(await stockOf(db(), place, a7)).toBe(stock);
    const reversal = await db()
      .selectFrom('movements as m')
      .innerJoin('pick_cart_compartments as f', 'f.id', 'm.compartment_id')
      .select(['m.kind', 'm.amount', 'm.from_location_id', 'm.to_location_id', 'm.pick_trip_id', 'f.code'])
      .where('m.reverses_movement_id', '=', putRow?.bewegungId ?? 0)
      .execute();
    expect(reversal).toEqual([
      {
        kind: 'kommissionierung',
        amount: 2,
        from_location_id: null,
        to_location_id: place,
        pick_trip_id: trip.id,
        code: 'KW01-2',
      },
    ]);
    const after = ok(await start('KW01'));
    expect(after.entnahmen.map((e) => e.belegnr)).toEqual(['LS100010']);
    expect(lineOf(after, 'LS100011').line).toMatchObject({ kommissioniert: 0, offen: 2 });
    expect(refused(await undo())).toEqual([409, W.cannotUndo]);
    // A picked note's put reversed: the note is not picked any more.
    const done = after.entnahmen[0];
    ok(await call(cartUndo, { fahrtId: trip.id, bewegungId: done?.bewegungId }, anna));
    const ls10 = await db()
      .selectFrom('delivery_notes')
      .select('picked_at')
      .where('belegnr', '=', 'LS100010')
      .executeTakeFirstOrThrow();
    expect(ls10.picked_at).toBeNull();
    // Not a put of this trip: the reversal itself, and a movement of no trip.
    const reversalId = (
      await db()
        .selectFrom('movements')
        .select('id')
        .where('reverses_movement_id', '=', putRow?.bewegungId ?? 0)
        .executeTakeFirstOrThrow()
    ).id;
    expect(refused(await call(cartUndo, { fahrtId: trip.id, bewegungId: reversalId }, anna))).toEqual([
      409,
      W.cannotUndo,
    ]);
    expect(refused(await call(cartUndo, { fahrtId: trip.id, bewegungId: 1 }, anna))).toEqual([
      409,
      W.cannotUndo,
    ]);
    expect(await stockInvariantViolations(db())).toBe(0);
    trip = ok(await start('KW01'));
    expect(trip.faecher[0]?.auftrag).toMatchObject({ belegnr: 'LS100010', fertig: false, offenStueck: 1 });
  });

  it("'Wagen fertig' is refused while lines are open, then ends the trip with a summary; the notes stay", async () => {
    expect(refused(await call(cartFinish, { fahrtId: trip.id }, anna))).toEqual([409, W.stillOpen(5)]);
    for (const belegnr of ['LS100010', 'LS100011', 'LS100012', 'LS100014', 'LS100015'])
      trip = ok(await put(trip, belegnr));
    expect(trip.fertig).toBe(true);
    expect(trip.route).toEqual([]);
    const summary = ok<CartSummary>(await call(cartFinish, { fahrtId: trip.id }, anna));
    expect(summary).toEqual({
      wagen: { id: trip.wagen.id, code: 'KW01' },
      faecher: waveNotes.map((belegnr, i) => ({
        nummer: i + 1,
        code: `KW01-${i + 1}`,
        belegnr,
        status: belegnr === 'LS100013' ? 'fehlmenge' : 'komplett',
      })),
    });
    expect(await claimsOf(waveNotes)).toEqual([]);
    expect(await rowsOfTrip(trip.id)).toEqual(waveNotes.map((b) => [b, null]));
    expect(over(await call(cartFinish, { fahrtId: trip.id }, anna))).toMatchObject(tripOverKW01);
    expect(refused(await call(cartUndo, { fahrtId: trip.id, bewegungId: 1 }, anna))).toEqual([
      409,
      W.cannotUndo,
    ]);
    expect(refused(await start('KW01'))).toEqual([409, W.cartFull('KW01')]);
    expect(await stockInvariantViolations(db())).toBe(0);
  });

  it("packs a note scanned by its compartment's code, and frees the compartment for the next trip", async () => {
    const content = await caller(t.app, lead)(packageContent, { params: { belegnr: 'KW01-1' } });
    expect(content.statusCode, content.body).toBe(200);
    const note = content.json<{ data: { id: number; belegnr: string } }>().data;
    expect(note.belegnr).toBe('LS100010');
    // Another compartment scanned as an item names the note lying there, as another note's number does.
    const other = await caller(t.app, lead)(scanPackageItem, {
      params: { itemNr: 'KW01-2' },
      body: {
        id: note.id,
        itemNr: 'KW01-2',
        belegnr: note.belegnr,
        eu: 1,
        user_id: leadId,
        paketinhalt: [],
        versandart: 'DHL037',
      },
    });
    expect(other.statusCode).toBe(404);
    expect(other.json()).toMatchObject({ lieferschein: 'LS100011' });
    const scan = await caller(t.app, lead)(scanPackageItem, {
      params: { itemNr: '100007' },
      body: {
        id: note.id,
        itemNr: '100007',
        belegnr: note.belegnr,
        eu: 1,
        user_id: leadId,
        paketinhalt: [],
        versandart: 'DHL037',
      },
    });
    expect(scan.statusCode, scan.body).toBe(200);
    expect(await rowsOfTrip(trip.id)).toEqual(waveNotes.map((b) => [b, b === 'LS100010' ? 'gepackt' : null]));
    // An empty compartment opens nothing.
    const empty = await caller(t.app, lead)(packageContent, { params: { belegnr: 'KW01-1' } });
    expect(empty.statusCode).toBe(404);
    const [next] = await oldestLoose(1);
    const f = ok(await start('KW01'));
    expect(inCompartments(f)).toEqual([next, null, null, null, null, null]);
    ok<unknown>(await call(cartRelease, { fahrtId: f.id }, anna));
  });

  it('Abbrechen frees the notes nothing was picked for, and keeps a started one in its compartment', async () => {
    await newCart('KW02', 3);
    const expected = await oldestLoose(3);
    const f = ok(await start('KW02'));
    const notes = inCompartments(f) as string[];
    expect(notes).toEqual(expected);
    const first = f.route[0]?.positionen[0];
    if (!first) throw new Error('no stop');
    ok(await put(f, first.belegnr, { menge: 1 }));
    expect(await claimsOf(notes)).toEqual([...notes].sort());
    ok<unknown>(await call(cartRelease, { fahrtId: f.id }, anna));
    expect(await rowsOfTrip(f.id)).toEqual(
      [...notes].sort().map((b) => [b, b === first.belegnr ? null : 'abgebrochen']),
    );
    expect(await claimsOf(notes)).toEqual([]);
    // The started note stays in its compartment: the next trip fills the other two.
    const g = ok(await start('KW02', lead));
    expect(g.faecher.map((c) => c.auftrag === null)).toEqual(
      f.faecher.map((c) => c.auftrag?.belegnr === first.belegnr),
    );
    ok<unknown>(await call(cartRelease, { fahrtId: g.id }, lead));
  });

  it("refuses the caller's second cart while the first is open", async () => {
    await newCart('KW03', 2);
    const f = ok(await start('KW03'));
    expect(refused(await start('KW02'))).toEqual([409, W.otherCartOpen('KW03')]);
    ok<unknown>(await call(cartRelease, { fahrtId: f.id }, anna));
  });

  it("'Nächster Auftrag' skips notes of a wave and on a cart; scanning one still works unless a cart holds it", async () => {
    const f = ok(await start('KW03'));
    const onCart = inCompartments(f) as string[];
    const [inWave, expected] = await oldestLoose(2);
    if (!inWave || !expected) throw new Error('too few notes');
    await releaseWave([inWave], 6);
    const next = ok<Auftrag>(await call(pickNext, {}, lead));
    expect(next.belegnr).toBe(expected);
    // A wave's note scanned by its number is picked singly.
    expect(ok<Auftrag>(await call(pickClaim, { belegnr: inWave }, lead)).belegnr).toBe(inWave);
    // A note on a cart is refused with its picker.
    expect(refused(await call(pickClaim, { belegnr: onCart[0] }, lead))).toEqual([
      409,
      K.claimedBy(demo.passwordUser.name),
    ]);
    expect(refused(await call(pickClaim, { belegnr: onCart[0] }, anna))).toEqual([
      409,
      K.claimedBy(demo.passwordUser.name),
    ]);
    // A pick or a Fehlmenge from a screen that had the note open before is refused, and lets go of it.
    const { line, stop } = lineOf(f, onCart[0] as string);
    const take = await call(
      pickTake,
      { id: line.auftragId, positionId: line.positionId, lagerplatzId: stop?.lagerplatz.id ?? 1, menge: 1 },
      lead,
    );
    expect([take.statusCode, take.json()]).toMatchObject([
      409,
      { success: false, message: K.claimedBy(demo.passwordUser.name), abgegeben: onCart[0] },
    ]);
    ok<unknown>(await call(cartRelease, { fahrtId: f.id }, anna));
    expect(ok<Auftrag>(await call(pickClaim, { belegnr: onCart[0] }, lead)).belegnr).toBe(onCart[0]);
  });

  it('a logout ends the trips of its login: its untouched notes leave the cart, its claims go', async () => {
    const other = await loginAs(t.app, demo.passwordUser);
    const f = ok(await start('KW03', other));
    const notes = (inCompartments(f) as string[]).filter((n) => n !== null);
    expect(notes.length).toBeGreaterThan(0);
    expect((await caller(t.app, other)(logout)).statusCode).toBe(200);
    const row = await db()
      .selectFrom('pick_trips')
      .select('finished_at')
      .where('id', '=', f.id)
      .executeTakeFirstOrThrow();
    expect(row.finished_at).not.toBeNull();
    expect(await rowsOfTrip(f.id)).toEqual([...notes].sort().map((b) => [b, 'abgebrochen']));
    expect(await claimsOf(notes)).toEqual([]);
    const g = ok(await start('KW03', lead));
    ok<unknown>(await call(cartRelease, { fahrtId: g.id }, lead));
  });

  it('a trip whose login ended otherwise frees its cart when it is scanned again', async () => {
    const other = await loginAs(t.app, demo.passwordUser);
    const f = ok(await start('KW03', other));
    const session = await db()
      .selectFrom('pick_trips')
      .select('session_id')
      .where('id', '=', f.id)
      .executeTakeFirstOrThrow();
    await db()
      .updateTable('sessions')
      .set({ revoked_at: new Date() })
      .where('id', '=', session.session_id ?? 0)
      .execute();
    const g = ok(await start('KW03', lead));
    expect(g.id).not.toBe(f.id);
    expect(await rowsOfTrip(f.id)).toEqual(
      (inCompartments(f) as string[])
        .filter((n) => n !== null)
        .sort()
        .map((b) => [b, 'abgebrochen']),
    );
    ok<unknown>(await call(cartRelease, { fahrtId: g.id }, lead));
  });

  it('a trip whose login sat idle past SESSION_IDLE_MINUTES frees its cart as well; one a moment idle does not', async () => {
    const other = await loginAs(t.app, demo.passwordUser);
    const f = ok(await start('KW03', other));
    const { session_id } = await db()
      .selectFrom('pick_trips')
      .select('session_id')
      .where('id', '=', f.id)
      .executeTakeFirstOrThrow();
    const idleFor = async (minutes: number) =>
      db()
        .updateTable('sessions')
        .set({ last_seen_at: new Date(Date.now() - minutes * 60_000) })
        .where('id', '=', session_id ?? 0)
        .execute();
    const idleMinutes = testConfig().sessionIdleMinutes;
    await idleFor(idleMinutes - 1);
    expect(refused(await start('KW03', lead))).toEqual([409, W.cartInUse('KW03', demo.passwordUser.name)]);
    await idleFor(idleMinutes + 1);
    const g = ok(await start('KW03', lead));
    expect(g.id).not.toBe(f.id);
    ok<unknown>(await call(cartRelease, { fahrtId: g.id }, lead));
  });

  it("imports refuse a location's code for a cart and a cart's or compartment's code for a location", async () => {
    const run = (name: 'locations' | 'pick-carts', text: string) =>
      importCsv(db(), name, text, { imagesDir: os.tmpdir() });
    const locations = await run(
      'locations',
      'Lagerplatz;Bezeichnung\nKW01;Wagen\nKW01-3;Fach\nZ-01-01-01;Neu\n',
    );
    expect(locations.committed).toBe(false);
    expect(locations.refused.map((r) => [r.line, r.column, r.code])).toEqual([
      [2, 'Lagerplatz', 'codeTaken'],
      [3, 'Lagerplatz', 'codeTaken'],
    ]);
    const carts = await run('pick-carts', 'Kommissionierwagen;Fächer\nA-03-02-01;2\n');
    expect(carts.refused.map((r) => [r.line, r.column, r.code])).toEqual([
      [2, 'Kommissionierwagen', 'codeTaken'],
    ]);
    expect(await stockInvariantViolations(db())).toBe(0);
  });
});

/**
 * A stop where two articles of one cart lie: each line says how much of ITS article lies there, so the screen
 * never offers more than that article's stock (the stop's `bestand` sums both).
 */
describe.each(databaseKinds())('Kommissionierwagen: two articles at one stop on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(() => t.close());

  it('gives each line the stock of its own article at the location', async () => {
    const db = t.database.db;
    const run = async (name: 'locations' | 'stock' | 'delivery-notes' | 'pick-carts', text: string) => {
      const result = await importCsv(db, name, text, { imagesDir: os.tmpdir() });
      expect(result.refused).toEqual([]);
    };
    // A location first in walking order, holding 5 of 100007 and 9 of 100008; one note wants 3 and 4.
    await run('locations', 'Lagerplatz;Bezeichnung\nA-00-00-01;Vorne\n');
    await run('stock', 'Lagerplatz;Artikelnummer;Menge\nA-00-00-01;100007;5\nA-00-00-01;100008;9\n');
    await run(
      'delivery-notes',
      'Belegnr;EU;Versandart;Projekt;Artikelnummer;Menge\nLSZWEI1;ja;DHL037;Onlineshop;100007;3\nLSZWEI1;ja;DHL037;Onlineshop;100008;4\n',
    );
    await run('pick-carts', 'Kommissionierwagen;Fächer\nKWZ;1\n');
    // Released as a wave of its own, so the cart takes this note and not the demo's older ones.
    const note = await db
      .selectFrom('delivery_notes')
      .select('id')
      .where('belegnr', '=', 'LSZWEI1')
      .executeTakeFirstOrThrow();
    const wave = await db
      .insertInto('pick_waves')
      .values({
        profile_name: 'Zwei Artikel',
        released_by: await userIdOf(db, demo.leadUser.username),
        notes_per_cart: 1,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.insertInto('pick_wave_notes').values({ delivery_note_id: note.id, wave_id: wave.id }).execute();

    const anna = await loginAs(t.app, demo.passwordUser);
    const res = await caller(t.app, anna)(cartStart, { body: { code: 'KWZ' } });
    expect(res.statusCode, res.body).toBe(200);
    const f = res.json<{ data: Fahrt }>().data;
    expect(f.route.map((s) => s.lagerplatz.code)).toEqual(['A-00-00-01']);
    const [stop] = f.route as [CartStop];
    expect(stop.lagerplatz.bestand).toBe(14);
    expect(stop.positionen.map((p) => [p.nummer, p.offen, p.bestand])).toEqual([
      ['100007', 3, 5],
      ['100008', 4, 9],
    ]);
  });
});
