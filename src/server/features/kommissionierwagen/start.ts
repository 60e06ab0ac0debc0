import { type Kysely, sql } from 'kysely';
import { kommissionierungTexts as K } from '../../../contract/kommissionierung.ts';
import { type Fahrt, kommissionierwagenTexts as W } from '../../../contract/kommissionierwagen.ts';
import type { Database } from '../../db/schema.ts';
import { conflict, notFound } from '../../domain/errors.ts';
import { abandonTrip, putsNotReversed, tripLoginOn } from '../../domain/pick-trip.ts';
import { claim, type Picker } from '../../domain/picking.ts';
import { type FreeCompartment, fillTrip } from './fill.ts';
import { answer } from './trip.ts';

type Db = Kysely<Database>;

/** An open trip and whether its login is still on (a trip whose login is gone is nobody's any more). */
const openTrips = (db: Db, loginIdleMinutes: number) =>
  db
    .selectFrom('pick_trips as t')
    .innerJoin('pick_carts as c', 'c.id', 't.cart_id')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .select(['t.id', 't.cart_id', 'c.code', 't.user_id', 't.session_id', 't.finished_at', 'u.name'])
    .select(tripLoginOn(loginIdleMinutes).as('live'))
    .where('t.finished_at', 'is', null)
    .orderBy('t.id')
    .forUpdate('t');

/**
 * The cart scanned: the caller's open trip with it goes on (from this handheld), or a new trip starts with
 * its free compartments filled (fill.ts). Refused: another picker's cart (cartInUse), the caller's other cart
 * still open (otherCartOpen), every compartment holding a note not packed (cartFull), nothing to pick
 * (noOpenNote; the trip is not kept). A trip whose login ended (its picker is gone) ends as 'Abbrechen'
 * would, and the cart is free again.
 */
export async function cartStart(
  db: Db,
  picker: Picker,
  code: string,
  /** SESSION_IDLE_MINUTES: a login unused this long is gone, and so is its trip's hold on the cart. */
  loginIdleMinutes: number,
): Promise<{ success: true; data: Fahrt }> {
  const cart = await db
    .selectFrom('pick_carts')
    .select(['id', 'code'])
    .where('code', '=', code)
    .executeTakeFirst();
  if (!cart) throw notFound(W.unknownCart(code));
  // Twice at most: a second round only when another picker started this cart in the same moment.
  for (let round = 0; round < 2; round++) {
    const onCart = await openTrips(db, loginIdleMinutes).where('t.cart_id', '=', cart.id).executeTakeFirst();
    if (onCart) {
      if (onCart.user_id === picker.userId) return resume(db, picker, onCart);
      if (onCart.live) throw conflict(W.cartInUse(cart.code, onCart.name));
      await abandonTrip(db, onCart.id);
    }
    const others = await openTrips(db, loginIdleMinutes)
      .where('t.user_id', '=', picker.userId)
      .where('t.cart_id', '<>', cart.id)
      .execute();
    for (const other of others) {
      if (other.live) throw conflict(W.otherCartOpen(other.code));
      await abandonTrip(db, other.id);
    }
    const free: FreeCompartment[] = await db
      .selectFrom('pick_cart_compartments as f')
      .select(['f.id', 'f.number'])
      .where('f.cart_id', '=', cart.id)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('pick_trip_notes as tn')
              .select('tn.id')
              .whereRef('tn.compartment_id', '=', 'f.id')
              .where('tn.freed_at', 'is', null),
          ),
        ),
      )
      .orderBy('f.number')
      .execute();
    if (free.length === 0) throw conflict(W.cartFull(cart.code));
    const { rows } = await sql<{ id: number }>`
      insert into pick_trips (cart_id, user_id, session_id)
      values (${cart.id}, ${picker.userId}, ${picker.sessionId})
      on conflict (cart_id) where finished_at is null do nothing
      returning id`.execute(db);
    const trip = rows[0];
    if (!trip) continue;
    const placed = await fillTrip(db, picker, { id: trip.id, cartId: cart.id }, free);
    if (placed === 0) throw conflict(K.noOpenNote);
    return answer(db, trip.id);
  }
  throw conflict(W.cartInUse(cart.code, '?'));
}

/**
 * The caller's trip goes on, from this login: the trip and its notes' claims move to it (a scan of the cart
 * takes it over as a scan of a note does), so the handheld that had it gets tripOver. A note whose claim went
 * to someone else meanwhile (its login had ended) leaves the cart when nothing of it lies in its compartment.
 */
async function resume(db: Db, picker: Picker, trip: { id: number }): Promise<{ success: true; data: Fahrt }> {
  await db
    .updateTable('pick_trips')
    .set({ session_id: picker.sessionId })
    .where('id', '=', trip.id)
    .execute();
  const notes = await db
    .selectFrom('pick_trip_notes as tn')
    .innerJoin('delivery_notes as n', 'n.id', 'tn.delivery_note_id')
    .select(['tn.id as rowId', 'n.id'])
    .where('tn.trip_id', '=', trip.id)
    .where('tn.freed_at', 'is', null)
    .where('n.picked_at', 'is', null)
    .orderBy('n.id')
    .execute();
  for (const note of notes) {
    if (await claim(db, picker, note, true)) continue;
    await sql`update pick_trip_notes set freed_at = now(), freed_reason = 'abgebrochen'
      where id = ${note.rowId}
        and not exists (${putsNotReversed(trip.id)} and m.delivery_note_id = ${note.id})`.execute(db);
  }
  return answer(db, trip.id);
}
