import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Endpoint } from '../../src/contract/endpoint.ts';
import { wareneingangList } from '../../src/contract/leitstand/wareneingang.ts';
import { texts } from '../../src/contract/texts.ts';
import {
  bookReceipt,
  closeReceipt,
  pushReceipt,
  type Receipt,
  receiptByNumber,
  suggestLocation,
  wareneingangTexts as t,
} from '../../src/contract/wareneingang.ts';
import { createIntegrationToken } from '../../src/server/auth/integration-tokens.ts';
import { importCsv } from '../../src/server/import/run.ts';
import { demo } from '../../src/server/seed/demo.ts';
import { authHeaders, loginAs, loginDemo, startTestApp, type TestApp } from '../support/app.ts';
import { databaseKinds } from '../support/db.ts';
import { type BodyOf, type Call, caller } from '../support/endpoint-call.ts';
import { articleId, locationId, stockInvariantViolations, stockOf } from '../support/stock.ts';
import { countWrites } from '../support/write-counts.ts';

/** Everything a receipt booking writes: the books, the keys, and the receipts' own rows. */
async function receiptWrites(db: TestApp['database']['db']) {
  const { rows } = await sql<{ receipts: string }>`
    select coalesce(string_agg(r.nummer || ':' || r.status || ':' || l.received || ':' ||
      coalesce(l.fehlmenge, -1) || ':' || coalesce(l.mehrmenge, -1), ',' order by l.id), '') as receipts
    from receipts r join receipt_lines l on l.receipt_id = r.id`.execute(db);
  return { ...(await countWrites(db, { keys: 'applied', logins: false })), receipts: rows[0]?.receipts };
}

describe.each(databaseKinds())('Wareneingang on %s', (kind) => {
  let app: TestApp;
  let token: string;
  let integration: string;

  beforeAll(async () => {
    app = await startTestApp(kind);
    token = await loginDemo(app.app);
    integration = await createIntegrationToken(app.database.db, 'erp');
  });
  afterAll(() => app.close());

  const db = () => app.database.db;
  const get = (endpoint: Endpoint, call: Call = {}, bearer = token) =>
    caller(app.app, bearer)(endpoint, call);
  const post = (endpoint: Endpoint, body: unknown, key?: string, bearer = token) =>
    caller(app.app, bearer)(endpoint, { body, key });
  /** A receipt by its number, as the handheld reads it. */
  const beleg = (wareneingang: string, bearer = token) =>
    get(receiptByNumber, { params: { wareneingang } }, bearer);
  const receipt = async (nummer: string) => {
    const res = await beleg(nummer);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Receipt>();
  };
  const lineOf = (r: Receipt, nummer: string) => {
    const line = r.positionen.find((p) => p.nummer === nummer);
    if (!line) throw new Error(`no line of ${nummer} on ${r.nummer}`);
    return line;
  };
  const book = (body: Record<string, unknown>, key?: string) => post(bookReceipt, body, key);
  const push = (number: string, body: unknown, bearer: string | null = integration) =>
    // A payload as the ERP may send it, fields the call does not know included.
    caller(app.app, bearer)(pushReceipt, { params: { number }, body: body as BodyOf<typeof pushReceipt> });

  it('shows the demo receipt WE100001 with its open lines, and refuses an unknown number in German', async () => {
    const r = await receipt(demo.receipt.nummer);
    expect(r).toMatchObject({ nummer: 'WE100001', status: 'offen', abgeschlossenAm: null });
    expect(r.positionen.map((p) => [p.nummer, p.erwartet, p.erhalten, p.charge, p.mhd])).toEqual([
      ['100001', 20, 0, null, null],
      ['100002', 5, 0, demo.receipt.charge, demo.receipt.mhd],
    ]);
    expect(lineOf(r, '100002')).toMatchObject({ chargePflicht: true, mhdPflicht: true });
    const unknown = await beleg('WE999999');
    expect([unknown.statusCode, unknown.json()]).toMatchObject([
      404,
      { success: false, message: 'Wareneingang "WE999999" nicht gefunden!' },
    ]);
  });

  it('suggests a location holding the article and Charge, else its fixed location, else an empty one of its Lagertyp', async () => {
    const r = await receipt(demo.receipt.nummer);
    const suggest = async (position: number, charge?: string) => {
      const res = await get(suggestLocation, { params: { position }, query: charge ? { charge } : {} });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ code: string | null; grund: string | null }>();
    };
    // 100001 lies on A-01-01-01 (50) and A-01-01-02 (10, its pick place with a minimum): the pick place.
    expect(await suggest(lineOf(r, '100001').position)).toEqual({ code: 'A-01-01-02', grund: 'holds' });
    const placeOf = (code: string | null) =>
      db()
        .selectFrom('locations')
        .select([
          'lagertyp',
          'is_lhm',
          sql<number>`(select count(*) from stock s where s.location_id = locations.id)::int`.as('rows'),
        ])
        .where('code', '=', code ?? '')
        .executeTakeFirstOrThrow();
    // 100002 lies nowhere and has no fixed location (so no Lagertyp of its own): the first empty location,
    // not a load carrier (issue 36.9: there was no suggestion at all).
    const joghurt = lineOf(r, '100002').position;
    const first = await suggest(joghurt);
    expect(first.grund).toBe('empty');
    expect(await placeOf(first.code)).toMatchObject({ is_lhm: false, rows: 0 });
    const firstEmpty = await sql<{ code: string }>`
      select code from locations l where not is_lhm
        and not exists (select 1 from stock s where s.location_id = l.id) order by code limit 1`.execute(
      db(),
    );
    expect(first.code).toBe(firstEmpty.rows[0]?.code);
    // Its fixed location once it has a minimum somewhere.
    const fixed = await locationId(db(), 'C-05-03-04');
    const a2 = await articleId(db(), '100002');
    await db()
      .insertInto('replenishment_minimums')
      .values({ location_id: fixed, article_id: a2, minimum: 3 })
      .execute();
    expect(await suggest(joghurt)).toEqual({ code: 'C-05-03-04', grund: 'fixed' });
    await db().deleteFrom('replenishment_minimums').where('article_id', '=', a2).execute();
    // Stored with another Charge on a Fachboden location: an empty Fachboden location for a new Charge.
    await db()
      .insertInto('stock')
      .values({
        location_id: await locationId(db(), 'C-05-01-04'),
        article_id: a2,
        charge: 'ALT',
        mhd: null,
        amount: 2,
      })
      .execute();
    const other = await suggest(joghurt, 'NEU-1');
    expect(other.grund).toBe('empty');
    expect(await placeOf(other.code)).toEqual({ lagertyp: 'Fachboden', is_lhm: false, rows: 0 });
    // …and the location holding the article with the Charge asked for.
    expect(await suggest(joghurt, 'ALT')).toEqual({ code: 'C-05-01-04', grund: 'holds' });
    await db().deleteFrom('stock').where('article_id', '=', a2).where('charge', '=', 'ALT').execute();
    expect((await get(suggestLocation, { params: { position: 999999 } })).statusCode).toBe(404);
  });

  it('books a line once however often the same key comes: stock, journal and the received amount together', async () => {
    const r = await receipt(demo.receipt.nummer);
    const line = lineOf(r, '100001');
    const target = await locationId(db(), 'A-01-01-02');
    const a1 = await articleId(db(), '100001');
    const before = await stockOf(db(), target, a1);
    const movements = await db()
      .selectFrom('movements')
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow();
    const key = randomUUID();
    const body = {
      wareneingang: 'WE100001',
      position: line.position,
      lagerplatz: 'A-01-01-02',
      amount: 12,
      charge: null,
      mhd: null,
    };
    const first = await book(body, key);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ success: true, message: '12 × 100001 auf A-01-01-02 eingelagert.' });
    const again = await Promise.all([book(body, key), book(body, key)]);
    for (const res of again) {
      expect(res.statusCode).toBe(200);
      expect(res.headers['idempotent-replayed']).toBe('true');
    }
    expect(await stockOf(db(), target, a1)).toBe(before + 12);
    expect(lineOf(await receipt('WE100001'), '100001').erhalten).toBe(12);
    const journal = await db()
      .selectFrom('movements')
      .select(['kind', 'amount', 'to_location_id', 'request_key'])
      .where('request_key', '=', key)
      .execute();
    expect(journal).toEqual([{ kind: 'wareneingang', amount: 12, to_location_id: target, request_key: key }]);
    const after = await db()
      .selectFrom('movements')
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow();
    expect(after.n).toBe(movements.n + 1);
    expect(await stockInvariantViolations(db())).toBe(0);
  });

  it('asks before booking more than is open, and books it once confirmed', async () => {
    const line = lineOf(await receipt('WE100001'), '100001'); // 8 of 20 open
    const before = await receiptWrites(db());
    const body = {
      wareneingang: 'WE100001',
      position: line.position,
      lagerplatz: 'A-01-01-01',
      amount: 10,
      charge: null,
      mhd: null,
    };
    const unconfirmed = await book(body);
    expect([unconfirmed.statusCode, unconfirmed.json()]).toMatchObject([
      409,
      { success: false, message: 'Mehr als erwartet – trotzdem buchen? (10 statt offen 8)' },
    ]);
    expect(await receiptWrites(db())).toEqual(before);
    const confirmed = await book({ ...body, mehrmenge: true });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(lineOf(confirmed.json<{ beleg: Receipt }>().beleg, '100001').erhalten).toBe(22);
    expect(await stockInvariantViolations(db())).toBe(0);
  });

  it('refuses bad input in German and writes nothing', async () => {
    const r = await receipt('WE100001');
    const joghurt = lineOf(r, '100002').position;
    const good = {
      wareneingang: 'WE100001',
      position: joghurt,
      lagerplatz: 'B-02-01-01',
      amount: 1,
      charge: null,
      mhd: null,
    };
    const before = await receiptWrites(db());
    const cases: [Record<string, unknown>, number, string][] = [
      [{ ...good, amount: 0 }, 400, 'Menge korrigieren!'],
      [{ ...good, amount: 'fünf' }, 400, texts.errors.input.notANumber('Menge')],
      [
        { ...good, charge: 'FALSCH' },
        400,
        `Charge "FALSCH" ist nicht angekündigt (erwartet: ${demo.receipt.charge}).`,
      ],
      [{ ...good, lagerplatz: 'X-99' }, 404, 'Lagerplatz "X-99" nicht gefunden!'],
      [{ ...good, position: 999999 }, 404, t.unknownPosition],
      [{ ...good, wareneingang: 'WE404' }, 404, 'Wareneingang "WE404" nicht gefunden!'],
      [{ ...good, mhd: '2027-02-30' }, 400, texts.errors.input.notADate('MHD')],
      [{ ...good, lagerplatz: '' }, 400, texts.errors.input.missing('Lagerplatz')],
    ];
    for (const [body, status, message] of cases) {
      const res = await book(body);
      expect([JSON.stringify(body), res.statusCode, res.json()]).toMatchObject([
        JSON.stringify(body),
        status,
        { success: false, message },
      ]);
    }
    // Raw on purpose: with no X-Idempotency-Key, which the contract caller always sends.
    const noKey = await app.app.inject({
      method: 'POST',
      url: bookReceipt.path,
      payload: good,
      headers: authHeaders(token),
    });
    expect(noKey.statusCode).toBe(400);
    expect(await receiptWrites(db())).toEqual(before);
  });

  it('keeps journal and stock equal under parallel bookings of one line', async () => {
    const joghurt = lineOf(await receipt('WE100001'), '100002').position;
    const results = await Promise.all(
      Array.from({ length: 6 }, () =>
        book({
          wareneingang: 'WE100001',
          position: joghurt,
          lagerplatz: 'B-02-01-01',
          amount: 1,
          charge: null,
          mhd: null,
          mehrmenge: true,
        }),
      ),
    );
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(lineOf(await receipt('WE100001'), '100002').erhalten).toBe(6);
    // The announced Charge and MHD went with the goods.
    const slot = await db()
      .selectFrom('stock')
      .select(['charge', 'mhd', 'amount'])
      .where('location_id', '=', await locationId(db(), 'B-02-01-01'))
      .execute();
    expect(slot).toEqual([{ charge: demo.receipt.charge, mhd: demo.receipt.mhd, amount: 6 }]);
    expect(await stockInvariantViolations(db())).toBe(0);
  });

  it('closes with short and over deliveries recorded, and is read-only afterwards', async () => {
    const closeKey = randomUUID();
    const closed = await post(closeReceipt, { wareneingang: 'WE100001' }, closeKey);
    expect(closed.statusCode, closed.body).toBe(200);
    const r = closed.json<{ message: string; beleg: Receipt }>();
    expect(r.message).toBe('Wareneingang WE100001 abgeschlossen.');
    expect(r.beleg.status).toBe('abgeschlossen');
    expect(r.beleg.abgeschlossenAm).not.toBeNull();
    // 100001: 22 of 20 (2 over); 100002: 6 of 5 (1 over).
    expect(r.beleg.positionen.map((p) => [p.nummer, p.erhalten, p.fehlmenge, p.mehrmenge])).toEqual([
      ['100001', 22, 0, 2],
      ['100002', 6, 0, 1],
    ]);
    // The same key again: the stored answer; a new 'Abschließen' or booking: refused, nothing written.
    expect((await post(closeReceipt, { wareneingang: 'WE100001' }, closeKey)).statusCode).toBe(200);
    const before = await receiptWrites(db());
    const line = lineOf(r.beleg, '100001').position;
    const refusals = [
      await post(closeReceipt, { wareneingang: 'WE100001' }),
      await book({
        wareneingang: 'WE100001',
        position: line,
        lagerplatz: 'A-01-01-01',
        amount: 1,
        charge: null,
        mhd: null,
        mehrmenge: true,
      }),
    ];
    for (const res of refusals)
      expect([res.statusCode, res.json()]).toMatchObject([
        409,
        { success: false, message: 'Wareneingang WE100001 ist abgeschlossen – keine Buchung mehr möglich.' },
      ]);
    expect(await receiptWrites(db())).toEqual(before);
    expect((await receipt('WE100001')).status).toBe('abgeschlossen');
  });

  it('records a short delivery when closing a receipt received in part', async () => {
    const pushed = await push('WE200001', {
      supplier: 'Papier AG',
      lines: [{ article: '100003', expected: 10 }],
    });
    expect(pushed.statusCode, pushed.body).toBe(200);
    const line = (await receipt('WE200001')).positionen[0];
    const booked = await book({
      wareneingang: 'WE200001',
      position: line?.position,
      lagerplatz: 'A-01-01-01',
      amount: 7,
      charge: null,
      mhd: null,
    });
    expect(booked.statusCode, booked.body).toBe(200);
    const closed = await post(closeReceipt, { wareneingang: 'WE200001' });
    expect(
      closed
        .json<{ beleg: Receipt }>()
        .beleg.positionen.map((p) => [p.erwartet, p.erhalten, p.fehlmenge, p.mehrmenge]),
    ).toEqual([[10, 7, 3, 0]]);
  });

  it('takes a receipt pushed by the ERP with an integration token, the same PUT again changes nothing', async () => {
    const body = {
      supplier: 'Molkerei Berg',
      lines: [
        { article: '100002', expected: 40, charge: 'B-77', mhd: '2027-01-31' },
        { article: '100002', expected: 10, charge: 'B-78', mhd: '2027-02-28' },
        { article: '100001', expected: 3 },
      ],
    };
    const first = await push('WE300001', body);
    expect([first.statusCode, first.json()]).toEqual([
      200,
      { number: 'WE300001', created: true, lines: { added: 3, changed: 0, removed: 0 } },
    ]);
    const again = await push('WE300001', body);
    expect(again.json()).toEqual({
      number: 'WE300001',
      created: false,
      lines: { added: 0, changed: 0, removed: 0 },
    });
    const shown = await receipt('WE300001');
    expect(shown.lieferant).toBe('Molkerei Berg');
    expect(shown.positionen.map((p) => [p.nummer, p.charge, p.mhd, p.erwartet])).toEqual([
      ['100002', 'B-77', '2027-01-31', 40],
      ['100002', 'B-78', '2027-02-28', 10],
      ['100001', null, null, 3],
    ]);
    // A line received on stays when the ERP drops it: refused, naming it; the receipt is unchanged.
    const b77 = shown.positionen[0]?.position;
    expect(
      (
        await book({
          wareneingang: 'WE300001',
          position: b77,
          lagerplatz: 'B-02-01-02',
          amount: 4,
          charge: 'B-77',
          mhd: '2027-01-31',
        })
      ).statusCode,
    ).toBe(200);
    const dropped = await push('WE300001', { lines: [{ article: '100001', expected: 3 }] });
    expect(dropped.statusCode).toBe(400);
    expect(dropped.json().message).toMatch(
      /^receipt refused, nothing written: .*article 100002 \(Charge B-77\) is missing, but 4 of it were already received/,
    );
    // A changed amount and a removed untouched line go through.
    const changed = await push('WE300001', {
      lines: [
        { article: '100002', expected: 4, charge: 'B-77', mhd: '2027-01-31' },
        { article: '100001', expected: 5 },
      ],
    });
    expect(changed.json()).toEqual({
      number: 'WE300001',
      created: false,
      lines: { added: 0, changed: 2, removed: 1 },
    });
  });

  it('refuses a push without an integration token, with a scanner login, or with bad lines, writing nothing', async () => {
    const body = { lines: [{ article: '100001', expected: 1 }] };
    const before = await receiptWrites(db());
    const noToken = await push('WE400001', body, null);
    expect([noToken.statusCode, noToken.json().message]).toEqual([
      401,
      expect.stringContaining('An integration token is required'),
    ]);
    const scanner = await push('WE400001', body, token);
    expect([scanner.statusCode, scanner.json().message]).toEqual([
      403,
      expect.stringContaining('A scanner login cannot use the integration calls'),
    ]);
    const cases: [unknown, string][] = [
      [
        { lines: [{ article: 'GIBTSNICHT', expected: 1 }] },
        'receipt refused, nothing written: lines[0].article: no article with the Artikelnummer "GIBTSNICHT"',
      ],
      [{ lines: [] }, 'lines: '],
      [{ lines: [{ article: '100001', expected: 0 }] }, 'expected in lines.0: '],
      [
        {
          lines: [
            { article: '100001', expected: 1 },
            { article: '100001', expected: 2 },
          ],
        },
        'lines[1].article: this article with this Charge and MHD is already on line 0',
      ],
      [{ lines: [{ article: '100001', expected: 1, mhd: '31.12.2027' }] }, 'mhd in lines.0: '],
      [{ lines: body.lines, extra: 1 }, ''],
    ];
    for (const [payload, message] of cases) {
      const res = await push('WE400001', payload);
      expect([JSON.stringify(payload), res.statusCode]).toEqual([JSON.stringify(payload), 400]);
      expect(res.json().message).toContain(message);
    }
    // A closed receipt cannot change.
    const closedPush = await push('WE100001', { lines: [{ article: '100001', expected: 99 }] });
    expect([closedPush.statusCode, closedPush.json().message]).toEqual([
      400,
      expect.stringContaining('receipt WE100001 is closed; it cannot change'),
    ]);
    expect(await receiptWrites(db())).toEqual(before);
    expect((await beleg('WE400001')).statusCode).toBe(404);
  });

  it('refuses an integration token on the handheld calls; a shift lead may use them', async () => {
    const asIntegration = await post(closeReceipt, { wareneingang: 'WE300001' }, randomUUID(), integration);
    expect([asIntegration.statusCode, asIntegration.json().message]).toEqual([
      403,
      'An integration token can only use the integration calls (/api/export/, /api/integration/).',
    ]);
    const lead = await loginAs(app.app, demo.leadUser);
    expect((await beleg('WE300001', lead)).statusCode).toBe(200);
  });

  it('imports receipts from CSV: all or nothing, and the same file twice changes nothing', async () => {
    const csv = [
      'Wareneingang;Lieferant;Artikelnummer;Menge;Charge;MHD',
      'WE500001;Bürobedarf Schulz GmbH;100001;12;;',
      'WE500001;Bürobedarf Schulz GmbH;100002;6;L-1;31.12.2027',
      'WE500002;Papier AG;100003;1.200;;',
    ].join('\n');
    const run = (text: string) => importCsv(db(), 'receipts', text, { imagesDir: '' });
    const report = await run(csv);
    expect(report.refused).toEqual([]);
    expect(report.summary).toEqual([
      'receipts: 2 new, 0 changed, 0 unchanged',
      'receipt lines: 3 new, 0 changed, 0 removed',
    ]);
    expect((await receipt('WE500002')).positionen.map((p) => p.erwartet)).toEqual([1200]);
    expect(lineOf(await receipt('WE500001'), '100002')).toMatchObject({
      charge: 'L-1',
      mhd: '2027-12-31',
      erwartet: 6,
    });
    const again = await run(csv);
    expect(again.summary).toEqual([
      'receipts: 0 new, 0 changed, 2 unchanged',
      'receipt lines: 0 new, 0 changed, 0 removed',
    ]);
    const before = await receiptWrites(db());
    const bad = await run(`${csv}\nWE500003;X;100001;0;;\nWE500002;Papier AG;GIBTSNICHT;1;;`);
    expect(bad.committed).toBe(false);
    expect(bad.refused.map((r) => `line ${r.line}: ${r.column}: ${r.reason}`)).toEqual([
      'line 4: Wareneingang: line 6 of the same receipt is refused',
      'line 5: Menge: 0 is not between 1 and 1000000',
      'line 6: Artikelnummer: no article with the Artikelnummer "GIBTSNICHT"',
    ]);
    expect(await receiptWrites(db())).toEqual(before);
    expect(await beleg('WE500003').then((r) => r.statusCode)).toBe(404);
  });

  it('refuses a booking above the stock ceiling of a location, writing nothing', async () => {
    const place = await locationId(db(), 'C-01-01-01');
    const a1 = await articleId(db(), '100001');
    // 999,999,999 there already, journalled, so the books stay balanced.
    await db()
      .insertInto('stock')
      .values({ location_id: place, article_id: a1, charge: null, mhd: null, amount: 999_999_999 })
      .execute();
    await db()
      .insertInto('movements')
      .values({ kind: 'korrektur', article_id: a1, to_location_id: place, amount: 999_999_999 })
      .execute();
    const line = lineOf(await receipt('WE500001'), '100001').position;
    const before = await receiptWrites(db());
    const res = await book({
      wareneingang: 'WE500001',
      position: line,
      lagerplatz: 'C-01-01-01',
      amount: 2,
      charge: null,
      mhd: null,
    });
    expect([res.statusCode, res.json().message]).toEqual([
      400,
      texts.stock.overMaximum('100001', 'C-01-01-01', 1_000_000_000),
    ]);
    expect(await receiptWrites(db())).toEqual(before);
    expect(
      (
        await book({
          wareneingang: 'WE500001',
          position: line,
          lagerplatz: 'C-01-01-01',
          amount: 1,
          charge: null,
          mhd: null,
        })
      ).statusCode,
    ).toBe(200);
    expect(await stockInvariantViolations(db())).toBe(0);
  });

  it('lists receipts with their differences in the Leitstand, for a shift lead only', async () => {
    const lead = await loginAs(app.app, demo.leadUser);
    const res = await get(wareneingangList, {}, lead);
    expect(res.statusCode, res.body).toBe(200);
    type Row = {
      nummer: string;
      status: string;
      fehlmenge: number;
      mehrmenge: number;
      abgeschlossenVon: string | null;
      positionen: { nummer: string; differenz: number }[];
    };
    const { data } = res.json<{ data: { offen: Row[]; abgeschlossen: Row[] } }>();
    expect(data.offen.map((r) => r.nummer)).toEqual(['WE300001', 'WE500001', 'WE500002']);
    const closed = Object.fromEntries(data.abgeschlossen.map((r) => [r.nummer, r]));
    expect(closed.WE100001).toMatchObject({
      fehlmenge: 0,
      mehrmenge: 3,
      abgeschlossenVon: demo.passwordUser.name,
    });
    expect(closed.WE100001?.positionen.map((p) => [p.nummer, p.differenz])).toEqual([
      ['100001', 2],
      ['100002', 1],
    ]);
    expect(closed.WE200001).toMatchObject({ fehlmenge: 3, mehrmenge: 0 });
    const worker = await get(wareneingangList);
    expect([worker.statusCode, worker.json().message]).toEqual([403, texts.errors.role.schichtleitung]);
  });
});
