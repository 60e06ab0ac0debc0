import { type Kysely, sql } from 'kysely';

/**
 * Rollende Kommissionierung (issue 41, decision 33), the handheld's trip:
 * - 'Rückgängig' on the cart: a put is reversed by a journal row of its own (the pieces back onto the
 *   location, same compartment and trip) that names the put it reverses. A partial unique index lets each
 *   put be reversed once — two undos at once reverse it once (the second insert waits for the first and then
 *   fails) — and a put stays in the journal as it was, never deleted.
 * - A wave's notes in their order (`wave_id, delivery_note_id`): a cart's fill reads a wave's next notes along
 *   it and stops at the few it needs, instead of reading and sorting a wave of thousands at every cart.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table movements add column reverses_movement_id integer references movements(id)`.execute(
    db,
  );
  await sql`create unique index movements_reversed_once on movements (reverses_movement_id)
    where reverses_movement_id is not null`.execute(db);
  await sql`create index pick_wave_notes_in_order on pick_wave_notes (wave_id, delivery_note_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index pick_wave_notes_in_order`.execute(db);
  await sql`drop index movements_reversed_once`.execute(db);
  await sql`alter table movements drop column reverses_movement_id`.execute(db);
}
