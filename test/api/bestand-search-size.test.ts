import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BESTAND_ROWS_PER_ARTICLE, bestandArtikel } from '../../src/contract/leitstand/bestand.ts';
import { demo } from '../../src/server/seed/demo.ts';
import { loginAs, startTestApp, type TestApp } from '../support/app.ts';
import { databaseKinds } from '../support/db.ts';
import { caller } from '../support/endpoint-call.ts';
import { articleId } from '../support/stock.ts';

type Answer = {
  artikel: { nummer: string; gesamt: number; bestand: { lagerplatz: string }[]; bestandWeitere?: number }[];
  mehr: boolean;
};

/**
 * Issue 39 row 7: a Bestand search answered every stock row of every article it found — 9 MB for articles
 * on thousands of locations. Now a page: at most `limit` articles (default 50), each with its first 50
 * stock rows in location order, the count of the others and the whole stock.
 */
describe.each(databaseKinds())('the Bestand search answers a page on %s', (kind) => {
  let t: TestApp;
  let lead: ReturnType<typeof caller>;
  const SLOTS = 300;
  beforeAll(async () => {
    t = await startTestApp(kind);
    lead = caller(t.app, await loginAs(t.app, demo.leadUser));
    const db = t.database.db;
    const article = await articleId(db, demo.article.nummer);
    await sql`insert into locations (code, name, lagertyp)
      select 'S-' || lpad(n::text, 4, '0'), 'Seite ' || n, 'Regal' from generate_series(1, ${SLOTS}::integer) n`.execute(
      db,
    );
    await sql`insert into stock (location_id, article_id, amount)
      select id, ${article}::integer, 3 from locations where code like 'S-%'`.execute(db);
  });
  afterAll(() => t.close());

  const search = async (query: Record<string, string>) => {
    const res = await lead(bestandArtikel, { query });
    expect(res.statusCode).toBe(200);
    return { answer: res.json<Answer>(), bytes: res.body.length };
  };

  it('lists an article’s first 50 stock rows, counts the others and sums them all; `limit` sets the page of articles', async () => {
    const { answer, bytes } = await search({ q: demo.article.nummer });
    const [hit] = answer.artikel;
    // 50 on A-01-01-01, 10 on A-01-01-02 (DESIGN §7), and 3 on each slot added here.
    expect(hit?.nummer).toBe(demo.article.nummer);
    expect(hit?.bestand).toHaveLength(BESTAND_ROWS_PER_ARTICLE);
    expect(hit?.bestand.slice(0, 2).map((r) => r.lagerplatz)).toEqual(['A-01-01-01', 'A-01-01-02']);
    expect(hit?.bestandWeitere).toBe(SLOTS + 2 - BESTAND_ROWS_PER_ARTICLE);
    expect(hit?.gesamt).toBe(60 + 3 * SLOTS);
    expect(bytes).toBeLessThan(15_000);

    const all = await search({ q: 'Kugelschreiber' });
    expect(all.answer.artikel.length).toBeGreaterThan(1);
    const one = await search({ q: 'Kugelschreiber', limit: '1' });
    expect(one.answer.artikel.map((a) => a.nummer)).toEqual([all.answer.artikel[0]?.nummer]);
    expect(one.answer.mehr).toBe(true);
    const refused = await lead(bestandArtikel, { query: { q: 'Kugelschreiber', limit: '51' } });
    expect(refused.statusCode).toBe(400);
  });
});
