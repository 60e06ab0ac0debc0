import { type Kysely, sql } from 'kysely';

/**
 * A Fehlmenge while picking (issue 36, decision 25): the location where the piece was missing is marked for a
 * count (`locations.zaehlen_seit`, cleared by the next Inventur count on it), and the Klärfall's line names
 * that location and the book stock it showed when the picker found it short (`klaerfall_lines.location_id`,
 * `bestand`; null for a Klärfall from the packing station).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table locations add column zaehlen_seit timestamptz`.execute(db);
  await sql`alter table klaerfall_lines
    add column location_id integer references locations(id),
    add column bestand integer`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table klaerfall_lines drop column bestand, drop column location_id`.execute(db);
  await sql`alter table locations drop column zaehlen_seit`.execute(db);
}
