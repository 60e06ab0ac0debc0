import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginCard } from '../../src/contract/auth.ts';
import { bookInventur, inventurHistory } from '../../src/contract/inventur.ts';
import { AMOUNT_MAX } from '../../src/contract/limits.ts';
import { findArticle, findLp } from '../../src/contract/lookup.ts';
import { texts } from '../../src/contract/texts.ts';
import { demo } from '../../src/server/seed/demo.ts';
import { loginDemo, startTestApp, type TestApp } from '../support/app.ts';
import { databaseKinds } from '../support/db.ts';
import { type BodyOf, caller } from '../support/endpoint-call.ts';
import { stockInvariantViolations } from '../support/stock.ts';

describe.each(databaseKinds())('Inventur API on %s', (kind) => {
  let t: TestApp;
  let token: string;
  let ids: { main: number; second: number; empty: number; article: number; article3: number };

  beforeAll(async () => {
    t = await startTestApp(kind);
    token = await loginDemo(t.app);
    const loc = async (code: string) =>
      (
        await t.database.db
          .selectFrom('locations')
          .select('id')
          .where('code', '=', code)
          .executeTakeFirstOrThrow()
      ).id;
    const art = async (nummer: string) =>
      (
        await t.database.db
          .selectFrom('articles')
          .select('id')
          .where('nummer', '=', nummer)
          .executeTakeFirstOrThrow()
      ).id;
    ids = {
      main: await loc(demo.locations.main),
      second: await loc(demo.locations.second),
      empty: await loc(demo.locations.empty),
      article: await art(demo.article.nummer),
      article3: await art(demo.article3.nummer),
    };
  });
  afterAll(() => t.close());

  const scanArticle = (number: string) => caller(t.app, token)(findArticle, { params: { number } });
  const scanLocation = (code: string) => caller(t.app, token)(findLp, { params: { code } });
  const book = (body: BodyOf<typeof bookInventur>, key?: string) =>
    caller(t.app, token)(bookInventur, { body, key });
  const stockOf = async (location: number, article: number) => {
    const row = await t.database.db
      .selectFrom('stock')
      .select(sql<number>`coalesce(sum(amount), 0)::int`.as('amount'))
      .where('location_id', '=', location)
      .where('article_id', '=', article)
      .executeTakeFirstOrThrow();
    return row.amount;
  };
  const journalAgreesWithStock = async () => (await stockInvariantViolations(t.database.db)) === 0;

  describe('finding an article', () => {
    it('finds it by nummer', async () => {
      const res = await scanArticle('100001');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        found: true,
        count: 1,
        id: ids.article,
        nummer: '100001',
        name: 'Kugelschreiber blau',
      });
    });

    it('finds it by EAN, also with a leading 0 added or dropped', async () => {
      for (const scan of ['4006381333931', '04006381333931']) {
        expect((await scanArticle(scan)).json()).toMatchObject({
          found: true,
          nummer: '100001',
        });
      }
    });

    it('finds it by herstellernummer', async () => {
      expect((await scanArticle('SCH-KS-100')).json()).toMatchObject({
        found: true,
        nummer: '100001',
      });
    });

    it('reports an ambiguous number with its count and no article', async () => {
      expect((await scanArticle('HN-DUP')).json()).toEqual({
        found: false,
        count: 2,
        id: null,
        nummer: null,
        name: null,
      });
    });

    it('prefers a nummer over an EAN over a herstellernummer, and counts at most 50 of a kind', async () => {
      const article = (nummer: string, extra: { ean?: string; herstellernummer?: string } = {}) => ({
        nummer,
        name: `Rang ${nummer}`,
        kurzbezeichnung: nummer,
        ean: extra.ean ?? null,
        herstellernummer: extra.herstellernummer ?? null,
      });
      await t.database.db
        .insertInto('articles')
        .values([
          article('RANG-A'),
          article('RANG-B', { herstellernummer: 'RANG-A' }),
          article('RANG-C', { ean: '2000000000015' }),
          article('RANG-D', { herstellernummer: '2000000000015' }),
          ...Array.from({ length: 60 }, (_, i) => article(`RANG-H${i}`, { herstellernummer: 'RANG-VIELE' })),
        ])
        .execute();
      expect((await scanArticle('RANG-A')).json()).toMatchObject({
        found: true,
        nummer: 'RANG-A',
      });
      expect((await scanArticle('2000000000015')).json()).toMatchObject({
        found: true,
        nummer: 'RANG-C',
      });
      expect((await scanArticle('RANG-VIELE')).json()).toMatchObject({
        found: false,
        count: 50,
      });
    });

    it('reports an unknown number as not found', async () => {
      expect((await scanArticle('999999999')).json()).toMatchObject({
        found: false,
        count: 0,
      });
    });

    it('takes scans with slashes, spaces and umlauts in the URL', async () => {
      const res = await scanArticle('AB/12 Müller');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ found: false, count: 0 });
    });

    it('refuses a scan with control characters or over 200 characters with 400', async () => {
      for (const scan of ['abc\u0000def', 'x'.repeat(201)]) {
        const res = await scanArticle(scan);
        expect(res.statusCode).toBe(400);
        expect(res.json()).toMatchObject({ success: false });
      }
    });
  });

  it('finds a location by its code and reports an unknown one', async () => {
    expect((await scanLocation('A-01-01-01')).json()).toEqual({
      found: true,
      id: ids.main,
      name: 'A-01-01-01',
    });
    expect((await scanLocation('Z-99')).json()).toEqual({ found: false, id: null, name: null });
  });

  describe('booking a count', () => {
    it('sets the stock to the counted amount and journals the difference', async () => {
      const res = await book({ lp: ids.main, article: ids.article, amount: 47 });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ success: true });
      expect(await stockOf(ids.main, ids.article)).toBe(47);
      const journal = await t.database.db
        .selectFrom('movements')
        .selectAll()
        .where('kind', '=', 'inventur')
        .where('article_id', '=', ids.article)
        .execute();
      expect(journal).toHaveLength(1);
      expect(journal[0]).toMatchObject({ from_location_id: ids.main, to_location_id: null, amount: 3 });
      expect(await journalAgreesWithStock()).toBe(true);
    });

    it('adds stock where more is counted, also on an empty location', async () => {
      await book({ lp: ids.empty, article: ids.article3, amount: 12 });
      expect(await stockOf(ids.empty, ids.article3)).toBe(12);
      await book({ lp: ids.empty, article: ids.article3, amount: 15 });
      expect(await stockOf(ids.empty, ids.article3)).toBe(15);
      expect(await journalAgreesWithStock()).toBe(true);
    });

    it('counts 0 as empty: the stock row goes, the count is recorded', async () => {
      await book({ lp: ids.second, article: ids.article, amount: 0 });
      expect(await stockOf(ids.second, ids.article)).toBe(0);
      const rows = await t.database.db
        .selectFrom('stock')
        .select('id')
        .where('location_id', '=', ids.second)
        .where('article_id', '=', ids.article)
        .execute();
      expect(rows).toHaveLength(0);
      expect(await journalAgreesWithStock()).toBe(true);
    });

    it('records an unchanged count without a journal row', async () => {
      const before = await t.database.db
        .selectFrom('movements')
        .select(sql<number>`count(*)::int`.as('n'))
        .executeTakeFirstOrThrow();
      await book({ lp: ids.main, article: ids.article3, amount: 40 });
      const after = await t.database.db
        .selectFrom('movements')
        .select(sql<number>`count(*)::int`.as('n'))
        .executeTakeFirstOrThrow();
      expect(after.n).toBe(before.n);
    });

    it('refuses bad amounts and missing fields with 400 and a German message, writing nothing', async () => {
      const countsBefore = await t.database.db
        .selectFrom('inventory_counts')
        .select(sql<number>`count(*)::int`.as('n'))
        .executeTakeFirstOrThrow();
      for (const [payload, message] of [
        [
          { lp: ids.main, article: ids.article, amount: -1 },
          texts.errors.input.tooSmall(texts.inventur.amount, 0),
        ],
        [
          { lp: ids.main, article: ids.article, amount: 0.5 },
          texts.errors.input.notAWholeNumber(texts.inventur.amount),
        ],
        [
          { lp: ids.main, article: ids.article, amount: '5' },
          texts.errors.input.notANumber(texts.inventur.amount),
        ],
        [
          { lp: ids.main, article: ids.article, amount: 1e12 },
          texts.errors.input.tooBig(texts.inventur.amount, AMOUNT_MAX),
        ],
        [{ lp: ids.main, article: ids.article }, texts.errors.input.missing(texts.inventur.amount)],
        [
          { lp: 'A-01-01-01', article: ids.article, amount: 1 },
          texts.errors.input.notANumber(texts.inventur.location),
        ],
        [{ article: ids.article, amount: 1 }, texts.errors.input.missing(texts.inventur.location)],
      ] as const) {
        const res = await book(payload);
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
        expect(res.json()).toMatchObject({ success: false, message });
      }
      const countsAfter = await t.database.db
        .selectFrom('inventory_counts')
        .select(sql<number>`count(*)::int`.as('n'))
        .executeTakeFirstOrThrow();
      expect(countsAfter.n).toBe(countsBefore.n);
    });

    it('refuses an unknown location or article with 404 (SPEC §8; decision 32: it was 400)', async () => {
      const res = await book({ lp: 999999, article: ids.article, amount: 1 });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ success: false, message: texts.lookup.unknownLocation });
      const res2 = await book({ lp: ids.main, article: 999999, amount: 1 });
      expect(res2.statusCode).toBe(404);
      expect(res2.json()).toMatchObject({ success: false, message: texts.lookup.unknownArticle });
    });
  });

  it('shows the user their latest 20 counts, newest first, and not those of others', async () => {
    for (let i = 1; i <= 22; i++) await book({ lp: ids.empty, article: ids.article, amount: i });
    const card = await caller(t.app, null)(loginCard, { body: { stechuhrdevice: demo.cardUser.card } });
    const other = card.json().token as string;
    await caller(t.app, other)(bookInventur, { body: { lp: ids.main, article: ids.article3, amount: 39 } });

    const res = await caller(t.app, token)(inventurHistory);
    expect(res.statusCode).toBe(200);
    const rows = res.json().data as {
      time: string;
      article: string;
      articleName: string;
      lp: string;
      amount: number;
    }[];
    expect(rows).toHaveLength(20);
    expect(rows[0]).toMatchObject({
      article: '100001',
      articleName: 'Kugelschreiber blau',
      lp: 'B-02-01-01',
      amount: 22,
    });
    expect(rows[19]?.amount).toBe(3);
    expect(Number.isNaN(Date.parse(rows[0]?.time ?? ''))).toBe(false);
    expect(rows.some((r) => r.amount === 39)).toBe(false);
  });
});
