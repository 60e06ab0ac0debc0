import { type Kysely, sql } from 'kysely';
import type { DeliveryNoteId } from '../../../contract/ids.ts';
import { texts } from '../../../contract/texts.ts';
import type { Database } from '../../db/schema.ts';
import { invalid } from '../../domain/errors.ts';
import { refuseUnlessPackable } from '../../domain/klaerfall.ts';
import { deliveryNoteByBelegnr, deliveryNoteById } from '../../repositories/delivery-note.repository.ts';

type Db = Kysely<Database>;

/** The cartons of the note's project with the counts recorded for this note so far; not for a Klärfall. */
export async function packageRecording(db: Db, belegnr: string) {
  const note = await deliveryNoteByBelegnr(db, belegnr);
  await refuseUnlessPackable(db, note);
  const cartons = await db
    .selectFrom('cartons as c')
    .leftJoin('carton_usage as u', (join) =>
      join.onRef('u.carton_id', '=', 'c.id').on('u.delivery_note_id', '=', note.id),
    )
    .select([
      'c.id as packageid',
      'c.name',
      sql<number>`coalesce(u.amount, 0)::int`.as('amount'),
      'c.height',
      'c.width',
      'c.depth',
    ])
    .where('c.project_id', '=', note.project_id ?? -1)
    .orderBy('c.id')
    .execute();
  return { id: note.id, belegnr: note.belegnr, kartonagen: cartons };
}

/** Stores the carton counts of a note (the whole set: what is sent is what was used). */
export async function savePackageRecording(
  db: Db,
  input: {
    deliveryNoteId: DeliveryNoteId;
    kartonagen: { packageid: number; amount: number }[];
    userId: number;
  },
) {
  const note = await deliveryNoteById(db, input.deliveryNoteId);
  await refuseUnlessPackable(db, note);
  const allowed = new Set(
    (
      await db
        .selectFrom('cartons')
        .select('id')
        .where('project_id', '=', note.project_id ?? -1)
        .execute()
    ).map((c) => c.id),
  );
  for (const carton of input.kartonagen) {
    if (!allowed.has(carton.packageid)) throw invalid(texts.kartonagen.notInProject(carton.packageid));
  }
  for (const carton of input.kartonagen) {
    await db
      .insertInto('carton_usage')
      .values({
        delivery_note_id: note.id,
        carton_id: carton.packageid,
        amount: carton.amount,
        user_id: input.userId,
      })
      .onConflict((oc) =>
        oc
          .columns(['delivery_note_id', 'carton_id'])
          .doUpdateSet({ amount: carton.amount, user_id: input.userId, updated_at: sql`now()` }),
      )
      .execute();
  }
  await db
    .insertInto('delivery_note_events')
    .values({ delivery_note_id: note.id, kind: 'kartonagen', user_id: input.userId })
    .execute();
  return { success: true as const };
}
