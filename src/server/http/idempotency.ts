import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { texts } from '../../contract/texts.ts';
import type { Database } from '../db/schema.ts';
import { badRequest, conflict } from './errors.ts';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

export function parseIdempotencyKey(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value || !UUID_V4.test(value.trim())) throw badRequest(texts.errors.missingIdempotencyKey);
  return value.trim().toLowerCase();
}

export function requestHash(route: string, params: unknown, body: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify([route, params ?? null, body ?? null]))
    .digest('hex');
}

/**
 * Exactly once (DESIGN §5). The key is claimed by inserting its row in the same transaction as the effect:
 * - a repeat after commit finds the row and gets the stored answer, without doing the work again;
 * - a concurrent repeat blocks on the unique key until the first commits (then replays) or rolls back (then
 *   does the work itself) — on PostgreSQL by the index, on PGlite because one transaction owns the session;
 * - a refusal (any thrown error) rolls back the claim with the effect, so nothing half-written remains.
 */
export async function applyOnce<T>(
  db: Kysely<Database>,
  claim: { key: string; userId: number; route: string; hash: string },
  work: (trx: Kysely<Database>) => Promise<T>,
): Promise<{ body: T; replayed: boolean }> {
  // PostgreSQL may pick this transaction as a deadlock victim; it was rolled back whole, so run it again.
  for (let attempt = 1; ; attempt++) {
    try {
      return await claimAndWork(db, claim, work);
    } catch (error) {
      if (attempt >= 4 || !isTransient(error)) throw error;
    }
  }
}

const TRANSIENT_CODES = new Set(['40P01', '40001']); // deadlock_detected, serialization_failure

function isTransient(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    TRANSIENT_CODES.has(String((error as { code?: unknown }).code))
  );
}

async function claimAndWork<T>(
  db: Kysely<Database>,
  claim: { key: string; userId: number; route: string; hash: string },
  work: (trx: Kysely<Database>) => Promise<T>,
): Promise<{ body: T; replayed: boolean }> {
  return db.transaction().execute(async (trx) => {
    const claimed = await trx
      .insertInto('idempotency')
      .values({
        key: claim.key,
        user_id: claim.userId,
        route: claim.route,
        request_hash: claim.hash,
        status_code: 0,
        response: 'null',
      })
      .onConflict((oc) => oc.column('key').doNothing())
      .returning('key')
      .executeTakeFirst();
    if (!claimed) {
      const earlier = await trx
        .selectFrom('idempotency')
        .select(['user_id', 'route', 'request_hash', 'response'])
        .where('key', '=', claim.key)
        .executeTakeFirstOrThrow();
      if (
        earlier.user_id !== claim.userId ||
        earlier.route !== claim.route ||
        earlier.request_hash !== claim.hash
      ) {
        throw conflict(texts.errors.idempotencyConflict);
      }
      return { body: earlier.response as T, replayed: true };
    }
    const body = await work(trx);
    await trx
      .updateTable('idempotency')
      .set({ status_code: 200, response: JSON.stringify(body) })
      .where('key', '=', claim.key)
      .execute();
    return { body, replayed: false };
  });
}
