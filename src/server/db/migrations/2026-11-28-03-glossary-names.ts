import { type Kysely, sql } from 'kysely';

/**
 * The glossary's names for who did something and when (decision 32): `<verb>_by` / `<verb>_at`, as
 * `receipts.closed_by`, `klaerfaelle.reported_by` and `carts.opened_by` already say. The picked note's
 * `kommissioniert_von` / `kommissioniert_at` (migration 2026-11-26-03) become `picked_by` / `picked_at`.
 * A rename keeps every value, and PostgreSQL carries it into the index that names the column
 * (`delivery_notes_to_pick_idx`'s `where picked_at is null`). The amounts of a note's lines keep the SPEC's
 * words (`lsmenge`, `pemenge`, and beside them `kommissioniert`, `fehlmenge`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table delivery_notes rename column kommissioniert_at to picked_at`.execute(db);
  await sql`alter table delivery_notes rename column kommissioniert_von to picked_by`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table delivery_notes rename column picked_by to kommissioniert_von`.execute(db);
  await sql`alter table delivery_notes rename column picked_at to kommissioniert_at`.execute(db);
}
