import { type Kysely, sql } from 'kysely';

/** Minimum stock of an article on a pick location: below it, /nachschub lists the location. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table replenishment_minimums (
    location_id integer not null references locations(id),
    article_id integer not null references articles(id),
    minimum integer not null check (minimum > 0 and minimum <= 1000000),
    primary key (location_id, article_id)
  )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table replenishment_minimums`.execute(db);
}
