import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  largeArticleNummer,
  largeBelegnr,
  largeEan,
  largeLocationCode,
  largeSizes,
  seedLarge,
} from '../../src/server/db/seed/large.ts';
import { authHeaders, loginDemo, startTestApp, type TestApp } from '../support/app.ts';
import { databaseKinds } from '../support/db.ts';
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

  const get = (url: string) => t.app.inject({ url, headers: authHeaders(token) });
  const count = async (
    table: 'articles' | 'locations' | 'stock' | 'movements' | 'delivery_note_lines',
    where = 'true',
  ) => {
    const db = t.database.db;
    const { sql } = await import('kysely');
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
    const found = async (scanned: string) => (await get(`/api/inventur/findarticle/${scanned}`)).json();
    const upc = largeEan(10); // stored with a leading 0
    expect(upc).toMatch(/^0\d{12}$/);
    const plain = largeEan(7);
    for (const scanned of [largeArticleNummer(10), upc, upc.slice(1)])
      expect(await found(scanned)).toMatchObject({ found: true, nummer: largeArticleNummer(10) });
    for (const scanned of [plain, `0${plain}`])
      expect(await found(scanned)).toMatchObject({ found: true, nummer: largeArticleNummer(7) });
    expect((await get(`/api/inventur/findlp/${largeLocationCode(5)}`)).json()).toMatchObject({ found: true });
    const note = (await get(`/api/packagecontent/${largeBelegnr(4)}`)).json() as {
      data: { paketinhalt: unknown[] };
    };
    expect(note.data.paketinhalt).toHaveLength(sizes.linesPerNote);
  });
});
