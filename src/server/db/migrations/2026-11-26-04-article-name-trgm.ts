import { type Kysely, sql } from 'kysely';

/**
 * The Leitstand's Bestand finds an article by a part of its name (`name ilike '%…%'`, issue 20.3): without
 * an index that reads every article (≈ 150–300 ms at 100,000). A trigram index (pg_trgm, a contrib
 * extension of PostgreSQL that PGlite ships too: src/server/db/connect.ts loads it) serves such a pattern of
 * three or more characters; the code matches beside it (nummer, EAN, Herstellernummer) use their b-tree
 * indexes, so the whole search is a bitmap OR of four index scans. pg_trgm is a trusted extension (since
 * PostgreSQL 13): the database's owner may create it without being a superuser.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create extension if not exists pg_trgm`.execute(db);
  await sql`create index articles_name_trgm_idx on articles using gin (name gin_trgm_ops)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index articles_name_trgm_idx`.execute(db);
}
