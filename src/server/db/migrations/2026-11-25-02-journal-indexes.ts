import { type Kysely, sql } from 'kysely';

/**
 * The Leitstand's movement journal (issue 20.3) is read newest first, a page at a time after the (at, id)
 * of the last row, filtered by article, location, user and kind. One index per filter holds its rows in
 * that order, so a page is a short backward range scan that stops after the page's rows — on 2 M rows as on
 * 2,000 (bench/journal.ts measures it). A location is in two columns: one index each for the rows that left
 * it and the rows that reached it (the query merges both); those and the user's skip the rows without one.
 * The time filter alone and the export feed use movements_at_id_idx (2026-11-23-05).
 * movements_article_idx (on article_id alone) is covered by the article's new one.
 */
const INDEXES = [
  'create index movements_article_at_id_idx on movements (article_id, at, id)',
  'create index movements_from_at_id_idx on movements (from_location_id, at, id) where from_location_id is not null',
  'create index movements_to_at_id_idx on movements (to_location_id, at, id) where to_location_id is not null',
  'create index movements_user_at_id_idx on movements (user_id, at, id) where user_id is not null',
  'create index movements_kind_at_id_idx on movements (kind, at, id)',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of INDEXES) await sql.raw(statement).execute(db);
  await sql`drop index movements_article_idx`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`create index movements_article_idx on movements (article_id)`.execute(db);
  for (const name of [
    'movements_article_at_id_idx',
    'movements_from_at_id_idx',
    'movements_to_at_id_idx',
    'movements_user_at_id_idx',
    'movements_kind_at_id_idx',
  ])
    await sql.raw(`drop index ${name}`).execute(db);
}
