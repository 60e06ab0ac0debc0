import { type Kysely, sql } from 'kysely';

/**
 * Rollende Kommissionierung (issue 41, decision 33), 'Rückgängig' on the cart: a put is reversed by a journal
 * row of its own (the pieces back onto the location, same compartment and trip) that names the put it
 * reverses. A partial unique index lets each put be reversed once — two undos at once reverse it once (the
 * second insert waits for the first and then fails) — and a put stays in the journal as it was, never deleted.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table movements add column reverses_movement_id integer references movements(id)`.execute(
    db,
  );
  await sql`create unique index movements_reversed_once on movements (reverses_movement_id)
    where reverses_movement_id is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index movements_reversed_once`.execute(db);
  await sql`alter table movements drop column reverses_movement_id`.execute(db);
}
