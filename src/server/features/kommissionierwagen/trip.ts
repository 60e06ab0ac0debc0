import type { Kysely } from 'kysely';
import { type Fahrt, kommissionierwagenTexts as W } from '../../../contract/kommissionierwagen.ts';
import { texts } from '../../../contract/texts.ts';
import type { Database } from '../../db/schema.ts';
import { DomainError, notFound } from '../../domain/errors.ts';
import type { Picker } from '../../domain/picking.ts';
import { fahrt } from './fahrt.ts';

type Db = Kysely<Database>;

/**
 * A trip as the cart's calls reach it: locked first (decision 33), so two calls on one trip — two handhelds
 * of one login, a logout — come one after the other, then the single note's lock order (domain/picking.ts).
 */
export interface Trip {
  id: number;
  cart_id: number;
  code: string;
  user_id: number;
  session_id: number | null;
  finished_at: Date | null;
}

/** The trip, locked. */
export async function lockTrip(db: Db, tripId: number): Promise<Trip> {
  const trip = await db
    .selectFrom('pick_trips as t')
    .innerJoin('pick_carts as c', 'c.id', 't.cart_id')
    .select(['t.id', 't.cart_id', 'c.code', 't.user_id', 't.session_id', 't.finished_at'])
    .where('t.id', '=', tripId)
    .forUpdate('t')
    .executeTakeFirst();
  if (!trip) throw notFound(texts.errors.notFound);
  return trip;
}

/** 409 tripOver, marked (`fahrtVorbei`: the cart's code) so the screen ends the trip on the marker. */
export const tripOver = (trip: Pick<Trip, 'code'>) =>
  new DomainError('conflict', W.tripOver(trip.code), { fahrtVorbei: trip.code });

export const isCallers = (trip: Trip, picker: Picker) =>
  trip.user_id === picker.userId && trip.session_id === picker.sessionId;

/**
 * The caller's open trip, locked, its notes' claims used now (so they do not run out while the picker walks
 * the cart). Refused (tripOver) once it ended, and for anyone but its login: the same account took it over on
 * another handheld by scanning the cart there.
 */
export async function callersTrip(db: Db, picker: Picker, tripId: number): Promise<Trip> {
  const trip = await lockTrip(db, tripId);
  if (trip.finished_at !== null || !isCallers(trip, picker)) throw tripOver(trip);
  await touchClaims(db, picker, trip.id);
  return trip;
}

export async function touchClaims(db: Db, picker: Picker, tripId: number): Promise<void> {
  await db
    .updateTable('pick_claims')
    .set({ seen_at: picker.now })
    .where('user_id', '=', picker.userId)
    .where('session_id', '=', picker.sessionId)
    .where('delivery_note_id', 'in', (q) =>
      q
        .selectFrom('pick_trip_notes')
        .select('delivery_note_id')
        .where('trip_id', '=', tripId)
        .where('freed_at', 'is', null),
    )
    .execute();
}

export const answer = async (db: Db, tripId: number): Promise<{ success: true; data: Fahrt }> => ({
  success: true,
  data: await fahrt(db, tripId),
});
