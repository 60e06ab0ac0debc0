import type { Kysely } from 'kysely';
import { texts } from '../../../contract/texts.ts';
import type { Database } from '../../db/schema.ts';
import { knownBatch } from '../../repositories/batch.repository.ts';

/** A batch loaded onto a swap body (Wechselbrücke) or carrier container. */
export async function captureContainer(
  db: Kysely<Database>,
  input: { container: string; batch: string; userId: number },
) {
  const id = await knownBatch(db, input.batch);
  await db
    .insertInto('container_events')
    .values({ container: input.container, batch_id: id, user_id: input.userId })
    .execute();
  return { success: true, message: texts.container.captured(input.container, id) };
}
