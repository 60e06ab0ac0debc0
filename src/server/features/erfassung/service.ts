import type { Kysely } from 'kysely';
import { texts } from '../../../contract/texts.ts';
import { cardOwner } from '../../auth/cards.ts';
import type { Database } from '../../db/schema.ts';
import { invalid, WrongSecret } from '../../domain/errors.ts';
import { knownBatch } from '../../repositories/batch.repository.ts';
import { deliveryNoteByBelegnr } from '../../repositories/delivery-note.repository.ts';

type Db = Kysely<Database>;

/** Batch capture: records that the batch was scanned. */
export async function batchErfassen(db: Db, input: { batch: string; userId: number }) {
  const id = await knownBatch(db, input.batch);
  await db
    .insertInto('batch_events')
    .values({ batch_id: id, kind: 'erfasst', user_id: input.userId })
    .execute();
  return { success: true, message: texts.batch.captured(id) };
}

/** The batch of a delivery note ('' when the note has none; the screen then asks to call IT). */
export async function batchZuLieferschein(db: Db, belegnr: string) {
  const note = await deliveryNoteByBelegnr(db, belegnr);
  return { data: { lieferschein: note.batch_id ?? '' } };
}

/**
 * Which employee (card scan) took over a batch. A wrong card is answered as the card login answers it — an
 * unknown card and a deactivated worker's alike — and counted against the card limits (routes.ts).
 */
export async function batchMitarbeiter(db: Db, input: { batch: string; card: string; userId: number }) {
  const id = await knownBatch(db, input.batch);
  const employee = await cardOwner(db, input.card);
  if (!employee) throw new WrongSecret('notFound', texts.batch.employeeUnknown);
  await db
    .insertInto('batch_events')
    .values({ batch_id: id, kind: 'mitarbeiter', employee_user_id: employee.id, user_id: input.userId })
    .execute();
  return { success: true, message: texts.batch.assigned(id, employee.name) };
}

/** A batch loaded onto a swap body (Wechselbrücke) or carrier container. */
export async function containerErfassen(db: Db, input: { container: string; batch: string; userId: number }) {
  const id = await knownBatch(db, input.batch);
  await db
    .insertInto('container_events')
    .values({ container: input.container, batch_id: id, user_id: input.userId })
    .execute();
  return { success: true, message: texts.container.captured(input.container, id) };
}

/** A truck leaving: plate, seal, swap body and fill level; required in that order (SPEC §5). */
export async function transporterErfassen(
  db: Db,
  input: { kennzeichen: string; container: string; plombe: string; value: number; userId: number },
) {
  if (input.kennzeichen === '') throw invalid(texts.transporter.kennzeichenMissing);
  if (input.plombe === '') throw invalid(texts.transporter.plombeMissing);
  if (input.container === '') throw invalid(texts.transporter.containerMissing);
  await db
    .insertInto('transporter_events')
    .values({
      kennzeichen: input.kennzeichen,
      container: input.container,
      plombe: input.plombe,
      fill_value: input.value,
      user_id: input.userId,
    })
    .execute();
  return { success: true, message: texts.transporter.captured(input.kennzeichen) };
}
