import { type Kysely, sql } from 'kysely';
import type { Database } from './db/schema.ts';

/**
 * Keeps the bookkeeping tables small; run by the server on a timer (main.ts). Cheap (a few indexed deletes)
 * and harmless when several instances run it at once.
 */
export async function housekeeping(db: Kysely<Database>): Promise<void> {
  await sql`delete from idempotency where created_at < now() - interval '7 days'`.execute(db);
  // A counter whose longest window (a day) is over, with no lock running and nothing being checked, counts
  // for nothing any more (src/server/http/attempt-limits.ts).
  await sql`delete from attempt_counters
    where window_start < now() - interval '1 day'
      and (locked_until is null or locked_until < now())
      and (pending = 0 or pending_at < now() - interval '1 minute')`.execute(db);
}
