import os from 'node:os';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importCsv } from '../../src/server/import/run.ts';
import { startTestApp, type TestApp, userIdOf } from '../support/app.ts';
import { databaseKinds } from '../support/db.ts';

/** The pick carts' import kind (issue 41 step A): a cart by its code, its compartments `<code>-<n>`. */
describe.each(databaseKinds())('the pick-carts import on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(() => t.close());

  const run = (text: string) => importCsv(t.database.db, 'pick-carts', text, { imagesDir: os.tmpdir() });
  const compartmentsOf = async (cart: string) =>
    (
      await sql<{ code: string }>`
        select f.code from pick_cart_compartments f join pick_carts c on c.id = f.cart_id
        where c.code = ${cart} order by f.number`.execute(t.database.db)
    ).rows.map((r) => r.code);

  it('adds a cart with its numbered compartments, changes nothing the second time, and takes fewer', async () => {
    const first = await run('Kommissionierwagen;Fächer\nKW20;4\nKW21;2\n');
    expect(first.refused).toEqual([]);
    expect(first.summary).toEqual(['pick carts: 2 new, 0 changed, 0 unchanged']);
    expect(await compartmentsOf('KW20')).toEqual(['KW20-1', 'KW20-2', 'KW20-3', 'KW20-4']);
    const again = await run('Wagen;Anzahl Fächer\nKW20;4\nKW21;2\n');
    expect(again.summary).toEqual(['pick carts: 0 new, 0 changed, 2 unchanged']);
    const fewer = await run('Kommissionierwagen;Fächer\nKW20;2\nKW21;3\n');
    expect(fewer.summary).toEqual(['pick carts: 0 new, 2 changed, 0 unchanged']);
    expect(await compartmentsOf('KW20')).toEqual(['KW20-1', 'KW20-2']);
    expect(await compartmentsOf('KW21')).toEqual(['KW21-1', 'KW21-2', 'KW21-3']);
  });

  it("refuses a code that a location or another cart's compartment already has, and a bad number", async () => {
    const report = await run('Kommissionierwagen;Fächer\nA-01-01-01;2\nKW01-1;2\nKW22;0\nKW23;abc\n');
    expect(report.committed).toBe(false);
    expect(report.refused.map((r) => [r.line, r.column, r.code])).toEqual([
      [2, 'Kommissionierwagen', 'codeTaken'],
      [3, 'Kommissionierwagen', 'codeTaken'],
      [4, 'Fächer', 'outOfRange'],
      [5, 'Fächer', 'notANumber'],
    ]);
  });

  it('keeps a compartment that ever held a note: fewer compartments are refused then', async () => {
    const db = t.database.db;
    const cart = await db
      .selectFrom('pick_carts')
      .select('id')
      .where('code', '=', 'KW01')
      .executeTakeFirstOrThrow();
    const sixth = await db
      .selectFrom('pick_cart_compartments')
      .select('id')
      .where('code', '=', 'KW01-6')
      .executeTakeFirstOrThrow();
    const note = await db
      .selectFrom('delivery_notes')
      .select('id')
      .where('belegnr', '=', 'LS100010')
      .executeTakeFirstOrThrow();
    const trip = await db
      .insertInto('pick_trips')
      .values({ cart_id: cart.id, user_id: await userIdOf(db, 'demo') })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('pick_trip_notes')
      .values({ trip_id: trip.id, cart_id: cart.id, compartment_id: sixth.id, delivery_note_id: note.id })
      .execute();
    const report = await run('Kommissionierwagen;Fächer\nKW01;5\n');
    expect(report.refused.map((r) => [r.line, r.column, r.code, r.params])).toEqual([
      [2, 'Fächer', 'compartmentUsed', { code: 'KW01-6' }],
    ]);
    expect(await compartmentsOf('KW01')).toHaveLength(6);
  });
});
