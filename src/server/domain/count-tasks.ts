import { type Kysely, sql } from 'kysely';
import type { LocationId } from '../../contract/ids.ts';
import type { ZaehlErgebnis } from '../../contract/zaehlauftrag.ts';
import type { AbcClass, CountTaskReason, CountTaskStatus, Database } from '../db/schema.ts';

/**
 * Permanente Inventur (issue 42, decision 34): the rules of a count task every caller shares — the handheld's
 * 'Fertig', the Leitstand's 'Buchen' and 'Nachzählen', a picker's Fehlmenge.
 */
type Db = Kysely<Database>;

export type { AbcClass, CountTaskReason, CountTaskStatus };

/** What 'Fertig' did with a count (the handheld's `ergebnis`). */
export type CountOutcome = ZaehlErgebnis;

/** A task still open: at most one per location (unique index count_tasks_one_open_per_location). */
export const OPEN_TASK_STATUSES: readonly CountTaskStatus[] = ['offen', 'in_arbeit', 'wartet'];

/** A class's tolerance: a difference is within it when within the pieces or within the percent of book stock. */
export interface Tolerance {
  abcClass: AbcClass | '-';
  pieces: number;
  percent: number;
}

/**
 * Within tolerance: |difference| ≤ pieces, or |difference| ≤ percent × book / 100. Either bound suffices, so a
 * small location is judged by pieces and a large one by percent (B: 2 pieces or 2 %).
 */
export function withinTolerance(counted: number, book: number, tolerance: Tolerance): boolean {
  const difference = Math.abs(counted - book);
  return difference <= tolerance.pieces || difference * 100 <= tolerance.percent * book;
}

/** The tolerance of a location: its ABC class's (location_abc), or the class '-' for one without a class. */
export async function toleranceFor(db: Db, locationId: LocationId | number): Promise<Tolerance> {
  const row = await db
    .selectFrom('count_classes as c')
    .select([
      'c.abc_class',
      'c.tolerance_pieces',
      sql<number>`c.tolerance_percent::float8`.as('tolerance_percent'),
    ])
    .where(
      'c.abc_class',
      '=',
      sql<AbcClass | '-'>`coalesce((select l.abc_class from location_abc l
      where l.location_id = ${locationId}), '-')`,
    )
    .executeTakeFirstOrThrow();
  return { abcClass: row.abc_class, pieces: row.tolerance_pieces, percent: Number(row.tolerance_percent) };
}
