import { type Kysely, sql } from 'kysely';
import type { LocationId } from '../../../contract/ids.ts';
import { type Fahrt, kommissionierwagenTexts as W } from '../../../contract/kommissionierwagen.ts';
import type { Database } from '../../db/schema.ts';
import { conflict } from '../../domain/errors.ts';
import { claimOrRefuse, noteById, type Picker } from '../../domain/picking.ts';
import { book, ensureRoom, lockStockRows } from '../../domain/stock.ts';
import { locationById } from '../../repositories/location.repository.ts';
import { answer, isCallers, lockTrip, touchClaims, tripOver } from './trip.ts';

type Db = Kysely<Database>;

/**
 * 'Rückgängig': one put of this trip reversed by a booking of its own — the pieces back onto the location
 * (the slot they came from: same Charge and MHD), the line's picked amount down, the note not picked any more
 * if it was — journalled with the same compartment and trip and the put it reverses (at most once: migration
 * 2026-11-28-06). Refused (cannotUndo): a put reversed already, not this trip's, after its note was packed,
 * or once the trip is finished.
 */
export async function cartUndo(
  db: Db,
  picker: Picker,
  input: { tripId: number; movementId: number; requestKey: string | null },
): Promise<{ success: true; data: Fahrt }> {
  const trip = await lockTrip(db, input.tripId);
  if (!isCallers(trip, picker)) throw tripOver(trip);
  if (trip.finished_at !== null) throw conflict(W.cannotUndo);
  await touchClaims(db, picker, trip.id);
  const put = await db
    .selectFrom('movements as m')
    .innerJoin('pick_trip_notes as tn', (join) =>
      join
        .onRef('tn.delivery_note_id', '=', 'm.delivery_note_id')
        .onRef('tn.trip_id', '=', 'm.pick_trip_id')
        .on('tn.freed_at', 'is', null),
    )
    .select([
      'm.id',
      'm.article_id',
      'm.from_location_id',
      'm.amount',
      'm.charge',
      'm.mhd',
      'm.delivery_note_id',
      'm.compartment_id',
    ])
    .where('m.id', '=', input.movementId)
    .where('m.pick_trip_id', '=', trip.id)
    .where('m.kind', '=', 'kommissionierung')
    .where('m.from_location_id', 'is not', null)
    .where('m.reverses_movement_id', 'is', null)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(selectFrom('movements as r').select('r.id').whereRef('r.reverses_movement_id', '=', 'm.id')),
      ),
    )
    .executeTakeFirst();
  if (!put?.from_location_id || put.delivery_note_id === null) throw conflict(W.cannotUndo);
  const note = await noteById(db, put.delivery_note_id);
  if (note.status === 'gepackt') throw conflict(W.cannotUndo);
  await claimOrRefuse(db, picker, note, false);
  const line = await db
    .selectFrom('delivery_note_lines as l')
    .innerJoin('articles as a', 'a.id', 'l.article_id')
    .select(['l.id', 'a.nummer'])
    .where('l.delivery_note_id', '=', note.id)
    .where('l.article_id', '=', put.article_id)
    .where('l.kommissioniert', '>=', put.amount)
    .orderBy('l.id')
    .forUpdate('l')
    .executeTakeFirst();
  if (!line) throw conflict(W.cannotUndo);
  const location = await locationById(db, put.from_location_id as LocationId);
  const rows = await lockStockRows(db, put.article_id, [location.id]);
  ensureRoom(
    rows.reduce((sum, r) => sum + r.amount, 0),
    put.amount,
    { article: line.nummer, location: location.code },
  );
  await book(db, {
    add: {
      slot: { location_id: location.id, article_id: put.article_id, charge: put.charge, mhd: put.mhd },
      amount: put.amount,
    },
    movement: {
      kind: 'kommissionierung',
      article_id: put.article_id,
      from_location_id: null,
      to_location_id: location.id,
      amount: put.amount,
      charge: put.charge,
      mhd: put.mhd,
      user_id: picker.userId,
      request_key: input.requestKey,
      delivery_note_id: note.id,
      compartment_id: put.compartment_id,
      pick_trip_id: trip.id,
      reverses_movement_id: put.id,
    },
  });
  await db
    .updateTable('delivery_note_lines')
    .set({ kommissioniert: sql`kommissioniert - ${put.amount}` })
    .where('id', '=', line.id)
    .execute();
  await db
    .updateTable('delivery_notes')
    .set({ picked_at: null, picked_by: null })
    .where('id', '=', note.id)
    .where('picked_at', 'is not', null)
    .execute();
  return answer(db, trip.id);
}
