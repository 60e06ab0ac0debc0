import type { Kysely } from 'kysely';
import { BATCH_NUMBER_MAX } from '../../contract/limits.ts';
import { texts } from '../../contract/texts.ts';
import type { Database } from '../db/schema.ts';
import { invalid, notFound } from '../domain/errors.ts';

/**
 * The batch a scan names, for every call that records something about a batch (batch capture, the batch
 * hand-over, a container): more than six characters is refused ('Achtung - Batch hat nur sechs Ziffern!'),
 * an unknown batch is notFound.
 */
export async function knownBatch(db: Kysely<Database>, scanned: string): Promise<string> {
  if (scanned.length > BATCH_NUMBER_MAX) throw invalid(texts.batch.tooLong);
  const row = await db.selectFrom('batches').select('id').where('id', '=', scanned).executeTakeFirst();
  if (!row) throw notFound(texts.batch.notFound(scanned));
  return row.id;
}
