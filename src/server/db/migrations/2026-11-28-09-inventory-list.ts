import { type Kysely, sql } from 'kysely';

/**
 * Permanente Inventur's numbers (issue 42, helper D): the posted counts in the order of their posting — the
 * lead's 'Buchen' (`approved_at`), or 'Fertig' for a count posted at once within tolerance (`finished_at`).
 * The Inventurliste reads a date range of them a keyset slice at a time, and the coverage a year of them:
 * without this index every slice would read every task ever made. The free Inventur's counts are the other
 * half of both, read by location (the coverage's slices of locations) and by article (its articles counted):
 * inventory_counts had indexes by user and by time only.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index count_tasks_posted_idx on count_tasks ((coalesce(approved_at, finished_at)), id)
    where status = 'gebucht'`.execute(db);
  await sql`create index inventory_counts_location_idx on inventory_counts (location_id, at)`.execute(db);
  await sql`create index inventory_counts_article_idx on inventory_counts (article_id, at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index inventory_counts_article_idx`.execute(db);
  await sql`drop index inventory_counts_location_idx`.execute(db);
  await sql`drop index count_tasks_posted_idx`.execute(db);
}
