import type { Kysely } from 'kysely';
import { texts } from '../../../contract/texts.ts';
import type { Database } from '../../db/schema.ts';
import { notFound } from '../../domain/errors.ts';
import { carrierFromTracking } from './carrier.ts';

type Db = Kysely<Database>;
type Direction = 'ausgang' | 'retoure';

async function sendung(db: Db, tracking: string) {
  return db
    .selectFrom('shipments as s')
    .leftJoin('delivery_notes as d', 'd.id', 's.delivery_note_id')
    .select(['s.id', 's.carrier', 'd.belegnr'])
    .where('s.tracking', '=', tracking)
    .executeTakeFirst();
}

/** One scan per parcel and direction: scanning it again changes nothing and answers the same. */
async function erfassen(db: Db, shipmentId: number, kind: Direction, userId: number) {
  await db
    .insertInto('parcel_scans')
    .values({ shipment_id: shipmentId, kind, user_id: userId })
    .onConflict((oc) => oc.columns(['shipment_id', 'kind']).doNothing())
    .execute();
}

export async function paketausgang(db: Db, input: { tracking: string; userId: number }) {
  const shipment = await sendung(db, input.tracking);
  if (!shipment) throw notFound(texts.paketausgang.trackingNotFound(input.tracking));
  await erfassen(db, shipment.id, 'ausgang', input.userId);
  return { carrier: shipment.carrier ?? carrierFromTracking(input.tracking) };
}

/** After packing: the parcel's tracking number must belong to the delivery note just packed. */
export async function paketausgangVergleich(
  db: Db,
  input: { tracking: string; belegnr: string; userId: number },
) {
  const shipment = await sendung(db, input.tracking);
  if (!shipment || shipment.belegnr !== input.belegnr)
    throw notFound(texts.paketausgang.trackingMismatch(input.tracking));
  await erfassen(db, shipment.id, 'ausgang', input.userId);
  return { carrier: shipment.carrier ?? carrierFromTracking(input.tracking) };
}

export async function retoureErfassen(db: Db, input: { tracking: string; userId: number }) {
  const shipment = await sendung(db, input.tracking);
  if (!shipment) throw notFound(texts.paketausgang.trackingNotFound(input.tracking));
  await erfassen(db, shipment.id, 'retoure', input.userId);
  return { success: true, message: texts.retoure.recorded(input.tracking) };
}
