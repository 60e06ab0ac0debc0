import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/** Shipments and their parcel scans, for the outgoing parcel (Paketausgang) and the return (Retoure). */
type Db = Kysely<Database>;

/** The shipment with this tracking number and its delivery note's belegnr, or undefined. */
export async function shipmentByTracking(db: Db, tracking: string) {
  return db
    .selectFrom('shipments as s')
    .leftJoin('delivery_notes as d', 'd.id', 's.delivery_note_id')
    .select(['s.id', 's.carrier', 'd.belegnr'])
    .where('s.tracking', '=', tracking)
    .executeTakeFirst();
}

/** One scan per parcel and direction: scanning it again changes nothing. */
export async function recordParcelScan(
  db: Db,
  input: { shipmentId: number; kind: 'ausgang' | 'retoure'; userId: number },
): Promise<void> {
  await db
    .insertInto('parcel_scans')
    .values({ shipment_id: input.shipmentId, kind: input.kind, user_id: input.userId })
    .onConflict((oc) => oc.columns(['shipment_id', 'kind']).doNothing())
    .execute();
}
