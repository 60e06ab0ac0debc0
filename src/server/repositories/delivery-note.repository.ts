import type { Kysely } from 'kysely';
import type { DeliveryNoteId } from '../../contract/ids.ts';
import { texts } from '../../contract/texts.ts';
import type { Database } from '../db/schema.ts';
import { notFound } from '../domain/errors.ts';

/**
 * Delivery notes as several features look them up: packing, cartons, batch by note, customs carts. An unknown
 * note is refused with the one message 'Lieferschein … kann nicht gefunden werden.' (notFound). The note's id
 * comes out as a DeliveryNoteId (decision 32): it came from this table.
 */
type Db = Kysely<Database>;

/** The note with this belegnr (as scanned), or notFound. */
export async function deliveryNoteByBelegnr(db: Db, belegnr: string) {
  const note = await db
    .selectFrom('delivery_notes')
    .select(['id', 'belegnr', 'eu', 'versandart', 'gravur', 'project_id', 'batch_id', 'status'])
    .where('belegnr', '=', belegnr)
    .executeTakeFirst();
  if (!note) throw notFound(texts.paketinhalt.deliveryNoteNotFound(belegnr));
  return { ...note, id: note.id as DeliveryNoteId };
}

/**
 * The note with this belegnr and who picked it (null before it was picked), in one statement: the packing
 * station reads it at every note it opens.
 */
export async function deliveryNoteWithPickerByBelegnr(db: Db, belegnr: string) {
  const note = await db
    .selectFrom('delivery_notes as n')
    .leftJoin('users as u', 'u.id', 'n.picked_by')
    .select(['n.id', 'n.belegnr', 'n.eu', 'n.versandart', 'n.gravur', 'n.status', 'n.picked_at'])
    .select('u.name as picker_name')
    .where('n.belegnr', '=', belegnr)
    .executeTakeFirst();
  if (!note) throw notFound(texts.paketinhalt.deliveryNoteNotFound(belegnr));
  return { ...note, id: note.id as DeliveryNoteId };
}

/** The note with this id (as a screen sends it back), or notFound. */
export async function deliveryNoteById(db: Db, id: DeliveryNoteId) {
  const note = await db
    .selectFrom('delivery_notes')
    .select(['id', 'belegnr', 'project_id', 'status', 'picked_at'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!note) throw notFound(texts.paketinhalt.deliveryNoteNotFound(String(id)));
  return { ...note, id };
}
