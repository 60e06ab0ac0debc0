import { type Kysely, sql } from 'kysely';
import type { Database } from '../../src/server/db/schema.ts';

/** Ids of the demo records by their scanned codes. */
export async function locationId(db: Kysely<Database>, code: string): Promise<number> {
  return (await db.selectFrom('locations').select('id').where('code', '=', code).executeTakeFirstOrThrow())
    .id;
}

export async function articleId(db: Kysely<Database>, nummer: string): Promise<number> {
  return (await db.selectFrom('articles').select('id').where('nummer', '=', nummer).executeTakeFirstOrThrow())
    .id;
}

/** A pickable delivery note of its own for a test (nobody on it), with these lines. */
export async function insertDeliveryNote(
  db: Kysely<Database>,
  belegnr: string,
  lines: [nummer: string, menge: number][],
): Promise<string> {
  const { id } = await db
    .insertInto('delivery_notes')
    .values({ belegnr, eu: true, versandart: 'DHL037' })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const [nummer, lsmenge] of lines)
    await db
      .insertInto('delivery_note_lines')
      .values({ delivery_note_id: id, article_id: await articleId(db, nummer), lsmenge })
      .execute();
  return belegnr;
}

export async function stockOf(db: Kysely<Database>, location: number, article: number): Promise<number> {
  const row = await db
    .selectFrom('stock')
    .select(sql<number>`coalesce(sum(amount), 0)::int`.as('amount'))
    .where('location_id', '=', location)
    .where('article_id', '=', article)
    .executeTakeFirstOrThrow();
  return row.amount;
}

export async function totalOf(db: Kysely<Database>, article: number): Promise<number> {
  const row = await db
    .selectFrom('stock')
    .select(sql<number>`coalesce(sum(amount), 0)::int`.as('amount'))
    .where('article_id', '=', article)
    .executeTakeFirstOrThrow();
  return row.amount;
}

/** The invariants of the stock: nothing negative, and every location's stock equals its journal. */
export async function stockInvariantViolations(db: Kysely<Database>): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    with journal as (
      select to_location_id as location_id, article_id, amount from movements where to_location_id is not null
      union all
      select from_location_id, article_id, -amount from movements where from_location_id is not null
    ),
    expected as (select location_id, article_id, sum(amount)::int as amount from journal group by 1, 2),
    actual as (select location_id, article_id, sum(amount)::int as amount from stock group by 1, 2)
    select (
      (select count(*) from expected e full join actual a using (location_id, article_id)
        where coalesce(e.amount, 0) <> coalesce(a.amount, 0))
      + (select count(*) from stock where amount < 0)
    )::int as n`.execute(db);
  return rows[0]?.n ?? -1;
}
