import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findArticle, findLp } from '../../src/contract/lookup.ts';
import { packageContent } from '../../src/contract/paketinhalt.ts';
import {
  largeArticleNummer,
  largeBelegnr,
  largeEan,
  largeLocationCode,
  largeSizes,
  seedLarge,
} from '../../src/server/seed/large.ts';
import { loginDemo, startTestApp, type TestApp } from '../support/app.ts';
import { databaseKinds } from '../support/db.ts';
import { caller } from '../support/endpoint-call.ts';
import { stockInvariantViolations } from '../support/stock.ts';

/** `npm run seed:large` at 1 % size: the counts, the books, and that the generated codes scan. */
describe.each(databaseKinds())('the large benchmark warehouse on %s', (kind) => {
  let t: TestApp;
  let token: string;
  const sizes = largeSizes(0.01);

  beforeAll(async () => {
    t = await startTestApp(kind);
    await seedLarge(t.database.db, { scale: 0.01 });
    token = await loginDemo(t.app);
  }, 120_000);
  afterAll(() => t.close());

  const get = () => caller(t.app, token);
  const count = async (
    table: 'articles' | 'locations' | 'stock' | 'movements' | 'delivery_note_lines',
    where = 'true',
  ) => {
    const db = t.database.db;
    const row = await sql<{
      n: number;
    }>`select count(*)::int as n from ${sql.table(table)} where ${sql.raw(where)}`.execute(db);
    return row.rows[0]?.n;
  };

  it('holds the promised numbers of rows, journalled so that the books balance', async () => {
    expect(await count('articles', "nummer like '2%'")).toBe(sizes.articles);
    expect(await count('locations', "code like 'LHM1%' or code ~ '^[D-Z]-'")).toBe(sizes.locations);
    expect(
      await count(
        'stock',
        `article_id >= (select id from articles where nummer = '${largeArticleNummer(1)}')`,
      ),
    ).toBe(sizes.stockRows);
    expect(
      await count(
        'movements',
        `article_id >= (select id from articles where nummer = '${largeArticleNummer(1)}')`,
      ),
    ).toBe(sizes.journalRows);
    expect(await count('delivery_note_lines')).toBeGreaterThanOrEqual(
      sizes.deliveryNotes * sizes.linesPerNote,
    );
    expect(await stockInvariantViolations(t.database.db)).toBe(0);
  });

  it('finds its articles by nummer and by EAN with and without the leading 0, and its locations and notes', async () => {
    const found = async (scanned: string) =>
      (await get()(findArticle, { params: { number: scanned } })).json();
    const upc = largeEan(10); // stored with a leading 0
    expect(upc).toMatch(/^0\d{12}$/);
    const plain = largeEan(7);
    for (const scanned of [largeArticleNummer(10), upc, upc.slice(1)])
      expect(await found(scanned)).toMatchObject({ found: true, nummer: largeArticleNummer(10) });
    for (const scanned of [plain, `0${plain}`])
      expect(await found(scanned)).toMatchObject({ found: true, nummer: largeArticleNummer(7) });
    expect((await get()(findLp, { params: { code: largeLocationCode(5) } })).json()).toMatchObject({
      found: true,
    });
    const note = (await get()(packageContent, { params: { belegnr: largeBelegnr(4) } })).json() as {
      data: { paketinhalt: unknown[] };
    };
    expect(note.data.paketinhalt).toHaveLength(sizes.linesPerNote);
  });

  it("leaves the tables it does not fill unanalysed: a booking's exactly-once record is found by its key, not by reading them all", async () => {
    // PGlite never analyses on its own. Analysed while empty, the idempotency table's statements were planned
    // as a scan of the whole table, kept as the statement's plan for the server's life: each booking's
    // update of its record read every record, 0.1 ms at start and 1.2 ms a minute and 70,000 bookings later.
    await t.database.db.connection().execute(async (db) => {
      await sql`prepare record_answer(int, jsonb, uuid) as
        update idempotency set status_code = $1, response = $2 where key = $3`.execute(db);
      // A statement's first five runs are planned each time; from the sixth on, one plan is kept if it is as good.
      for (let i = 0; i < 6; i++) await sql`execute record_answer(200, '{}', gen_random_uuid())`.execute(db);
      await sql`insert into idempotency (key, user_id, route, request_hash, status_code, response)
        select gen_random_uuid(), (select min(id) from users), 'POST /api/umbuchung/artikel/', md5(n::text), 200, '{}'
        from generate_series(1, 5000) n`.execute(db);
      const plan = await sql<{
        'QUERY PLAN': string;
      }>`explain execute record_answer(200, '{}', gen_random_uuid())`.execute(db);
      expect(plan.rows.map((row) => row['QUERY PLAN']).join('\n')).toContain(
        'Index Scan using idempotency_pkey',
      );
      await sql`deallocate record_answer`.execute(db);
    });
  });
});
