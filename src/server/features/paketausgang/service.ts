import type { Kysely } from 'kysely';
import { texts } from '../../../contract/texts.ts';
import type { Database } from '../../db/schema.ts';
import { carrierFromTracking } from '../../domain/carrier.ts';
import { notFound } from '../../domain/errors.ts';
import { recordParcelScan, shipmentByTracking } from '../../repositories/shipment.repository.ts';

type Db = Kysely<Database>;

/** An outgoing parcel: recorded once, however often it is scanned; answers its carrier. */
export async function paketausgang(db: Db, input: { tracking: string; userId: number }) {
  const shipment = await shipmentByTracking(db, input.tracking);
  if (!shipment) throw notFound(texts.paketausgang.trackingNotFound(input.tracking));
  await recordParcelScan(db, { shipmentId: shipment.id, kind: 'ausgang', userId: input.userId });
  return { carrier: shipment.carrier ?? carrierFromTracking(input.tracking) };
}

/** After packing: the parcel's tracking number must belong to the delivery note just packed. */
export async function paketausgangCompare(
  db: Db,
  input: { tracking: string; belegnr: string; userId: number },
) {
  const shipment = await shipmentByTracking(db, input.tracking);
  if (!shipment || shipment.belegnr !== input.belegnr)
    throw notFound(texts.paketausgang.trackingMismatch(input.tracking));
  await recordParcelScan(db, { shipmentId: shipment.id, kind: 'ausgang', userId: input.userId });
  return { carrier: shipment.carrier ?? carrierFromTracking(input.tracking) };
}
