import { type Kysely, sql } from 'kysely';

/**
 * Rollende Kommissionierung (issue 41), the handheld's trip and the shift lead's waves:
 * - `pick_waves.notes_per_cart`: the profile's "at most N notes per cart" as it was when the wave was
 *   released (the profile may be edited or deleted afterwards; the wave fills carts as released);
 * - `pick_trip_deferrals`: the stops a picker put off to the end of the route ('Später'), in the order put
 *   off (putting one off again moves it to the end again).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table pick_waves
    add column notes_per_cart integer not null default 99 check (notes_per_cart between 1 and 99)`.execute(
    db,
  );
  await sql`alter table pick_waves alter column notes_per_cart drop default`.execute(db);
  await sql`create table pick_trip_deferrals (
    trip_id integer not null references pick_trips(id),
    location_id integer not null references locations(id),
    deferred_at timestamptz not null default clock_timestamp(),
    primary key (trip_id, location_id)
  )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table pick_trip_deferrals`.execute(db);
  await sql`alter table pick_waves drop column notes_per_cart`.execute(db);
}
