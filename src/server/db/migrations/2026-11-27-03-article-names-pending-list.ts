import { type Kysely, sql } from 'kysely';

/**
 * The article names' trigram index gets its pending list back, kept small (GIN's fastupdate with
 * gin_pending_list_limit 256 kB): without a list (2026-11-27-01) every imported name went into the index
 * entry by entry, and an import of 30,000 articles took 11–12 s instead of 4–8 s. With PostgreSQL's default
 * list of 4 MB, whichever statement found it full flushed it in one go — a step of hundreds of milliseconds
 * in the middle of an import (floor p99 283–315 ms during the bench's upload); a list of 256 kB is flushed
 * in a fraction of that (an import's longest step measured alike with and without the list).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter index articles_name_trgm_idx set (fastupdate = on, gin_pending_list_limit = 256)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter index articles_name_trgm_idx reset (gin_pending_list_limit)`.execute(db);
  await sql`alter index articles_name_trgm_idx set (fastupdate = off)`.execute(db);
}
