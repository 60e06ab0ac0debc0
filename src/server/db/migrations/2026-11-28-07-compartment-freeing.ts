import { type Kysely, sql } from 'kysely';

/**
 * Rollende Kommissionierung (issue 41, decision 33): two more ways a compartment is freed without its note
 * being packed — 'klaerfall' (the shift lead closed the note's Klärfall as 'Erledigt': it is never packed, so
 * it would hold its compartment for ever) and 'geleert' (the shift lead emptied the compartment by hand on
 * Leitstand › Kommissionierwagen after its trip ended).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table pick_trip_notes drop constraint pick_trip_notes_freed_reason_check`.execute(db);
  await sql`alter table pick_trip_notes add constraint pick_trip_notes_freed_reason_check
    check (freed_reason in ('gepackt', 'abgebrochen', 'klaerfall', 'geleert'))`.execute(db);
}

/** Back to the two reasons: rows freed for the new reasons count as 'abgebrochen' (freed, nothing packed). */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`update pick_trip_notes set freed_reason = 'abgebrochen'
    where freed_reason in ('klaerfall', 'geleert')`.execute(db);
  await sql`alter table pick_trip_notes drop constraint pick_trip_notes_freed_reason_check`.execute(db);
  await sql`alter table pick_trip_notes add constraint pick_trip_notes_freed_reason_check
    check (freed_reason in ('gepackt', 'abgebrochen'))`.execute(db);
}
