import { type Kysely, sql } from 'kysely';

/**
 * Kommissionierung (issue 22, decision 25): what each line of a delivery note has been picked
 * (`kommissioniert`) and reported missing (`fehlmenge`), when the note was picked completely and by whom, who
 * is picking a note right now (`pick_claims`, one row per note: the primary key makes a claim atomic), and
 * where a Klärfall came from (`quelle`: the packing station as before, or a Fehlmenge while picking).
 *
 * A claim belongs to the login that made it: ending that login (logout, the session cap, a purge) deletes it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table delivery_note_lines
    add column kommissioniert integer not null default 0,
    add column fehlmenge integer not null default 0,
    add constraint delivery_note_lines_pick_check
      check (kommissioniert >= 0 and fehlmenge >= 0 and kommissioniert + fehlmenge <= lsmenge)`.execute(db);
  await sql`alter table delivery_notes
    add column kommissioniert_at timestamptz,
    add column kommissioniert_von integer references users(id)`.execute(db);
  await sql`create table pick_claims (
    delivery_note_id integer primary key references delivery_notes(id),
    user_id integer not null references users(id),
    session_id integer not null references sessions(id) on delete cascade,
    claimed_at timestamptz not null,
    seen_at timestamptz not null
  )`.execute(db);
  await sql`create index pick_claims_session_idx on pick_claims(session_id)`.execute(db);
  await sql`alter table klaerfaelle
    add column quelle text not null default 'packen' check (quelle in ('packen', 'kommissionierung'))`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table klaerfaelle drop column quelle`.execute(db);
  await sql`drop table pick_claims`.execute(db);
  await sql`alter table delivery_notes drop column kommissioniert_von, drop column kommissioniert_at`.execute(
    db,
  );
  await sql`alter table delivery_note_lines drop constraint delivery_note_lines_pick_check,
    drop column fehlmenge, drop column kommissioniert`.execute(db);
}
