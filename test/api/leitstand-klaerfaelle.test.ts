import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as kartonagen from '../../src/contract/kartonagen.ts';
import * as klaerfaelle from '../../src/contract/leitstand/klaerfaelle.ts';
import { leitstandUebersicht } from '../../src/contract/leitstand/uebersicht.ts';
import * as paketinhalt from '../../src/contract/paketinhalt.ts';
import { texts } from '../../src/contract/texts.ts';
import * as klaerfaelleMigration from '../../src/server/db/migrations/2026-11-25-01-klaerfaelle.ts';
import * as pickingMigration from '../../src/server/db/migrations/2026-11-26-03-picking.ts';
import * as journalDocumentsMigration from '../../src/server/db/migrations/2026-11-28-01-journal-documents.ts';
import * as countMarksMigration from '../../src/server/db/migrations/2026-11-28-02-count-marks.ts';
import * as glossaryNamesMigration from '../../src/server/db/migrations/2026-11-28-03-glossary-names.ts';
import { demo } from '../../src/server/seed/demo.ts';
import { authHeaders, loginAs, startTestApp, type TestApp } from '../support/app.ts';
import { databaseKinds } from '../support/db.ts';
import { caller } from '../support/endpoint-call.ts';

type KlaerfallRow = klaerfaelle.KlaerfallRow;
const { klaerfaelleTexts } = klaerfaelle;
const CHEAT = 'ALLES-FERTIG-42';

describe.each(databaseKinds())('Klärfälle in the Leitstand on %s', (kind) => {
  let t: TestApp;
  /** The packer (mitarbeiter), the shift lead and the admin. */
  let packer: string;
  let lead: string;
  let admin: string;
  const ids: Record<string, number> = {};
  const notes: Record<string, number> = {};

  beforeAll(async () => {
    t = await startTestApp(kind, { cheatCode: CHEAT });
    packer = await loginAs(t.app, demo.passwordUser);
    lead = await loginAs(t.app, demo.leadUser);
    admin = await loginAs(t.app, demo.adminUser);
    for (const u of await t.database.db.selectFrom('users').select(['id', 'username']).execute())
      if (u.username) ids[u.username] = u.id;
    for (const n of await t.database.db.selectFrom('delivery_notes').select(['id', 'belegnr']).execute())
      notes[n.belegnr] = n.id;
  });
  afterAll(() => t.close());

  const noteId = (belegnr: string) => {
    const id = notes[belegnr];
    if (!id) throw new Error(`no note ${belegnr}`);
    return id;
  };
  const call = (as: string) => caller(t.app, as);
  const uebersicht = async () => (await call(lead)(leitstandUebersicht)).json().data;
  const report = (belegnr: string, as = packer, key?: string) =>
    call(as)(paketinhalt.klaerfall, { body: { id: noteId(belegnr) }, key });
  const erledigt = (klaerfallId: number, kommentar: unknown, as = lead, key?: string) =>
    call(as)(klaerfaelle.klaerfallErledigt, { params: { klaerfallId }, body: { kommentar }, key });
  const zurueck = (klaerfallId: number, as = lead, key?: string) =>
    call(as)(klaerfaelle.klaerfallZurueck, { params: { klaerfallId }, body: {}, key });
  const scanItem = (belegnr: string, itemNr: string, as = packer) =>
    call(as)(paketinhalt.scanPackageItem, {
      params: { itemNr },
      body: {
        id: noteId(belegnr),
        itemNr,
        belegnr,
        eu: 1,
        user_id: ids[demo.passwordUser.username],
        paketinhalt: [],
        versandart: 'DHL037',
      },
    });
  const cheat = (belegnr: string, code: string) =>
    call(lead)(paketinhalt.packageContentCheat, { body: { id: noteId(belegnr), code } });
  const content = (belegnr: string) => call(packer)(paketinhalt.packageContent, { params: { belegnr } });
  const list = async (query: Record<string, string> = {}) => {
    const res = await call(lead)(klaerfaelle.klaerfaelleList, { query });
    expect(res.statusCode).toBe(200);
    return res.json<{ data: { offen: KlaerfallRow[]; abgeschlossen: KlaerfallRow[]; tage: number } }>().data;
  };
  const openOf = async (belegnr: string) => {
    const row = (await list()).offen.find((k) => k.belegnr === belegnr);
    if (!row) throw new Error(`no open Klärfall for ${belegnr}`);
    return row;
  };
  const linesOf = (belegnr: string) =>
    t.database.db
      .selectFrom('delivery_note_lines as l')
      .innerJoin('articles as a', 'a.id', 'l.article_id')
      .select(['a.nummer', 'a.name', 'l.lsmenge', 'l.pemenge'])
      .where('l.delivery_note_id', '=', noteId(belegnr))
      .orderBy('l.id')
      .execute();
  const noteOf = (belegnr: string) =>
    t.database.db
      .selectFrom('delivery_notes')
      .select(['status', 'klaerfall_at'])
      .where('id', '=', noteId(belegnr))
      .executeTakeFirstOrThrow();
  const auditOf = (belegnr: string) =>
    t.database.db.selectFrom('audit_log').selectAll().where('subject', '=', belegnr).orderBy('id').execute();
  const klaerfaelleOf = (belegnr: string) =>
    t.database.db
      .selectFrom('klaerfaelle')
      .selectAll()
      .where('delivery_note_id', '=', noteId(belegnr))
      .orderBy('id')
      .execute();
  /** Everything a refused call must leave as it was. */
  const stateOf = async (belegnr: string) => ({
    note: await noteOf(belegnr),
    lines: await linesOf(belegnr),
    klaerfaelle: await klaerfaelleOf(belegnr),
    audit: await auditOf(belegnr),
    events: await t.database.db
      .selectFrom('delivery_note_events')
      .select(['kind', 'user_id'])
      .where('delivery_note_id', '=', noteId(belegnr))
      .orderBy('id')
      .execute(),
    cartons: await t.database.db
      .selectFrom('carton_usage')
      .select(['carton_id', 'amount'])
      .where('delivery_note_id', '=', noteId(belegnr))
      .execute(),
  });

  it('lists a reported note with who reported it, when, and its lines short', async () => {
    const [first] = await linesOf('LS100060');
    expect(first).toBeDefined();
    expect((await scanItem('LS100060', first?.nummer ?? '')).statusCode).toBe(200);
    const before = Date.now();
    expect((await report('LS100060')).statusCode).toBe(200);
    const lines = await linesOf('LS100060');
    expect(lines.some((l) => l.pemenge > 0)).toBe(true);
    const row = await openOf('LS100060');
    expect(row).toEqual({
      id: expect.any(Number),
      lieferscheinId: noteId('LS100060'),
      belegnr: 'LS100060',
      gemeldetVon: demo.passwordUser.name,
      gemeldetAm: expect.any(String),
      quelle: 'packen',
      positionen: lines.map((l) => ({ ...l, fehlt: l.lsmenge - l.pemenge })),
      abschluss: null,
    });
    expect(Math.abs(Date.parse(row.gemeldetAm) - before)).toBeLessThan(60_000);
    const overview = await uebersicht();
    expect(overview.offeneKlaerfaelle).toContainEqual({ belegnr: 'LS100060', at: row.gemeldetAm });
    expect(await noteOf('LS100060')).toMatchObject({ status: 'klaerfall', klaerfall_at: expect.any(Date) });
    // The admin may look too; the list is open ones first, oldest first.
    const asAdmin = await call(admin)(klaerfaelle.klaerfaelleList);
    expect(asAdmin.statusCode).toBe(200);
    expect(asAdmin.json().data.offen.map((k: KlaerfallRow) => k.belegnr)).toContain('LS100060');
  });

  it('refuses every Klärfälle call to a packer with 403 and the German message, writing nothing', async () => {
    const { id } = await openOf('LS100060');
    const before = await stateOf('LS100060');
    for (const res of [
      await call(packer)(klaerfaelle.klaerfaelleList),
      await erledigt(id, 'Storniert', packer),
      await zurueck(id, packer),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ success: false, message: texts.errors.role.schichtleitung });
    }
    expect(await stateOf('LS100060')).toEqual(before);
  });

  it('the packer cannot pack a note with an open Klärfall: note, item scans, cheat code and cartons are refused', async () => {
    const before = await stateOf('LS100060');
    const [line] = await linesOf('LS100060');
    const open = { success: false, message: 'Lieferschein hat einen offenen Klärfall!' };
    expect(texts.paketinhalt.klaerfallOpen).toBe(open.message); // the words, verbatim
    const refused = [
      await content('LS100060'),
      await scanItem('LS100060', line?.nummer ?? ''),
      await scanItem('LS100060', CHEAT, lead),
      await cheat('LS100060', CHEAT),
      await call(packer)(kartonagen.packageRecording, { params: { belegnr: 'LS100060' } }),
      await call(packer)(kartonagen.savePackageRecording, {
        params: { id: noteId('LS100060') },
        body: {
          id: noteId('LS100060'),
          belegnr: 'LS100060',
          user_id: ids[demo.passwordUser.username],
          kartonagen: [{ packageid: 1, amount: 1 }],
        },
      }),
      await report('LS100060'),
    ];
    for (const res of refused) {
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject(open);
    }
    expect(await stateOf('LS100060')).toEqual(before);
    // A wrong cheat code is still only that (it says nothing about the note).
    const wrong = await cheat('LS100060', 'X');
    expect(wrong.statusCode).toBe(403);
  });

  it("'Erledigt' needs a comment: a German 400, nothing written", async () => {
    const { id } = await openOf('LS100060');
    const before = await stateOf('LS100060');
    for (const kommentar of ['', '   ']) {
      const res = await erledigt(id, kommentar);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ success: false, message: klaerfaelleTexts.commentMissing });
    }
    for (const kommentar of [undefined, 42, 'x'.repeat(1001)]) {
      const res = await erledigt(id, kommentar);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/^Kommentar /);
    }
    expect(await stateOf('LS100060')).toEqual(before);
  });

  it("'Erledigt' closes the Klärfall exactly once, audited with who, what and when; the note stays unpackable", async () => {
    const { id } = await openOf('LS100060');
    const key = randomUUID();
    const before = Date.now();
    const first = await erledigt(id, '  Kunde hat storniert  ', lead, key);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ success: true });
    const replay = await erledigt(id, '  Kunde hat storniert  ', lead, key);
    expect(replay.statusCode).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    // Another click (a new key) finds it closed.
    const again = await erledigt(id, 'Noch einmal', lead);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ success: false, message: klaerfaelleTexts.notOpen('LS100060') });
    expect((await zurueck(id)).json()).toMatchObject({
      success: false,
      message: klaerfaelleTexts.notOpen('LS100060'),
    });

    const audit = await auditOf('LS100060');
    expect(audit).toEqual([
      expect.objectContaining({
        user_id: ids[demo.leadUser.username],
        action: 'klaerfall.erledigt',
        subject: 'LS100060',
        detail: { klaerfall: id, kommentar: 'Kunde hat storniert' },
        request_key: key,
      }),
    ]);
    expect(Math.abs(new Date(audit[0]?.at ?? 0).getTime() - before)).toBeLessThan(60_000);

    const data = await list();
    expect(data.offen.map((k) => k.belegnr)).not.toContain('LS100060');
    const closed = data.abgeschlossen.find((k) => k.id === id);
    expect(closed?.abschluss).toEqual({
      art: 'erledigt',
      von: demo.leadUser.name,
      am: expect.any(String),
      kommentar: 'Kunde hat storniert',
    });
    expect(closed?.gemeldetVon).toBe(demo.passwordUser.name);

    // The note is not packed, nor reported again: the case is closed.
    const before2 = await stateOf('LS100060');
    const closedMessage = { success: false, message: texts.paketinhalt.klaerfallClosed };
    for (const res of [await content('LS100060'), await report('LS100060')]) {
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject(closedMessage);
    }
    expect(await stateOf('LS100060')).toEqual(before2);
    expect(await noteOf('LS100060')).toMatchObject({ status: 'klaerfall' });
    // The Übersicht counts it no more among the open ones.
    const overview = await uebersicht();
    expect(overview.offeneKlaerfaelle.map((k: { belegnr: string }) => k.belegnr)).not.toContain('LS100060');
  });

  it("'Zurück ins Packen' resets the counters exactly once, audited; the note is packed from scratch and may be reported again", async () => {
    const lines = await linesOf('LS100061');
    const [line] = lines;
    expect((await scanItem('LS100061', line?.nummer ?? '')).statusCode).toBe(200);
    expect((await report('LS100061')).statusCode).toBe(200);
    const reported = await linesOf('LS100061');
    const { id } = await openOf('LS100061');

    const key = randomUUID();
    const first = await zurueck(id, lead, key);
    expect(first.statusCode).toBe(200);
    const replay = await zurueck(id, lead, key);
    expect(replay.statusCode).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect((await zurueck(id)).statusCode).toBe(409);
    expect(await auditOf('LS100061')).toEqual([
      expect.objectContaining({
        user_id: ids[demo.leadUser.username],
        action: 'klaerfall.zurueck',
        subject: 'LS100061',
        detail: { klaerfall: id },
        request_key: key,
      }),
    ]);

    expect(await noteOf('LS100061')).toEqual({ status: 'offen', klaerfall_at: null });
    expect((await linesOf('LS100061')).every((l) => l.pemenge === 0)).toBe(true);
    const reset = await content('LS100061');
    expect(reset.statusCode).toBe(200);
    expect(reset.json().data.paketinhalt.every((l: { pemenge: number }) => l.pemenge === 0)).toBe(true);
    expect((await scanItem('LS100061', line?.nummer ?? '')).statusCode).toBe(200);

    // The closed case still shows what the packer had scanned when reporting it.
    const closed = (await list()).abgeschlossen.find((k) => k.id === id);
    expect(closed?.abschluss).toMatchObject({ art: 'zurueck', von: demo.leadUser.name, kommentar: null });
    expect(closed?.positionen).toEqual(reported.map((l) => ({ ...l, fehlt: l.lsmenge - l.pemenge })));

    // Reported again: a new Klärfall beside the closed one.
    expect((await report('LS100061')).statusCode).toBe(200);
    const again = await openOf('LS100061');
    expect(again.id).not.toBe(id);
    expect((await klaerfaelleOf('LS100061')).map((k) => k.outcome)).toEqual(['zurueck', null]);
  });

  it('answers an unknown Klärfall with 404, a malformed one with a German 400', async () => {
    const unknown = await zurueck(999999);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ success: false, message: klaerfaelleTexts.notFound(999999) });
    expect((await erledigt(999999, 'Weg')).statusCode).toBe(404);
    // A malformed id in the path, as no client sends it.
    const malformed = await t.app.inject({
      method: 'PUT',
      url: '/api/leitstand/klaerfaelle/abc/zurueck',
      payload: {},
      headers: authHeaders(lead, { 'x-idempotency-key': randomUUID() }),
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({
      success: false,
      message: texts.errors.input.notAnId('Klärfall'),
    });
  });

  it('lists closed Klärfälle of the last 7 days by default, of up to 90 days on request', async () => {
    expect((await report('LS100062')).statusCode).toBe(200);
    const { id } = await openOf('LS100062');
    expect((await erledigt(id, 'Ware beschädigt, neu bestellt')).statusCode).toBe(200);
    await sql`update klaerfaelle set resolved_at = now() - interval '10 days' where id = ${id}`.execute(
      t.database.db,
    );
    const standard = await list();
    expect(standard.tage).toBe(7);
    expect(standard.abgeschlossen.map((k) => k.id)).not.toContain(id);
    const month = await list({ tage: '30' });
    expect(month.tage).toBe(30);
    expect(month.abgeschlossen.map((k) => k.id)).toContain(id);
    // Newest closed first.
    const closedAt = month.abgeschlossen.map((k) => Date.parse(k.abschluss?.am ?? ''));
    expect(closedAt).toEqual([...closedAt].sort((a, b) => b - a));
    for (const bad of ['0', '91', 'abc', '-1', '7.5']) {
      const res = await call(lead)(klaerfaelle.klaerfaelleList, { query: { tage: bad } });
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().message).toMatch(/^Zeitraum in Tagen /);
    }
  });

  it('two reports of one note at once make one Klärfall; two closings of one Klärfall at once, one closing', async () => {
    const reports = await Promise.all([report('LS100063'), report('LS100063'), report('LS100063')]);
    expect(reports.map((r) => r.statusCode).sort()).toEqual([200, 409, 409]);
    expect(await klaerfaelleOf('LS100063')).toHaveLength(1);
    const { id } = await openOf('LS100063');
    const closings = await Promise.all([zurueck(id), erledigt(id, 'Erledigt am Telefon'), zurueck(id)]);
    expect(closings.map((r) => r.statusCode).sort()).toEqual([200, 409, 409]);
    expect(await auditOf('LS100063')).toHaveLength(1);
    const [row] = await klaerfaelleOf('LS100063');
    expect(row?.outcome).not.toBeNull();
  });
});

describe.each(databaseKinds())('the Klärfälle migration on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(() => t.close());

  it('carries over notes that were a Klärfall before: open, reported by the last journal row, with their lines', async () => {
    const db = t.database.db;
    // Back to before the Klärfälle (and the migrations after them: picking and the count marks extend their
    // tables, the journal documents' trigger reads the picking columns, the glossary renames them).
    await glossaryNamesMigration.down(db as never);
    await countMarksMigration.down(db as never);
    await journalDocumentsMigration.down(db as never);
    await pickingMigration.down(db as never);
    await klaerfaelleMigration.down(db as never);
    const [withEvent, withoutEvent] = await db
      .selectFrom('delivery_notes')
      .select(['id', 'created_at'])
      .where('belegnr', 'in', ['LS100064', 'LS100065'])
      .orderBy('belegnr')
      .execute();
    if (!withEvent || !withoutEvent) throw new Error('demo notes missing');
    const user = await db
      .selectFrom('users')
      .select(['id'])
      .where('username', '=', demo.passwordUser.username)
      .executeTakeFirstOrThrow();
    await sql`update delivery_note_lines set pemenge = 1 where delivery_note_id = ${withEvent.id}`.execute(
      db,
    );
    await db
      .updateTable('delivery_notes')
      .set({ status: 'klaerfall', klaerfall_at: '2026-11-20T10:00:00Z' })
      .where('id', 'in', [withEvent.id, withoutEvent.id])
      .execute();
    await db
      .insertInto('delivery_note_events')
      .values([
        { delivery_note_id: withEvent.id, kind: 'klaerfall', user_id: user.id, at: '2026-11-20T09:00:00Z' },
        { delivery_note_id: withEvent.id, kind: 'klaerfall', user_id: user.id, at: '2026-11-20T10:00:00Z' },
      ])
      .execute();

    await klaerfaelleMigration.up(db as never);
    await pickingMigration.up(db as never);
    await journalDocumentsMigration.up(db as never);
    await countMarksMigration.up(db as never);
    await glossaryNamesMigration.up(db as never);

    const rows = await db.selectFrom('klaerfaelle').selectAll().orderBy('delivery_note_id').execute();
    expect(rows).toEqual([
      expect.objectContaining({
        delivery_note_id: withEvent.id,
        reported_by: user.id,
        reported_at: new Date('2026-11-20T10:00:00Z'),
        outcome: null,
      }),
      expect.objectContaining({
        delivery_note_id: withoutEvent.id,
        reported_by: null,
        reported_at: new Date('2026-11-20T10:00:00Z'),
        outcome: null,
      }),
    ]);
    const lines = await db
      .selectFrom('klaerfall_lines')
      .select(['klaerfall_id', 'pemenge'])
      .where('klaerfall_id', '=', rows[0]?.id ?? 0)
      .execute();
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.every((l) => l.pemenge === 1)).toBe(true);
    // Still blocked at the packing station, and listed in the Leitstand with an unknown reporter.
    const packer = await loginAs(t.app, demo.passwordUser);
    const res = await caller(t.app, packer)(paketinhalt.packageContent, { params: { belegnr: 'LS100065' } });
    expect(res.json()).toMatchObject({ success: false, message: texts.paketinhalt.klaerfallOpen });
    const lead = await loginAs(t.app, demo.leadUser);
    const listed = await caller(t.app, lead)(klaerfaelle.klaerfaelleList);
    expect(listed.json().data.offen.map((k: KlaerfallRow) => [k.belegnr, k.gemeldetVon])).toEqual([
      ['LS100064', demo.passwordUser.name],
      ['LS100065', null],
    ]);
  });
});
