import type { FastifyBaseLogger } from 'fastify';
import { type Kysely, sql } from 'kysely';
import type { Config } from '../config.ts';
import type { Database } from '../db/schema.ts';
import { tooManyAttempts } from '../domain/errors.ts';

/**
 * Limits on guessing a secret — a password, an employee card, the packing station's cheat code (decision 14).
 *
 * Every attempt is counted *before* its secret is checked: one atomic statement per budget either takes a
 * place ("pending") or refuses, so 100 parallel guesses cannot all pass a check made before any of them was
 * recorded. After the check the place becomes a failure or is given back. A budget allows `max` failures in
 * a window that starts at its first failure; then it is locked for FIRST_LOCK_SECONDS, and every further
 * failure (one at a time, after the lock ended) doubles the lock up to `maxLockSeconds`.
 */
export interface Budget {
  /** What is counted: 'password-user', 'card-address', … */
  kind: string;
  /** Whose attempts: a user name, a client address, a user id. */
  subject: string;
  /** Failures before the first lock. */
  max: number;
  /** Failures are forgotten this long after the first one of the window (once no lock runs). */
  windowSeconds: number;
  /** The longest lock. */
  maxLockSeconds: number;
  /** A success forgets the failures: only where it proves the very secret being guessed. */
  clearOnSuccess: boolean;
}

/** What became of a counted attempt. `unchecked`: no secret was compared (e.g. an unknown batch). */
export type AttemptResult = 'failed' | 'succeeded' | 'unchecked';

export const FIRST_LOCK_SECONDS = 60;

/** A place taken by a process that died is given back after this long without a new attempt. */
const PENDING_STALE_SECONDS = 60;

/** A user name's password failures count for a day (a success clears them), so locks can grow. */
const USER_NAME_WINDOW_SECONDS = 24 * 60 * 60;

type Policy = Pick<Config, 'loginMaxFailuresPerUser' | 'loginMaxFailuresPerIp' | 'loginWindowMinutes'>;

/** Every budget in one place (decision 14 has the table). */
export const budgets = {
  /** Password logins for one user name, from anywhere. */
  passwordOfUser: (p: Policy, username: string): Budget => ({
    ...perUser(p, 'password-user', username),
    windowSeconds: USER_NAME_WINDOW_SECONDS,
    clearOnSuccess: true,
  }),
  /** Password logins from one client address, for any name. */
  passwordFromAddress: (p: Policy, ip: string): Budget => perAddress(p, 'password-address', ip),
  /** Card texts from one client address: the card login and every other call that checks a card. */
  cardFromAddress: (p: Policy, ip: string): Budget => perAddress(p, 'card-address', ip),
  /**
   * Card texts a logged-in user checks (Batch via Lieferschein), over all of that user's logins. A right
   * card proves nothing (it may be the worker's own): it clears nothing.
   */
  cardOfUser: (p: Policy, userId: number): Budget => perUser(p, 'card-user', String(userId)),
  /** Cheat codes a logged-in user tries (PUT packagecontent/cheat); the right one clears them. */
  cheatOfUser: (p: Policy, userId: number): Budget => ({
    ...perUser(p, 'cheat-user', String(userId)),
    clearOnSuccess: true,
  }),
  cheatFromAddress: (p: Policy, ip: string): Budget => perAddress(p, 'cheat-address', ip),
  /**
   * Integration tokens (export API, receipt push, metrics) from one client address: a wrong one counts, a
   * right one neither counts nor clears (issue 39: 300 wrong tokens in 9 s were all checked, never a 429).
   */
  integrationFromAddress: (p: Policy, ip: string): Budget => perAddress(p, 'integration-address', ip),
  /**
   * Item scans at the packing station that match nothing while a cheat code is set: each one also told the
   * packer "not the cheat code". Wrong items are part of the job, so a packer gets an address's budget.
   */
  itemMissOfUser: (p: Policy, userId: number): Budget => ({
    ...perUser(p, 'item-miss-user', String(userId)),
    max: p.loginMaxFailuresPerIp,
  }),
};

function perUser(p: Policy, kind: string, subject: string): Budget {
  return {
    kind,
    subject,
    max: p.loginMaxFailuresPerUser,
    windowSeconds: p.loginWindowMinutes * 60,
    maxLockSeconds: p.loginWindowMinutes * 60,
    clearOnSuccess: false,
  };
}

function perAddress(p: Policy, kind: string, subject: string): Budget {
  return { ...perUser(p, kind, subject), max: p.loginMaxFailuresPerIp };
}

type Db = Kysely<Database>;
type Log = Pick<FastifyBaseLogger, 'warn'>;

export interface Reservation {
  /** Records what the attempt turned out to be; never throws (a lost count is logged). */
  settle(result: AttemptResult): Promise<void>;
}

/**
 * While the places left are held by attempts being checked (not by failures), an attempt waits for their
 * outcome instead of being refused: twelve right logins of one name at once all get in. About 2 s in all.
 */
const WAIT_MS = [10, 20, 40, 80, 160, 320, 500, 500, 500];

/**
 * Takes one place in every budget, or refuses the attempt with 429 and `tooMany` (nothing is counted then).
 * Budgets are taken one by one, each in its own statement; a refusal gives back the places already taken.
 */
export async function reserveAttempt(
  db: Db,
  list: Budget[],
  tooMany: string,
  log: Log,
): Promise<Reservation> {
  const taken: Budget[] = [];
  for (const budget of list) {
    if (await takeOrWait(db, budget)) {
      taken.push(budget);
      continue;
    }
    await Promise.all(taken.map((b) => settleOne(db, b, 'unchecked', log)));
    throw tooManyAttempts(tooMany);
  }
  let settled = false;
  return {
    settle: async (result) => {
      if (settled) return;
      settled = true;
      await Promise.all(taken.map((b) => settleOne(db, b, result, log)));
    },
  };
}

async function takeOrWait(db: Db, b: Budget): Promise<boolean> {
  for (const waitMs of [...WAIT_MS, null]) {
    if (await take(db, b)) return true;
    if (waitMs === null || (await locked(db, b))) return false;
    await new Promise((resolve) => setTimeout(resolve, waitMs));
  }
  return false;
}

/** Whether the budget is locked by its failures (else only the attempts being checked fill it). */
async function locked(db: Db, b: Budget): Promise<boolean> {
  const row = await db
    .selectFrom('attempt_counters')
    .select(sql<boolean>`locked_until is not null and locked_until > now()`.as('locked'))
    .where('kind', '=', b.kind)
    .where('subject', '=', b.subject)
    .executeTakeFirst();
  return row?.locked ?? false;
}

async function take(db: Db, b: Budget): Promise<boolean> {
  // `c` is the stored row. A window that is over (and no lock running) starts afresh; a place taken more than
  // PENDING_STALE_SECONDS ago is counted as given back.
  const over = sql`(c.window_start <= now() - make_interval(secs => ${b.windowSeconds})
    and (c.locked_until is null or c.locked_until <= now()))`;
  const stale = sql`(c.pending_at is null or c.pending_at < now() - make_interval(secs => ${PENDING_STALE_SECONDS}))`;
  const pending = sql`(case when ${stale} then 0 else c.pending end)`;
  const result = await sql<{ taken: number }>`
    insert into attempt_counters as c (kind, subject, pending, pending_at)
    values (${b.kind}, ${b.subject}, 1, now())
    on conflict (kind, subject) do update set
      failures = case when ${over} then 0 else c.failures end,
      window_start = case when ${over} then now() else c.window_start end,
      locked_until = case when ${over} then null else c.locked_until end,
      pending = ${pending} + 1,
      pending_at = now()
    where ${over} or (
      (c.locked_until is null or c.locked_until <= now())
      and (c.failures + ${pending} < ${b.max}
        -- past the limit, after a lock: one attempt at a time, whose failure locks again for longer
        or (c.failures >= ${b.max} and ${pending} = 0)))
    returning 1 as taken`.execute(db);
  return result.rows.length === 1;
}

async function settleOne(db: Db, b: Budget, result: AttemptResult, log: Log): Promise<void> {
  const key = { kind: b.kind, subject: b.subject };
  try {
    if (result === 'failed') {
      const lockSeconds = sql`least(${FIRST_LOCK_SECONDS} * power(2, least(failures + 1 - ${b.max}, 30)), ${b.maxLockSeconds})`;
      const row = await sql<{ failures: number; lockedSeconds: number | null }>`
        update attempt_counters set
          window_start = case when failures = 0 then now() else window_start end,
          failures = failures + 1,
          last_failure_at = now(),
          locked_until = case when failures + 1 >= ${b.max}
            then now() + make_interval(secs => ${lockSeconds}) else locked_until end,
          pending = greatest(pending - 1, 0)
        where kind = ${b.kind} and subject = ${b.subject}
        returning failures, case when failures >= ${b.max}
          then round(extract(epoch from locked_until - now()))::int end as "lockedSeconds"`.execute(db);
      const locked = row.rows[0];
      if (locked?.lockedSeconds)
        log.warn(
          { ...key, failures: locked.failures, lockSeconds: locked.lockedSeconds },
          'too many failed attempts: locked',
        );
      return;
    }
    const clear = result === 'succeeded' && b.clearOnSuccess;
    await db
      .updateTable('attempt_counters')
      .set({
        pending: sql`greatest(pending - 1, 0)`,
        ...(clear ? { failures: 0, locked_until: null, window_start: sql`now()` } : {}),
      })
      .where('kind', '=', b.kind)
      .where('subject', '=', b.subject)
      .execute();
  } catch (error) {
    log.warn({ ...key, result, err: error }, 'attempt not recorded');
  }
}
