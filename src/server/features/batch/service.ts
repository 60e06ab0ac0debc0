import type { Kysely } from 'kysely';
import { texts } from '../../../contract/texts.ts';
import { cardOwner } from '../../auth/cards.ts';
import type { Database } from '../../db/schema.ts';
import { WrongSecret } from '../../domain/errors.ts';
import { knownBatch } from '../../repositories/batch.repository.ts';
import { deliveryNoteByBelegnr } from '../../repositories/delivery-note.repository.ts';

type Db = Kysely<Database>;

/** Batch capture (Batcherfassung): records that the batch was scanned. */
export async function captureBatch(db: Db, input: { batch: string; userId: number }) {
  const id = await knownBatch(db, input.batch);
  await db
    .insertInto('batch_events')
    .values({ batch_id: id, kind: 'erfasst', user_id: input.userId })
    .execute();
  return { success: true, message: texts.batch.captured(id) };
}

/** The batch of a delivery note ('' when the note has none; the screen then asks to call IT). */
export async function batchByDeliveryNote(db: Db, belegnr: string) {
  const note = await deliveryNoteByBelegnr(db, belegnr);
  return { data: { lieferschein: note.batch_id ?? '' } };
}

/**
 * Which employee (card scan) took over a batch. A wrong card is answered as the card login answers it — an
 * unknown card and a deactivated worker's alike — and counted against the card limits (routes.ts).
 */
export async function assignBatch(db: Db, input: { batch: string; card: string; userId: number }) {
  const id = await knownBatch(db, input.batch);
  const employee = await cardOwner(db, input.card);
  if (!employee) throw new WrongSecret('notFound', texts.batch.employeeUnknown);
  await db
    .insertInto('batch_events')
    .values({ batch_id: id, kind: 'mitarbeiter', employee_user_id: employee.id, user_id: input.userId })
    .execute();
  return { success: true, message: texts.batch.assigned(id, employee.name) };
}
