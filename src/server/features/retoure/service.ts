import type { Kysely } from 'kysely';
import { texts } from '../../../contract/texts.ts';
import type { Database } from '../../db/schema.ts';
import { notFound } from '../../domain/errors.ts';
import { recordParcelScan, shipmentByTracking } from '../../repositories/shipment.repository.ts';

/** A return parcel, by its tracking number: recorded once, however often it is scanned. */
export async function retourenerfassung(db: Kysely<Database>, input: { tracking: string; userId: number }) {
  const shipment = await shipmentByTracking(db, input.tracking);
  if (!shipment) throw notFound(texts.paketausgang.trackingNotFound(input.tracking));
  await recordParcelScan(db, { shipmentId: shipment.id, kind: 'retoure', userId: input.userId });
  return { success: true, message: texts.retoure.recorded(input.tracking) };
}
