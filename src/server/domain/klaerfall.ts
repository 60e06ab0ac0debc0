import type { Kysely } from 'kysely';
import { texts } from '../../contract/texts.ts';
import type { Database, DeliveryNoteStatus } from '../db/schema.ts';
import { conflict } from './errors.ts';

/**
 * Whether a delivery note may be packed (decision 20): not while it has an open Klärfall, and not after
 * the shift lead closed one as 'Erledigt' — only 'Zurück ins Packen' makes it packable again (status back to
 * 'offen'). The packing station's calls (the note, its item scans, the cheat code, its cartons) all ask here.
 *
 * Costs nothing for a note that never was a Klärfall: its status, which the caller has read anyway, says so.
 */
export async function refuseUnlessPackable(
  db: Kysely<Database>,
  note: { id: number; status: DeliveryNoteStatus },
): Promise<void> {
  if (note.status !== 'klaerfall') return;
  const open = await db
    .selectFrom('klaerfaelle')
    .select('id')
    .where('delivery_note_id', '=', note.id)
    .where('outcome', 'is', null)
    .executeTakeFirst();
  throw conflict(open ? texts.paketinhalt.klaerfallOpen : texts.paketinhalt.klaerfallClosed);
}
