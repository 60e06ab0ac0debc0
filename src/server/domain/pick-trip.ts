import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.ts';
import { loginOn } from './login-on.ts';

type Db = Kysely<Database>;

/**
 * Whether a trip's login is still on, as auth's session check sees it (auth/sessions.ts): not ended, not idle
 * longer than SESSION_IDLE_MINUTES, its user not switched off — over the trip as `t` and its user as `u`. A
 * trip whose login is gone is nobody's: the next picker who scans its cart ends it as 'Abbrechen' would, and
 * the Leitstand marks it.
 */
export function tripLoginOn(idleMinutes: number) {
  return loginOn('t.session_id', 'u.active', idleMinutes);
}

/**
 * The end of a cart's trip that nobody finished (decision 33): 'Abbrechen' on the handheld, the logout of its
 * login, or a trip whose login ended otherwise (a newer login past the cap, the user switched off) found when
 * its cart or its picker starts again. The trip is finished; a note nothing was put into its compartment
 * from on this trip (no put, or every put reversed) leaves the compartment (`freed_reason 'abgebrochen'`);
 * one with goods in its compartment stays there until packed. Every claim of the trip's notes ends, so the
 * single-note flow, another cart and the packing station may go on with them.
 *
 * Locks the trip row first, as every call on a trip does, then the claims — the order of the cart's calls.
 */
export async function abandonTrip(db: Db, tripId: number): Promise<void> {
  const ended = await db
    .updateTable('pick_trips')
    .set({ finished_at: sql`now()` })
    .where('id', '=', tripId)
    .where('finished_at', 'is', null)
    .returning('user_id')
    .executeTakeFirst();
  if (!ended) return;
  await db
    .deleteFrom('pick_claims')
    .where('user_id', '=', ended.user_id)
    .where('delivery_note_id', 'in', (q) =>
      q.selectFrom('pick_trip_notes').select('delivery_note_id').where('trip_id', '=', tripId),
    )
    .execute();
  await sql`update pick_trip_notes tn set freed_at = now(), freed_reason = 'abgebrochen'
    where tn.trip_id = ${tripId} and tn.freed_at is null
      and not exists (${putsNotReversed(tripId)} and m.delivery_note_id = tn.delivery_note_id)`.execute(db);
}

/**
 * The puts of a trip still in their compartments, as the start of a subquery over `movements m`: a pick into a
 * compartment (from a location), not reversed by 'Rückgängig' (migration 2026-11-28-06).
 */
export function putsNotReversed(tripId: number) {
  return sql`select 1 from movements m
    where m.pick_trip_id = ${tripId} and m.from_location_id is not null and m.reverses_movement_id is null
      and not exists (select 1 from movements r where r.reverses_movement_id = m.id)`;
}

/**
 * A note that will never be packed leaves its compartment (decision 33): its Klärfall closed as 'Erledigt'.
 * Otherwise the compartment would stay taken for ever — a compartment is freed when its note is packed. The
 * caller holds the note's lock (the Klärfall's order: note, then its rows).
 */
export async function freeNoteFromCart(db: Db, noteId: number): Promise<void> {
  await db
    .updateTable('pick_trip_notes')
    .set({ freed_at: sql`now()`, freed_reason: 'klaerfall' })
    .where('delivery_note_id', '=', noteId)
    .where('freed_at', 'is', null)
    .execute();
}

/** A logout ends the trips of its login (auth's logout, in its transaction before the claims go). */
export async function endPickTripsOfSession(db: Db, sessionId: number): Promise<void> {
  const trips = await db
    .selectFrom('pick_trips')
    .select('id')
    .where('session_id', '=', sessionId)
    .where('finished_at', 'is', null)
    .orderBy('id')
    .forUpdate()
    .execute();
  for (const trip of trips) await abandonTrip(db, trip.id);
}
