import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { ErrorBody } from '../../contract/endpoint.ts';
import { texts } from '../../contract/texts.ts';
import type { Database } from '../db/schema.ts';
import { conflict, DomainError, invalid } from '../domain/errors.ts';
import { statusOf } from './error-handler.ts';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

export function parseIdempotencyKey(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value || !UUID_V4.test(value.trim())) throw invalid(texts.errors.missingIdempotencyKey);
  return value.trim().toLowerCase();
}

export function requestHash(route: string, params: unknown, body: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify([route, params ?? null, body ?? null]))
    .digest('hex');
}

/** The answer to an action: its effect's body (200) or its refusal (4xx), and whether it was stored before. */
export type Outcome<T> =
  | { refused: false; body: T; replayed: boolean }
  | { refused: true; status: number; body: Refusal; replayed: boolean };

type Refusal = ErrorBody;
export type Claim = { key: string; userId: number; route: string; hash: string };

/**
 * Exactly once (DESIGN §5). The key is claimed by inserting its row in the same transaction as the effect:
 * - a repeat after commit finds the row and gets the stored answer, without doing the work again;
 * - a concurrent repeat blocks on the unique key until the first commits (then replays) or rolls back (then
 *   does the work itself) — on PostgreSQL by the index, on PGlite because one transaction owns the session;
 * - a refusal (a DomainError the staff read: 400, 404, 409, …) rolls back the effect, and the key is then
 *   stored with that refusal, so a copy of the same action still on its way (cut in flight, queued on the
 *   other instance) replays the refusal instead of applying the action after the scanner read 'refused'.
 *   If such a copy claimed the key first, its outcome wins and this request answers with it: one outcome
 *   per key, whichever copy got there first.
 * - anything else thrown (a bug, a lost database) rolls back the claim too: the client may try again.
 */
export async function applyOnce<T>(
  db: Kysely<Database>,
  claim: Claim,
  work: (trx: Kysely<Database>) => Promise<T>,
  /** What to store of the answer for a repeat (a secret shown once left out); the answer itself if not given. */
  stored: (body: T) => T = (body) => body,
): Promise<Outcome<T>> {
  let refusal: DomainError;
  // PostgreSQL may pick this transaction as a deadlock victim; it was rolled back whole, so run it again.
  for (let attempt = 1; ; attempt++) {
    try {
      return await claimAndWork(db, claim, work, stored);
    } catch (error) {
      if (error instanceof Refused) {
        refusal = error.refusal;
        break;
      }
      if (attempt >= 4 || !isTransient(error)) throw error;
    }
  }
  return storeRefusal<T>(db, claim, refusal);
}

/** The statuses of a refusal that is the action's final answer (not 401: nothing was claimed without a login). */
const FINAL_REFUSALS = new Set([400, 403, 404, 406, 409]);

/** Carries a final refusal out of the transaction, so that the transaction rolls back. */
class Refused extends Error {
  constructor(readonly refusal: DomainError) {
    super(refusal.message);
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
  claim: Claim,
  work: (trx: Kysely<Database>) => Promise<T>,
  stored: (body: T) => T,
): Promise<Outcome<T>> {
  return db.transaction().execute(async (trx) => {
    const earlier = await claimKey(trx, claim, 0, null);
    if (earlier) return earlier as Outcome<T>;
    let body: T;
    try {
      body = await work(trx);
    } catch (error) {
      if (error instanceof DomainError && FINAL_REFUSALS.has(statusOf(error))) throw new Refused(error);
      throw error;
    }
    await trx
      .updateTable('idempotency')
      .set({ status_code: 200, response: JSON.stringify(stored(body)) })
      .where('key', '=', claim.key)
      .execute();
    return { refused: false, body, replayed: false };
  });
}

async function storeRefusal<T>(
  db: Kysely<Database>,
  claim: Claim,
  refusal: DomainError,
): Promise<Outcome<T>> {
  const body: Refusal = refusal.body();
  return db.transaction().execute(async (trx) => {
    const status = statusOf(refusal);
    const earlier = await claimKey(trx, claim, status, body);
    return (earlier as Outcome<T> | null) ?? { refused: true, status, body, replayed: false };
  });
}

/**
 * Inserts the key's row, or — when the key is taken — answers what is stored under it (409 if it was taken
 * by another user, route or body). `status` 0 marks a claim whose work is still running in this transaction.
 */
async function claimKey(
  trx: Kysely<Database>,
  claim: Claim,
  status: number,
  response: unknown,
): Promise<Outcome<unknown> | null> {
  const claimed = await trx
    .insertInto('idempotency')
    .values({
      key: claim.key,
      user_id: claim.userId,
      route: claim.route,
      request_hash: claim.hash,
      status_code: status,
      response: JSON.stringify(response),
    })
    .onConflict((oc) => oc.column('key').doNothing())
    .returning('key')
    .executeTakeFirst();
  if (claimed) return null;
  const earlier = await trx
    .selectFrom('idempotency')
    .select(['user_id', 'route', 'request_hash', 'status_code', 'response'])
    .where('key', '=', claim.key)
    .executeTakeFirstOrThrow();
  return replay(claim, earlier);
}

/**
 * The answer stored under the key, if the action was done (or refused) before: what a repeat gets without
 * doing anything. null: the key is new (or its first copy is still at work).
 */
export async function storedOutcome(db: Kysely<Database>, claim: Claim): Promise<Outcome<unknown> | null> {
  const earlier = await db
    .selectFrom('idempotency')
    .select(['user_id', 'route', 'request_hash', 'status_code', 'response'])
    .where('key', '=', claim.key)
    .where('status_code', '<>', 0)
    .executeTakeFirst();
  return earlier ? replay(claim, earlier) : null;
}

/** The stored answer of a key, or 409 when the key was taken by another user, route or body. */
function replay(
  claim: Claim,
  earlier: { user_id: number; route: string; request_hash: string; status_code: number; response: unknown },
): Outcome<unknown> {
  if (
    earlier.user_id !== claim.userId ||
    earlier.route !== claim.route ||
    earlier.request_hash !== claim.hash
  ) {
    throw conflict(texts.errors.idempotencyConflict);
  }
  return earlier.status_code === 200
    ? { refused: false, body: earlier.response, replayed: true }
    : { refused: true, status: earlier.status_code, body: earlier.response as Refusal, replayed: true };
}

/**
 * Exactly once for an action whose effect lies outside the database — a print job sent to a label printer
 * (issue 21). applyOnce would hold its transaction while the printer is asked, up to PRINT_TIMEOUT_MS, and on
 * the embedded database one open transaction holds up every other request. So here the key is claimed first
 * in a transaction of its own (status 0: at work), the work runs outside any transaction, and its outcome is
 * stored under the key afterwards:
 * - a repeat after that replays the stored answer (a job printed is never sent again);
 * - a repeat while the first copy is still at work waits for it (up to `waitMs`), then replays its outcome,
 *   or is refused with `stillRunning` (409) — it never sends the job a second time;
 * - a final refusal (also a printer that did not answer: 409) is stored like any other, so a retry of the
 *   same action never prints after the worker read 'nicht gedruckt';
 * - anything else thrown frees the key again, so the client may try again.
 * A server that dies between sending and storing leaves the key 'at work': its repeats are refused, never
 * printed twice.
 */
export async function applyOnceOutside<T>(
  db: Kysely<Database>,
  claim: Claim,
  work: () => Promise<T>,
  { waitMs, stillRunning }: { waitMs: number; stillRunning: string },
): Promise<Outcome<T>> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const earlier = await db.transaction().execute((trx) => claimKey(trx, claim, 0, null));
    if (!earlier) break;
    if (!(earlier.refused && earlier.status === 0)) return earlier as Outcome<T>;
    if (Date.now() >= deadline) throw conflict(stillRunning);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  let body: T;
  try {
    body = await work();
  } catch (error) {
    if (error instanceof DomainError && FINAL_REFUSALS.has(statusOf(error))) {
      const status = statusOf(error);
      const refusal = error.body();
      await db
        .updateTable('idempotency')
        .set({ status_code: status, response: JSON.stringify(refusal) })
        .where('key', '=', claim.key)
        .execute();
      return { refused: true, status, body: refusal, replayed: false };
    }
    await db.deleteFrom('idempotency').where('key', '=', claim.key).where('status_code', '=', 0).execute();
    throw error;
  }
  await db
    .updateTable('idempotency')
    .set({ status_code: 200, response: JSON.stringify(body) })
    .where('key', '=', claim.key)
    .execute();
  return { refused: false, body, replayed: false };
}
