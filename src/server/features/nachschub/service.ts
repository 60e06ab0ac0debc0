import type { Kysely } from 'kysely';
import type { ReplenishmentRow } from '../../../contract/nachschub.ts';
import type { Database } from '../../db/schema.ts';
import { belowMinimum } from '../../repositories/replenishment.repository.ts';

/**
 * Pick places below their minimum, most urgent first, each with a suggested source. The rule is the
 * repository's, shared with the Leitstand's 'Unter Minimum' (src/server/features/leitstand/nachschub/).
 */
export function replenishmentList(db: Kysely<Database>): Promise<ReplenishmentRow[]> {
  return belowMinimum(db);
}
