import { type Kysely, sql } from 'kysely';
import type { Config } from './config.ts';
import type { Database } from './db/schema.ts';

/**
 * Keeps the bookkeeping tables small; run by the server at start and every hour (main.ts). Cheap (a few
 * deletes on small tables) and harmless when several instances run it at once.
 */
export async function housekeeping(
  db: Kysely<Database>,
  config: Pick<Config, 'sessionIdleMinutes'>,
): Promise<void> {
  await sql`delete from idempotency where created_at < now() - interval '7 days'`.execute(db);
  // The Leitstand counts the last hour's refused logins; a day is plenty.
  await sql`delete from failed_logins where at < now() - interval '1 day'`.execute(db);
  // Ended and idle-expired logins can never be used again. Each user's most recently used one stays, so
  // `npm run user -- list` still shows when they were last seen.
  await sql`delete from sessions s
    where (s.revoked_at is not null
        or s.last_seen_at < now() - make_interval(mins => ${config.sessionIdleMinutes}))
      and exists (select 1 from sessions n
        where n.user_id = s.user_id and (n.last_seen_at, n.id) > (s.last_seen_at, s.id))`.execute(db);
  // A counter whose longest window (a day) is over, with no lock running and nothing being checked, counts
  // for nothing any more (src/server/auth/attempt-limits.ts).
  await sql`delete from attempt_counters
    where window_start < now() - interval '1 day'
      and (locked_until is null or locked_until < now())
      and (pending = 0 or pending_at < now() - interval '1 minute')`.execute(db);
}
