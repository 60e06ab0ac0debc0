import { type Kysely, sql } from 'kysely';
import type { WagenRow } from '../../../../contract/leitstand/kommissionierung.ts';
import type { Database } from '../../../db/schema.ts';
import { tripLoginOn } from '../../../domain/pick-trip.ts';

type Db = Kysely<Database>;

type CompartmentState = 'inArbeit' | 'kommissioniert' | 'imPacken';

/**
 * The pick carts by code, each compartment with the note lying in it now (a compartment holds its note until
 * the note is packed, across trips: decision 33) and the cart's open trip. Carts come by import; the lead's
 * writes here end a trip and empty a compartment (cart-actions.ts).
 */
export async function carts(db: Db, idleMinutes: number): Promise<WagenRow[]> {
  const [compartments, trips] = await Promise.all([
    sql<{
      cart_id: number;
      cart: string;
      id: number;
      number: number;
      code: string;
      note_id: number | null;
      belegnr: string | null;
      state: CompartmentState | null;
      trip_open: boolean | null;
    }>`
      select pc.id as cart_id, pc.code as cart, c.id, c.number, c.code, n.id as note_id, n.belegnr,
             case when n.id is null then null
                  when n.lines_started > 0 then 'imPacken'
                  when n.picked_at is not null then 'kommissioniert'
                  else 'inArbeit' end as state,
             t.finished_at is null and t.id is not null as trip_open
      from pick_carts pc
      join pick_cart_compartments c on c.cart_id = pc.id
      left join pick_trip_notes tn on tn.compartment_id = c.id and tn.freed_at is null
      left join delivery_notes n on n.id = tn.delivery_note_id
      left join pick_trips t on t.id = tn.trip_id
      order by pc.code, c.number`.execute(db),
    db
      .selectFrom('pick_trips as t')
      .innerJoin('users as u', 'u.id', 't.user_id')
      .select(['t.id', 't.cart_id', 'u.name', 't.started_at'])
      .select(tripLoginOn(idleMinutes).as('live'))
      .where('t.finished_at', 'is', null)
      .execute(),
  ]);
  const tripOf = new Map(trips.map((t) => [t.cart_id, t]));
  const byCart = new Map<number, WagenRow>();
  for (const row of compartments.rows) {
    let cart = byCart.get(row.cart_id);
    if (!cart) {
      const trip = tripOf.get(row.cart_id);
      cart = {
        id: row.cart_id,
        code: row.cart,
        faecher: [],
        fahrt: trip
          ? {
              id: trip.id,
              kommissionierer: trip.name,
              seit: new Date(trip.started_at).toISOString(),
              angemeldet: trip.live,
            }
          : null,
      };
      byCart.set(row.cart_id, cart);
    }
    cart.faecher.push({
      id: row.id,
      nummer: row.number,
      code: row.code,
      lieferschein:
        row.note_id !== null && row.belegnr !== null && row.state !== null
          ? { id: row.note_id, belegnr: row.belegnr, zustand: row.state, fahrtOffen: row.trip_open === true }
          : null,
    });
  }
  return [...byCart.values()];
}
