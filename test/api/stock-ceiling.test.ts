import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Endpoint } from '../../src/contract/endpoint.ts';
import { bookInventur } from '../../src/contract/inventur.ts';
import { MAX_STOCK_PER_LOCATION } from '../../src/contract/limits.ts';
import { texts } from '../../src/contract/texts.ts';
import { moveArticle, moveLocation } from '../../src/contract/umbuchung.ts';
import { bookWmsRetoure } from '../../src/contract/wmsretoure.ts';
import { importCsv } from '../../src/server/import/run.ts';
import { demo } from '../../src/server/seed/demo.ts';
import { loginDemo, startTestApp, type TestApp } from '../support/app.ts';
import { databaseKinds } from '../support/db.ts';
import { caller } from '../support/endpoint-call.ts';
import { articleId, locationId, stockOf } from '../support/stock.ts';

/**
 * Stock amounts are 32-bit integers in the database (2,147,483,647 at most): 1,000,000 per WMS return reached
 * 'integer out of range' — a 500 — after 2,147 calls. No booking may take the stock of an article on a location
 * (all its charges and MHDs together) above MAX_STOCK_PER_LOCATION; it is refused with 400, whole.
 */
const MAX = MAX_STOCK_PER_LOCATION;
const A = demo.article.nummer;
const B = demo.article3.nummer;

describe.each(databaseKinds())('the most one location may hold, on %s', (kind) => {
  let t: TestApp;
  let token: string;
  const db = () => t.database.db;

  beforeAll(async () => {
    t = await startTestApp(kind);
    token = await loginDemo(t.app);
  });
  afterAll(() => t.close());

  /** Sets the stock of an article on a location, in one plain slot (as an earlier import could have). */
  async function place(code: string, nummer: string, amount: number) {
    const [location, article] = [await locationId(db(), code), await articleId(db(), nummer)];
    await sql`delete from stock where location_id = ${location} and article_id = ${article}`.execute(db());
    if (amount > 0)
      await sql`insert into stock (location_id, article_id, amount)
        values (${location}, ${article}, ${amount})`.execute(db());
  }
  const held = async (code: string, nummer: string) =>
    stockOf(db(), await locationId(db(), code), await articleId(db(), nummer));
  /** Everything a refused booking could have written. */
  const written = async () =>
    JSON.stringify(
      (
        await sql`select (select count(*) from movements)::int as movements,
          (select count(*) from wms_returns)::int as wms, (select count(*) from inventory_counts)::int as counts,
          (select count(*) from stock)::int as stock_rows,
          (select array_agg(amount order by id) from stock)::text as amounts`.execute(db())
      ).rows[0],
    );
  const send = (endpoint: Endpoint, body: Record<string, unknown>) =>
    caller(t.app, token)(endpoint, { body });
  const over = (nummer: string, code: string) => ({
    success: false,
    message: texts.stock.overMaximum(nummer, code, MAX),
  });

  it('WMS-Retoure: refuses a return that would take the LHM over the maximum, books one that reaches it', async () => {
    const lhm = demo.locations.lhm;
    const ids = { article: await articleId(db(), A), lagerplatz: await locationId(db(), lhm) };
    const wms = (amount: number) =>
      send(bookWmsRetoure, { ...ids, amount, charge: 'CH-9', mhd: null, quality: 2 });
    await place(lhm, A, MAX - 1_000);
    const before = await written();
    const refused = await wms(1_001);
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json()).toMatchObject(over(A, lhm));
    expect(await written()).toBe(before);
    expect((await wms(1_000)).statusCode).toBe(200);
    expect(await held(lhm, A)).toBe(MAX);
    // 2,147 returns of 1,000,000 each onto an LHM: refused long before the integer limit, never a 500.
    await place(lhm, A, 2_147_000_000);
    const legacy = await wms(1_000_000);
    expect(legacy.statusCode, legacy.body).toBe(400);
    expect(await held(lhm, A)).toBe(2_147_000_000);
  });

  it('Artikel umlagern and Nachschub (the same call): refuses a move that would take the target over', async () => {
    const [from, to] = [demo.locations.main, demo.locations.empty];
    await place(from, A, 10);
    await place(to, A, MAX - 5);
    const ids = {
      from: await locationId(db(), from),
      to: await locationId(db(), to),
      article: await articleId(db(), A),
    };
    const before = await written();
    const refused = await send(moveArticle, { ...ids, amount: 6 });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json()).toMatchObject(over(A, to));
    expect(await written()).toBe(before);
    expect((await send(moveArticle, { ...ids, amount: 5 })).statusCode).toBe(200);
    expect(await held(to, A)).toBe(MAX);
    expect(await held(from, A)).toBe(5);
  });

  it('Umbuchung: refuses moving a whole location onto one that already holds too much of an article', async () => {
    const [from, to] = [demo.locations.second, demo.locations.empty];
    await place(from, A, 10);
    await place(from, B, 3);
    await place(to, A, MAX - 9);
    await place(to, B, 0);
    const ids = { from: await locationId(db(), from), to: await locationId(db(), to) };
    const before = await written();
    const refused = await send(moveLocation, ids);
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json()).toMatchObject(over(A, to));
    expect(await written()).toBe(before);
    await place(to, A, MAX - 10);
    const done = await send(moveLocation, ids);
    expect(done.statusCode, done.body).toBe(200);
    expect([await held(to, A), await held(to, B), await held(from, A)]).toEqual([MAX, 3, 0]);
  });

  it('Inventur: a count sets the stock, so it never goes over (a location above the maximum is counted down)', async () => {
    const code = demo.locations.main;
    await place(code, A, 2_147_000_000);
    const res = await send(bookInventur, {
      lp: await locationId(db(), code),
      article: await articleId(db(), A),
      amount: 7,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await held(code, A)).toBe(7);
  });

  it('Import: refuses stock that would take an article on a location over the maximum, with all its slots', async () => {
    const code = demo.locations.main;
    await place(code, A, 600_000_000);
    const before = await written();
    // The file's slot with a charge comes beside the stored plain one: 600,000,000 + 400,000,001.
    const report = await importCsv(
      db(),
      'stock',
      `Lagerplatz;Artikelnummer;Charge;Menge\n${code};${A};CH-1;400.000.001\n`,
      { imagesDir: '' },
    );
    expect(report.committed).toBe(false);
    expect(report.refused).toEqual([
      {
        line: 2,
        column: 'Menge',
        code: 'aboveMaximum',
        params: { nummer: A, code, total: 1_000_000_001, max: 1_000_000_000 },
        reason: `would make the stock of article ${A} on ${code} 1,000,000,001, more than the 1,000,000,000 one location may hold`,
      },
    ]);
    expect(await written()).toBe(before);
    // Replacing the stored slot in the same file is fine: it is the file's amount that counts.
    const replaced = await importCsv(
      db(),
      'stock',
      `Lagerplatz;Artikelnummer;Charge;Menge\n${code};${A};;0\n${code};${A};CH-1;1.000.000.000\n`,
      { imagesDir: '' },
    );
    expect(replaced.refused).toEqual([]);
    expect(await held(code, A)).toBe(MAX);
  });
});
