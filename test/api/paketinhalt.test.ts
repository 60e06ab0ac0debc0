import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Endpoint } from '../../src/contract/endpoint.ts';
import * as kartonagen from '../../src/contract/kartonagen.ts';
import * as paketausgang from '../../src/contract/paketausgang.ts';
import * as paketinhalt from '../../src/contract/paketinhalt.ts';
import * as retoure from '../../src/contract/retoure.ts';
import { texts } from '../../src/contract/texts.ts';
import { demo } from '../../src/server/seed/demo.ts';
import { loginAs, loginDemo, startTestApp, type TestApp, userIdOf } from '../support/app.ts';
import { databaseKinds } from '../support/db.ts';
import { caller } from '../support/endpoint-call.ts';

describe.each(databaseKinds())('packing station API on %s', (kind) => {
  let t: TestApp;
  let token: string;
  let userId: number;
  /** The shift lead: only they may use the cheat code (DESIGN §9). */
  let leadToken: string;
  let leadId: number;
  const notes: Record<string, number> = {};

  beforeAll(async () => {
    t = await startTestApp(kind, { cheatCode: 'ALLES-FERTIG-42' });
    token = await loginDemo(t.app);
    leadToken = await loginAs(t.app, demo.leadUser);
    userId = await userIdOf(t.database.db, demo.passwordUser.username);
    leadId = await userIdOf(t.database.db, demo.leadUser.username);
    for (const n of await t.database.db.selectFrom('delivery_notes').select(['id', 'belegnr']).execute())
      notes[n.belegnr] = n.id;
  });
  afterAll(() => t.close());

  /** The packing station's view of a note, and its cartons, by the note's number. */
  const packing = (belegnr: string) =>
    caller(t.app, token)(paketinhalt.packageContent, { params: { belegnr } });
  const cartons = (belegnr: string) =>
    caller(t.app, token)(kartonagen.packageRecording, { params: { belegnr } });
  const send = (
    endpoint: Endpoint,
    body: unknown,
    options: { params?: Record<string, string>; key?: string; as?: string } = {},
  ) => caller(t.app, options.as ?? token)(endpoint, { params: options.params, body, key: options.key });
  /** Stores the carton counts of the note whose id is in the path. */
  const saveCartons = (id: number | undefined, body: Record<string, unknown>) =>
    send(kartonagen.savePackageRecording, body, { params: { id: String(id) } });
  const scanItem = (belegnr: string, itemNr: string, key = randomUUID(), as = token) =>
    send(
      paketinhalt.scanPackageItem,
      {
        id: notes[belegnr],
        itemNr,
        belegnr,
        eu: 1,
        user_id: userId,
        paketinhalt: [],
        versandart: 'DHL037',
      },
      { params: { itemNr }, key, as },
    );
  const scannedOf = async (belegnr: string) => {
    const { rows } = await sql<{ scanned: number }>`select coalesce(sum(pemenge), 0)::int as scanned
      from delivery_note_lines where delivery_note_id = ${notes[belegnr] ?? 0}`.execute(t.database.db);
    return rows[0]?.scanned;
  };
  const eventsOf = (belegnr: string) =>
    t.database.db
      .selectFrom('delivery_note_events')
      .selectAll()
      .where('delivery_note_id', '=', notes[belegnr] ?? 0)
      .execute();
  const pemengeOf = (rows: { nummer: string; pemenge: number }[], nummer: string) =>
    rows.find((r) => r.nummer === nummer)?.pemenge;

  describe('package content', () => {
    it('answers the delivery note with its lines and shipping flags', async () => {
      const res = await packing('LS100001');
      expect(res.statusCode).toBe(200);
      const data = res.json().data;
      expect(data).toMatchObject({
        id: notes.LS100001,
        belegnr: 'LS100001',
        eu: 1,
        versandart: 'DHL037',
        gravurArtikel: false,
      });
      expect(data.paketinhalt).toEqual([
        expect.objectContaining({
          nummer: '100001',
          herstellernummer: 'SCH-KS-100',
          name_de: 'Kugelschreiber blau',
          ean: '4006381333931',
          lsmenge: 2,
          pemenge: 0,
        }),
        expect.objectContaining({ nummer: '100003', ean: '4012345678901', lsmenge: 8, pemenge: 0 }),
      ]);
      expect((await packing('LS100002')).json().data).toMatchObject({
        eu: 0,
        versandart: 'DHL042',
        gravurArtikel: true,
      });
      expect((await packing('LS100099')).json().data.paketinhalt).toEqual([]);
    });

    it('answers an unknown delivery note with 404 and the spec text', async () => {
      const res = await packing('LS999');
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({
        success: false,
        message: texts.paketinhalt.deliveryNoteNotFound('LS999'),
      });
    });

    it('counts small lines one per scan and refuses the scan after the last with 406', async () => {
      let res = await scanItem('LS100001', '100001');
      expect(res.statusCode).toBe(200);
      expect(pemengeOf(res.json().data.paketinhalt, '100001')).toBe(1);
      res = await scanItem('LS100001', 'SCH-KS-100'); // by herstellernummer
      expect(pemengeOf(res.json().data.paketinhalt, '100001')).toBe(2);
      res = await scanItem('LS100001', '4006381333931');
      expect(res.statusCode).toBe(406);
      expect(res.json()).toMatchObject({ success: false, message: texts.paketinhalt.maxReached('100001') });
    });

    it('counts a line above 5 fully with one scan, also by EAN with a leading 0', async () => {
      const res = await scanItem('LS100001', '04012345678901');
      expect(res.statusCode).toBe(200);
      expect(pemengeOf(res.json().data.paketinhalt, '100003')).toBe(8);
      const note = await t.database.db
        .selectFrom('delivery_notes')
        .select('status')
        .where('id', '=', notes.LS100001 ?? 0)
        .executeTakeFirstOrThrow();
      expect(note.status).toBe('gepackt');
    });

    it('answers an item not on the note with 404 and the spec text', async () => {
      const res = await scanItem('LS100001', '100005');
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({
        success: false,
        message: texts.paketinhalt.itemNotInNote('100005'),
      });
    });

    it('two packers scanning the same line at once never pass the delivery amount', async () => {
      const answers = await Promise.all(Array.from({ length: 6 }, () => scanItem('LS100002', '100001')));
      expect(answers.filter((r) => r.statusCode === 200)).toHaveLength(1);
      expect(answers.filter((r) => r.statusCode === 406)).toHaveLength(5);
      const { rows } = await sql<{
        bad: number;
      }>`select count(*)::int as bad from delivery_note_lines where pemenge > lsmenge`.execute(t.database.db);
      expect(rows[0]?.bad).toBe(0);
    });

    it('refuses a scan whose path and body disagree, and an unknown note', async () => {
      const res = await send(
        paketinhalt.scanPackageItem,
        {
          id: notes.LS100002,
          itemNr: '100003',
          belegnr: 'LS100002',
          eu: 0,
          user_id: userId,
          paketinhalt: [],
          versandart: '',
        },
        { params: { itemNr: '100001' } },
      );
      expect(res.statusCode).toBe(400);
      const unknown = await send(
        paketinhalt.scanPackageItem,
        {
          id: 999999,
          itemNr: '100001',
          belegnr: 'X',
          eu: 0,
          user_id: userId,
          paketinhalt: [],
          versandart: '',
        },
        { params: { itemNr: '100001' } },
      );
      expect(unknown.statusCode).toBe(404);
    });

    it('completes a note with the configured code only, and journals who did it', async () => {
      const id = notes.LS100003;
      const wrong = await send(paketinhalt.packageContentCheat, { id, code: 'RATEN' }, { as: leadToken });
      expect(wrong.statusCode).toBe(403);
      expect(wrong.json()).toMatchObject({ success: false, message: texts.paketinhalt.cheatRefused });
      const right = await send(
        paketinhalt.packageContentCheat,
        { id, code: 'ALLES-FERTIG-42' },
        { as: leadToken },
      );
      expect(right.statusCode).toBe(200);
      for (const row of right.json().data.paketinhalt) expect(row.pemenge).toBe(row.lsmenge);
      const events = await t.database.db
        .selectFrom('delivery_note_events')
        .selectAll()
        .where('delivery_note_id', '=', id ?? 0)
        .execute();
      expect(events).toEqual([expect.objectContaining({ kind: 'abkuerzung', user_id: leadId })]);
    });

    it('refuses the cheat code to a worker, by either call, and packs nothing', async () => {
      const before = await scannedOf('LS100050');
      const put = await send(paketinhalt.packageContentCheat, {
        id: notes.LS100050,
        code: 'ALLES-FERTIG-42',
      });
      expect(put.statusCode).toBe(403);
      expect(put.json()).toMatchObject({ success: false, message: texts.errors.role.schichtleitung });
      const scanned = await scanItem('LS100050', 'ALLES-FERTIG-42');
      expect(scanned.statusCode).toBe(403);
      expect(scanned.json()).toMatchObject({ success: false, message: texts.paketinhalt.cheatNeedsLead });
      expect(await scannedOf('LS100050')).toBe(before);
      expect(await eventsOf('LS100050')).toEqual([]);
    });

    it('completes a note when the cheat code is scanned as an item, journalled once however often it is retried', async () => {
      const key = randomUUID();
      const first = await scanItem('LS100020', 'ALLES-FERTIG-42', key, leadToken);
      expect(first.statusCode).toBe(200);
      const rows = first.json().data.paketinhalt as { lsmenge: number; pemenge: number }[];
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) expect(row.pemenge).toBe(row.lsmenge);
      const retry = await scanItem('LS100020', 'ALLES-FERTIG-42', key, leadToken);
      expect(retry.statusCode).toBe(200);
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(retry.json()).toEqual(first.json());
      expect(await eventsOf('LS100020')).toEqual([
        expect.objectContaining({ kind: 'abkuerzung', user_id: leadId }),
      ]);
      const note = await t.database.db
        .selectFrom('delivery_notes')
        .select('status')
        .where('id', '=', notes.LS100020 ?? 0)
        .executeTakeFirstOrThrow();
      expect(note.status).toBe('gepackt');
    });

    it('answers another delivery note scanned as an item with 404 naming that note, counting nothing', async () => {
      const before = await scannedOf('LS100021');
      const key = randomUUID();
      const res = await scanItem('LS100021', 'LS100002', key);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({
        success: false,
        message: texts.paketinhalt.otherNoteScanned('LS100002'),
        lieferschein: 'LS100002',
      });
      // A retry of the same scan reads the same refusal, with the note in it.
      const retry = await scanItem('LS100021', 'LS100002', key);
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(retry.statusCode).toBe(404);
      expect(retry.json()).toEqual(res.json());
      expect(await scannedOf('LS100021')).toBe(before);
      expect(await eventsOf('LS100021')).toEqual([]);
    });

    it('asks for an article when the note being packed is scanned into the item field', async () => {
      const before = await scannedOf('LS100022');
      const res = await scanItem('LS100022', 'LS100022');
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({
        success: false,
        message: texts.paketinhalt.ownNoteScanned,
      });
      expect(await scannedOf('LS100022')).toBe(before);
    });

    it('answers an unknown code with the spec text only, completing nothing', async () => {
      const before = await scannedOf('LS100022');
      const res = await scanItem('LS100022', 'ALLES-FERTIG-4');
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({
        success: false,
        message: texts.paketinhalt.itemNotInNote('ALLES-FERTIG-4'),
      });
      expect(await scannedOf('LS100022')).toBe(before);
      expect(await eventsOf('LS100022')).toEqual([]);
    });

    it('marks a Klärfall and journals it', async () => {
      const res = await send(paketinhalt.klaerfall, { id: notes.LS100004 });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ success: true });
      const note = await t.database.db
        .selectFrom('delivery_notes')
        .selectAll()
        .where('id', '=', notes.LS100004 ?? 0)
        .executeTakeFirstOrThrow();
      expect(note.status).toBe('klaerfall');
      expect(note.klaerfall_at).not.toBeNull();
      expect((await send(paketinhalt.klaerfall, { id: 999999 })).statusCode).toBe(404);
    });
  });

  describe('cartons', () => {
    it('lists the project cartons with the counts of this note, and stores new counts', async () => {
      const res = await cartons('LS100001');
      expect(res.statusCode).toBe(200);
      const data = res.json().data as {
        id: number;
        kartonagen: { packageid: number; name: string; amount: number }[];
      };
      expect(data.id).toBe(notes.LS100001);
      expect(data.kartonagen.map((k) => k.name)).toEqual([
        'Karton S',
        'Karton M',
        'Karton L',
        'Versandtasche',
      ]);
      expect(data.kartonagen.every((k) => k.amount === 0)).toBe(true);
      const [small, medium] = data.kartonagen;
      const save = await saveCartons(notes.LS100001, {
        id: notes.LS100001,
        belegnr: 'LS100001',
        user_id: userId,
        kartonagen: [
          { packageid: small?.packageid, amount: 2 },
          { packageid: medium?.packageid, amount: 1 },
        ],
      });
      expect(save.statusCode).toBe(200);
      const again = (await cartons('LS100001')).json().data.kartonagen as {
        name: string;
        amount: number;
      }[];
      expect(again.map((k) => k.amount)).toEqual([2, 1, 0, 0]);
    });

    it('answers an empty list for a project without cartons, 404 for an unknown note', async () => {
      expect((await cartons('LS100098')).json().data.kartonagen).toEqual([]);
      expect((await cartons('LS999')).statusCode).toBe(404);
    });

    it('refuses a carton of another project, a negative count and a path that does not match', async () => {
      const foreign = await t.database.db
        .selectFrom('cartons')
        .select('id')
        .where('name', '=', 'Karton XL')
        .executeTakeFirstOrThrow();
      const base = { id: notes.LS100001, belegnr: 'LS100001', user_id: userId };
      const other = await saveCartons(notes.LS100001, {
        ...base,
        kartonagen: [{ packageid: foreign.id, amount: 1 }],
      });
      expect(other.statusCode).toBe(400);
      expect(other.json().message).toBe(texts.kartonagen.notInProject(foreign.id));
      const negative = await saveCartons(notes.LS100001, {
        ...base,
        kartonagen: [{ packageid: 1, amount: -1 }],
      });
      expect(negative.statusCode).toBe(400);
      const mismatch = await saveCartons(notes.LS100002, {
        ...base,
        kartonagen: [],
      });
      expect(mismatch.statusCode).toBe(400);
    });

    it('serves the carton and carrier pictures as JPEG, and nothing outside them', async () => {
      const image = await t.app.inject('/images/kartonagen/1.jpg');
      expect(image.statusCode).toBe(200);
      expect(image.headers['content-type']).toBe('image/jpeg');
      expect(image.rawPayload.subarray(0, 3).toString('hex')).toBe('ffd8ff');
      for (const carrier of ['dhl', 'gls', 'dpd', 'ups'])
        expect((await t.app.inject(`/images/carrier/${carrier}.jpg`)).statusCode).toBe(200);
      expect((await t.app.inject('/images/kartonagen/99.jpg')).statusCode).toBe(404);
      // Traversal never reaches a file outside the pictures (at most the web app answers).
      for (const url of [
        '/images/../package.json',
        '/images/%2e%2e/%2e%2e/package.json',
        '/images/..%2f..%2fpackage.json',
      ]) {
        const res = await t.app.inject(url);
        expect(res.body).not.toContain('"name": "lagerscanner"');
      }
    });
  });

  describe('parcels', () => {
    it('captures an outgoing parcel once, however often it is scanned, and answers its carrier', async () => {
      const first = await send(paketausgang.paketausgang, { tracking: '00340434161094042557' });
      expect(first.statusCode).toBe(200);
      expect(first.json()).toEqual({ carrier: 'dhl' });
      const second = await send(paketausgang.paketausgang, { tracking: '00340434161094042557' });
      expect(second.json()).toEqual({ carrier: 'dhl' });
      const { rows } = await sql<{ n: number }>`
        select count(*)::int as n from parcel_scans p join shipments s on s.id = p.shipment_id
        where s.tracking = '00340434161094042557' and p.kind = 'ausgang'`.execute(t.database.db);
      expect(rows[0]?.n).toBe(1);
    });

    it('derives the carrier from the tracking number when the shipment does not name it', async () => {
      expect((await send(paketausgang.paketausgang, { tracking: '00340434161094042564' })).json()).toEqual({
        carrier: 'dhl',
      });
    });

    it('answers an unknown tracking number with 404 and the spec text, and refuses an empty one', async () => {
      const res = await send(paketausgang.paketausgang, { tracking: 'XX123' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({
        success: false,
        message: texts.paketausgang.trackingNotFound('XX123'),
      });
      expect((await send(paketausgang.paketausgang, { tracking: '   ' })).statusCode).toBe(400);
    });

    it('compares the parcel with the packed delivery note', async () => {
      const ok = await send(paketausgang.paketausgangCompare, {
        tracking: '91000100098',
        belegnr: 'LS100098',
      });
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toEqual({ carrier: 'gls' });
      const wrong = await send(paketausgang.paketausgangCompare, {
        tracking: '00340434161094042557',
        belegnr: 'LS100098',
      });
      expect(wrong.statusCode).toBe(404);
      expect(wrong.json()).toMatchObject({
        success: false,
        message: texts.paketausgang.trackingMismatch('00340434161094042557'),
      });
      expect(
        (await send(paketausgang.paketausgangCompare, { tracking: 'NIX', belegnr: 'LS100098' })).statusCode,
      ).toBe(404);
    });

    it('records a return by tracking number', async () => {
      const res = await send(retoure.retourenerfassung, { tracking: '00340434161094042557' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ success: true, message: texts.retoure.recorded('00340434161094042557') });
      const unknown = await send(retoure.retourenerfassung, { tracking: 'XX999' });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().message).toBe(texts.paketausgang.trackingNotFound('XX999'));
    });
  });
});

describe.each(databaseKinds())('cheat code switched off on %s', (kind) => {
  it('refuses every code when none is configured; scanned as an item it is an ordinary unknown item', async () => {
    const t = await startTestApp(kind, { cheatCode: null });
    try {
      const token = await loginDemo(t.app);
      const note = await t.database.db
        .selectFrom('delivery_notes')
        .select('id')
        .where('belegnr', '=', 'LS100001')
        .executeTakeFirstOrThrow();
      const res = await caller(t.app, token)(paketinhalt.packageContentCheat, {
        body: { id: note.id, code: 'irgendwas' },
      });
      expect(res.statusCode).toBe(403);
      const item = await caller(t.app, token)(paketinhalt.scanPackageItem, {
        params: { itemNr: 'ALLES-FERTIG-42' },
        body: {
          id: note.id,
          itemNr: 'ALLES-FERTIG-42',
          belegnr: 'LS100001',
          eu: 1,
          user_id: 1,
          paketinhalt: [],
          versandart: 'DHL037',
        },
      });
      expect(item.statusCode).toBe(404);
      expect(item.json()).toMatchObject({
        success: false,
        message: texts.paketinhalt.itemNotInNote('ALLES-FERTIG-42'),
      });
      const { rows } = await sql<{ scanned: number; events: number }>`select
        (select coalesce(sum(pemenge), 0) from delivery_note_lines where delivery_note_id = ${note.id})::int as scanned,
        (select count(*) from delivery_note_events)::int as events`.execute(t.database.db);
      expect(rows[0]).toEqual({ scanned: 0, events: 0 });
    } finally {
      await t.close();
    }
  });
});
