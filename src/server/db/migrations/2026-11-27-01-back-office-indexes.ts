import { type Kysely, sql } from 'kysely';

/**
 * What keeps the Leitstand's Übersicht short on a large warehouse (issue 37, decision 31):
 * - The notes being packed (some lines scanned, not all) were found by adding up the lines of every open
 *   note: 12,500 open notes on the large warehouse, 0.4–1.4 s of the embedded database's one session, at
 *   each refresh of every open Übersicht. Now each note counts its lines with something packed
 *   (`lines_started`, kept by a trigger on every change of a line, whichever call made it: the packing
 *   station, a cheat code, picking's Fehlmenge, a Klärfall sent back), and a partial index holds the open
 *   notes with a count above 0 — the few on the packing tables.
 * - Each worker's last scan today was read from all of today's exactly-once records sorted by user; with
 *   (user_id, created_at) it is one short index read per user.
 * And the article names' trigram index without its pending list (GIN's fastupdate): an ERP's upload of
 * 100,000 article names filled the list, and whichever statement found it full flushed it into the index in
 * one go — a step of hundreds of milliseconds in the middle of an import (floor p99 283–315 ms during the
 * bench's upload); updated row by row, each batch pays its own small share.
 * And location codes in byte order (COLLATE "C", the labels' ranges, src/server/features/etiketten/service.ts):
 * the unique index on the code is in the database's collation, which the planner does not use for a "C"
 * comparison even where they sort alike — every page of a label range read all 20,000 locations (20 ms), so
 * read in steps a 19,000-label run took 16–20 s.
 * And one for the floor: Kommissionierung's 'Nächster Auftrag' checked the lines of every note (250,000 on
 * the large warehouse) before taking the oldest — 2–3.5 s; the notes not yet picked, oldest first, are
 * now a partial index read until the first that qualifies.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table delivery_notes add column lines_started integer not null default 0`.execute(db);
  await sql`update delivery_notes n set lines_started = s.started
    from (select delivery_note_id, count(*)::int as started from delivery_note_lines where pemenge > 0
          group by delivery_note_id) s
    where s.delivery_note_id = n.id`.execute(db);
  await sql`create function delivery_note_lines_started() returns trigger language plpgsql as $$
    begin
      if tg_op <> 'INSERT' and old.pemenge > 0
         and (tg_op = 'DELETE' or new.pemenge = 0 or new.delivery_note_id <> old.delivery_note_id) then
        update delivery_notes set lines_started = lines_started - 1 where id = old.delivery_note_id;
      end if;
      if tg_op <> 'DELETE' and new.pemenge > 0
         and (tg_op = 'INSERT' or old.pemenge = 0 or new.delivery_note_id <> old.delivery_note_id) then
        update delivery_notes set lines_started = lines_started + 1 where id = new.delivery_note_id;
      end if;
      return null;
    end $$`.execute(db);
  await sql`create trigger delivery_note_lines_started after insert or delete or update of pemenge, delivery_note_id
    on delivery_note_lines for each row execute function delivery_note_lines_started()`.execute(db);
  await sql`create index delivery_notes_packing_idx on delivery_notes(belegnr)
    where status = 'offen' and lines_started > 0`.execute(db);
  await sql`create index idempotency_user_created_idx on idempotency(user_id, created_at)`.execute(db);
  await sql`create index delivery_notes_to_pick_idx on delivery_notes(created_at, id)
    where kommissioniert_at is null and status in ('offen', 'klaerfall')`.execute(db);
  await sql`create index locations_code_c_idx on locations (code collate "C")`.execute(db);
  await sql`alter index articles_name_trgm_idx set (fastupdate = off)`.execute(db);
  await sql`select gin_clean_pending_list('articles_name_trgm_idx')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter index articles_name_trgm_idx reset (fastupdate)`.execute(db);
  await sql`drop index locations_code_c_idx`.execute(db);
  await sql`drop index delivery_notes_to_pick_idx`.execute(db);
  await sql`drop index idempotency_user_created_idx`.execute(db);
  await sql`drop index delivery_notes_packing_idx`.execute(db);
  await sql`drop trigger delivery_note_lines_started on delivery_note_lines`.execute(db);
  await sql`drop function delivery_note_lines_started()`.execute(db);
  await sql`alter table delivery_notes drop column lines_started`.execute(db);
}
