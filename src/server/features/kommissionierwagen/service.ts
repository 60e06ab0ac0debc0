import { type Kysely, sql } from 'kysely';
import type { DeliveryNoteLineId, LocationId } from '../../../contract/ids.ts';
import { kommissionierungTexts as K } from '../../../contract/kommissionierung.ts';
import {
  type CartSummary,
  type Fahrt,
  kommissionierwagenTexts as W,
} from '../../../contract/kommissionierwagen.ts';
import type { Database } from '../../db/schema.ts';
import { conflict, notFound } from '../../domain/errors.ts';
import { abandonTrip } from '../../domain/pick-trip.ts';
import {
  claimedLine,
  markPickedIfDone,
  type Picker,
  type PickNote,
  refuseUnlessPickable,
  reportShortage,
  takeForLine,
} from '../../domain/picking.ts';
import { locationById } from '../../repositories/location.repository.ts';
import { answer, callersTrip } from './trip.ts';

type Db = Kysely<Database>;

/**
 * Rollende Kommissionierung on the handheld (issue 41, decision 33): a trip with a pick cart. Every call runs
 * in the route's exactly-once transaction, so a refusal leaves nothing behind (not even a trip row). The
 * single note's rules — the claim, a pick, a Fehlmenge, where a line is picked from — are domain/picking.ts's;
 * a cart's call locks its trip row first, then goes in that file's lock order (claims, line, stock, note), so
 * two calls on one trip (two handhelds of one login, a logout) come one after the other.
 */

export { cartStart } from './start.ts';
export { cartUndo } from './undo.ts';
export type { Picker };

/** The site's pick carts, by code. */
export async function cartList(db: Db) {
  const carts = await db
    .selectFrom('pick_carts as c')
    .leftJoin('pick_cart_compartments as f', 'f.cart_id', 'c.id')
    .select(['c.code', sql<number>`count(f.id)::int`.as('faecher')])
    .groupBy(['c.id', 'c.code'])
    .orderBy('c.code')
    .execute();
  return { success: true as const, data: carts };
}

/** The note of this line on this trip, with the compartment it lies in; refused when the cart holds no such line. */
async function noteOfLine(db: Db, tripId: number, lineId: DeliveryNoteLineId) {
  const row = await db
    .selectFrom('delivery_note_lines as l')
    .innerJoin('pick_trip_notes as tn', 'tn.delivery_note_id', 'l.delivery_note_id')
    .innerJoin('pick_cart_compartments as f', 'f.id', 'tn.compartment_id')
    .innerJoin('delivery_notes as n', 'n.id', 'l.delivery_note_id')
    .select(['n.id', 'n.belegnr', 'n.status', 'n.picked_at'])
    .select(['f.id as compartmentId', 'f.code as compartmentCode'])
    .where('l.id', '=', lineId)
    .where('tn.trip_id', '=', tripId)
    .where('tn.freed_at', 'is', null)
    .executeTakeFirst();
  if (!row) throw notFound(K.lineNotInNote);
  const { compartmentId, compartmentCode, ...note } = row;
  return { note: note as PickNote, compartment: { id: compartmentId, code: compartmentCode } };
}

/**
 * One put: `amount` of the line's article off the location into the compartment scanned — which must be the
 * one the line's note lies in (else wrongCompartment, nothing booked). Booked as a single note's pick
 * (domain/picking.ts `takeForLine`), journalled with the compartment and the trip; the note is picked once
 * its last line is.
 */
export async function cartPutAway(
  db: Db,
  picker: Picker,
  input: {
    tripId: number;
    lineId: DeliveryNoteLineId;
    locationId: LocationId;
    compartment: string;
    amount: number;
    requestKey: string | null;
  },
): Promise<{ success: true; data: Fahrt }> {
  const trip = await callersTrip(db, picker, input.tripId);
  const { note, compartment } = await noteOfLine(db, trip.id, input.lineId);
  if (input.compartment !== compartment.code) throw conflict(W.wrongCompartment(compartment.code));
  await refuseUnlessPickable(db, note);
  const line = await claimedLine(db, picker, note, input.lineId);
  await takeForLine(db, picker, note, line, {
    locationId: input.locationId,
    amount: input.amount,
    requestKey: input.requestKey,
    compartmentId: compartment.id,
    tripId: trip.id,
  });
  await markPickedIfDone(db, picker, note.id);
  return answer(db, trip.id);
}

/** 'Fehlmenge' for a line on the cart: as the single note's (a Klärfall for its note); the other notes go on. */
export async function cartShortage(
  db: Db,
  picker: Picker,
  input: { tripId: number; lineId: DeliveryNoteLineId; amount: number; locationId?: LocationId | undefined },
): Promise<{ success: true; data: Fahrt }> {
  const trip = await callersTrip(db, picker, input.tripId);
  const { note } = await noteOfLine(db, trip.id, input.lineId);
  await refuseUnlessPickable(db, note);
  const line = await claimedLine(db, picker, note, input.lineId);
  await reportShortage(db, picker, note.id, line, input);
  await markPickedIfDone(db, picker, note.id);
  return answer(db, trip.id);
}

/** 'Später': the stop at this location goes to the end of the route (put off again: to the end again). */
export async function cartDefer(
  db: Db,
  picker: Picker,
  input: { tripId: number; locationId: LocationId },
): Promise<{ success: true; data: Fahrt }> {
  const trip = await callersTrip(db, picker, input.tripId);
  const location = await locationById(db, input.locationId);
  await sql`insert into pick_trip_deferrals (trip_id, location_id, deferred_at)
    values (${trip.id}, ${location.id}, clock_timestamp())
    on conflict (trip_id, location_id) do update set deferred_at = excluded.deferred_at`.execute(db);
  return answer(db, trip.id);
}

/**
 * 'Wagen fertig': refused (stillOpen) while a line of a note on the cart is neither picked nor reported
 * missing. The trip ends and its claims with it; the notes stay in their compartments until packed.
 */
export async function cartFinish(
  db: Db,
  picker: Picker,
  tripId: number,
): Promise<{ success: true; data: CartSummary }> {
  const trip = await callersTrip(db, picker, tripId);
  const notes = await db
    .selectFrom('pick_trip_notes as tn')
    .innerJoin('pick_cart_compartments as f', 'f.id', 'tn.compartment_id')
    .innerJoin('delivery_notes as n', 'n.id', 'tn.delivery_note_id')
    .innerJoin('delivery_note_lines as l', 'l.delivery_note_id', 'n.id')
    .select([
      'f.number as nummer',
      'f.code',
      'n.belegnr',
      sql<number>`count(*) filter (where l.kommissioniert + l.fehlmenge < l.lsmenge)::int`.as('open'),
      sql<boolean>`bool_or(l.fehlmenge > 0)`.as('short'),
    ])
    .where('tn.trip_id', '=', trip.id)
    .where('tn.freed_at', 'is', null)
    .groupBy(['f.number', 'f.code', 'n.belegnr'])
    .orderBy('f.number')
    .execute();
  const open = notes.reduce((sum, n) => sum + n.open, 0);
  if (open > 0) throw conflict(W.stillOpen(open));
  await db.updateTable('pick_trips').set({ finished_at: sql`now()` }).where('id', '=', trip.id).execute();
  await db
    .deleteFrom('pick_claims')
    .where('user_id', '=', picker.userId)
    .where('delivery_note_id', 'in', (q) =>
      q.selectFrom('pick_trip_notes').select('delivery_note_id').where('trip_id', '=', trip.id),
    )
    .execute();
  return {
    success: true,
    data: {
      wagen: { id: trip.cart_id, code: trip.code },
      faecher: notes.map((n) => ({
        nummer: n.nummer,
        code: n.code,
        belegnr: n.belegnr,
        status: n.short ? ('fehlmenge' as const) : ('komplett' as const),
      })),
    },
  };
}

/**
 * 'Abbrechen': the trip ends (domain/pick-trip.ts `abandonTrip`): notes nothing was put in for leave their
 * compartments, the others stay there; every claim of the trip ends.
 */
export async function cartRelease(db: Db, picker: Picker, tripId: number): Promise<{ success: true }> {
  const trip = await callersTrip(db, picker, tripId);
  await abandonTrip(db, trip.id);
  return { success: true };
}
