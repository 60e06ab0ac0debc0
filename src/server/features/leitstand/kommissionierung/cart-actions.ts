import { type Kysely, sql } from 'kysely';
import { kommissionierungLeitstandTexts as T } from '../../../../contract/leitstand/kommissionierung.ts';
import type { Database } from '../../../db/schema.ts';
import { conflict, notFound } from '../../../domain/errors.ts';
import { abandonTrip } from '../../../domain/pick-trip.ts';
import { recordAudit } from '../../../repositories/audit.repository.ts';
import type { Change } from './profiles.ts';

type Db = Kysely<Database>;

/**
 * The shift lead's way out for a cart nobody will finish (decision 33): its picker left without logging out,
 * the handheld broke, the login sits idle until it expires. Ends the trip as the handheld's 'Abbrechen' does
 * (domain/pick-trip.ts): a note with nothing in its compartment leaves the cart and may be picked again, one
 * with goods stays until packed, the claims end. The picker's handheld gets tripOver at its next call (the
 * cart's calls refuse a finished trip). Locks the trip row first, as every call on a trip does.
 */
export async function endTrip(db: Db, tripId: number, change: Change) {
  const trip = await db
    .selectFrom('pick_trips as t')
    .innerJoin('pick_carts as c', 'c.id', 't.cart_id')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .select(['t.id', 't.finished_at', 'c.code', 'u.name'])
    .where('t.id', '=', tripId)
    .forUpdate('t')
    .executeTakeFirst();
  if (!trip) throw notFound(T.tripNotFound);
  if (trip.finished_at !== null) throw conflict(T.tripAlreadyEnded(trip.code));
  await abandonTrip(db, trip.id);
  const notes = await db
    .selectFrom('pick_trip_notes as tn')
    .innerJoin('delivery_notes as n', 'n.id', 'tn.delivery_note_id')
    .select(['n.belegnr', 'tn.freed_at'])
    .where('tn.trip_id', '=', trip.id)
    .orderBy('n.belegnr')
    .execute();
  await recordAudit(db, {
    userId: change.userId,
    action: 'pickTrip.end',
    subject: trip.code,
    detail: {
      fahrt: trip.id,
      kommissionierer: trip.name,
      // What the lead's step did on the floor: which notes left the cart, which stay in their compartments.
      // As text, the way the Protokoll page shows a detail's value.
      verlassen: listed(notes.filter((n) => n.freed_at !== null)),
      bleiben: listed(notes.filter((n) => n.freed_at === null)),
    },
    requestKey: change.requestKey,
  });
  return { success: true as const, message: T.tripEnded(trip.code) };
}

const listed = (notes: { belegnr: string }[]) =>
  notes.length === 0 ? T.noNotes : notes.map((n) => n.belegnr).join(', ');

/**
 * 'Fach leeren': the note lying in the compartment leaves it ('geleert'), the note itself stays as it is —
 * the lead took its goods out by hand (to the packing table, back to stock). Only after the note's trip ended:
 * while it is open the picker may still put goods into the compartment, and the handheld would show a
 * compartment the lead has already called empty. Trip row first, then the compartment's row (the cart's
 * order); the packing station frees the row from the note's side, so the update decides between the two.
 */
export async function emptyCompartment(db: Db, compartmentId: number, noteId: number, change: Change) {
  const compartment = await db
    .selectFrom('pick_cart_compartments as f')
    .innerJoin('pick_carts as c', 'c.id', 'f.cart_id')
    .select(['f.id', 'f.code', 'c.code as cart'])
    .where('f.id', '=', compartmentId)
    .executeTakeFirst();
  if (!compartment) throw notFound(T.compartmentNotFound);
  const note = await db
    .selectFrom('delivery_notes')
    .select('belegnr')
    .where('id', '=', noteId)
    .executeTakeFirst();
  const belegnr = note?.belegnr ?? String(noteId);
  const held = await db
    .selectFrom('pick_trip_notes')
    .select(['id', 'trip_id'])
    .where('compartment_id', '=', compartment.id)
    .where('delivery_note_id', '=', noteId)
    .where('freed_at', 'is', null)
    .executeTakeFirst();
  if (!held) throw conflict(T.compartmentAlreadyFree(compartment.code, belegnr));
  const trip = await db
    .selectFrom('pick_trips')
    .select('finished_at')
    .where('id', '=', held.trip_id)
    .forUpdate()
    .executeTakeFirstOrThrow();
  if (trip.finished_at === null) throw conflict(T.tripStillOpen(compartment.code, compartment.cart));
  const freed = await db
    .updateTable('pick_trip_notes')
    .set({ freed_at: sql`now()`, freed_reason: 'geleert' })
    .where('id', '=', held.id)
    .where('freed_at', 'is', null)
    .executeTakeFirst();
  if (Number(freed.numUpdatedRows) === 0) throw conflict(T.compartmentAlreadyFree(compartment.code, belegnr));
  await recordAudit(db, {
    userId: change.userId,
    action: 'compartment.empty',
    subject: compartment.code,
    detail: { fach: compartment.code, lieferschein: belegnr, fahrt: held.trip_id },
    requestKey: change.requestKey,
  });
  return { success: true as const, message: T.compartmentEmptied(compartment.code) };
}
