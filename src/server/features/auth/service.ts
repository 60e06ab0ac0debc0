import { type Kysely, sql } from 'kysely';
import { texts } from '../../../contract/texts.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/schema.ts';
import { tooManyRequests, unauthorized } from '../../http/errors.ts';
import { DUMMY_PASSWORD_HASH, hashCardSecret, newSessionToken, verifyPassword } from './secrets.ts';

export interface AuthUser {
  id: number;
  name: string;
  sessionId: number;
}

export interface LoginResult {
  success: true;
  token: string;
  name: string;
  id: number;
}

type Db = Kysely<Database>;
type LoginPolicy = Pick<Config, 'loginMaxFailuresPerIp' | 'loginMaxFailuresPerUser' | 'loginWindowMinutes'>;

/** Sliding expiry is refreshed at most once a minute per session, so reads stay reads. */
const TOUCH_AFTER_SECONDS = 60;

export async function anmeldenMitPasswort(
  db: Db,
  policy: LoginPolicy,
  input: { username: string; password: string; ip: string },
): Promise<LoginResult> {
  const username = input.username.trim().toLowerCase();
  await assertNotLockedOut(db, policy, input.ip, username);
  const user = await db
    .selectFrom('users')
    .select(['id', 'name', 'password_hash', 'active'])
    .where(sql<string>`lower(username)`, '=', username)
    .executeTakeFirst();
  // Always run one scrypt so an unknown name takes as long as a wrong password.
  const passwordOk = await verifyPassword(input.password, user?.password_hash ?? DUMMY_PASSWORD_HASH);
  if (!user?.active || !user.password_hash || !passwordOk) {
    await recordFailure(db, policy, input.ip, username);
    throw unauthorized(texts.login.failed);
  }
  await db.deleteFrom('login_failures').where('username', '=', username).execute();
  return openSession(db, user);
}

export async function anmeldenMitKarte(
  db: Db,
  policy: LoginPolicy,
  input: { card: string; ip: string },
): Promise<LoginResult> {
  await assertNotLockedOut(db, policy, input.ip, null);
  const user = await db
    .selectFrom('users')
    .select(['id', 'name', 'active'])
    .where('card_secret_hash', '=', hashCardSecret(input.card.trim()))
    .executeTakeFirst();
  if (!user?.active) {
    await recordFailure(db, policy, input.ip, null);
    throw unauthorized(texts.login.failed);
  }
  return openSession(db, user);
}

async function openSession(db: Db, user: { id: number; name: string }): Promise<LoginResult> {
  const { token, tokenHash } = newSessionToken();
  await db
    .insertInto('sessions')
    .values({ token_hash: tokenHash, user_id: user.id, last_seen_at: new Date() })
    .execute();
  return { success: true, token, name: user.name, id: user.id };
}

export async function abmelden(db: Db, sessionId: number): Promise<void> {
  await db.updateTable('sessions').set({ revoked_at: sql`now()` }).where('id', '=', sessionId).execute();
}

/** The user behind a token, if the session is live (not revoked, not idle too long, user active). */
/** The login behind a token (given as its hash), or null if it is unknown, ended, idle too long or its user is off. */
export async function sitzungPruefen(
  db: Db,
  idleMinutes: number,
  tokenHash: string,
): Promise<AuthUser | null> {
  const row = await db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select([
      's.id as sessionId',
      'u.id as id',
      'u.name as name',
      sql<boolean>`s.last_seen_at < now() - make_interval(secs => ${TOUCH_AFTER_SECONDS})`.as('stale'),
    ])
    .where('s.token_hash', '=', tokenHash)
    .where('s.revoked_at', 'is', null)
    .where('u.active', '=', true)
    .where(sql<boolean>`s.last_seen_at > now() - make_interval(mins => ${idleMinutes})`)
    .executeTakeFirst();
  if (!row) return null;
  if (row.stale) {
    await db
      .updateTable('sessions')
      .set({ last_seen_at: sql`now()` })
      .where('id', '=', row.sessionId)
      .execute();
  }
  return { id: row.id, name: row.name, sessionId: row.sessionId };
}

async function assertNotLockedOut(
  db: Db,
  policy: LoginPolicy,
  ip: string,
  username: string | null,
): Promise<void> {
  const counts = await db
    .selectFrom('login_failures')
    .select([
      sql<number>`count(*) filter (where ip = ${ip})::int`.as('byIp'),
      sql<number>`count(*) filter (where username = ${username})::int`.as('byUser'),
    ])
    .where(sql<boolean>`at > now() - make_interval(mins => ${policy.loginWindowMinutes})`)
    .where((eb) =>
      username === null ? eb('ip', '=', ip) : eb.or([eb('ip', '=', ip), eb('username', '=', username)]),
    )
    .executeTakeFirst();
  if (!counts) return;
  if (counts.byIp >= policy.loginMaxFailuresPerIp || counts.byUser >= policy.loginMaxFailuresPerUser) {
    throw tooManyRequests(texts.login.tooMany);
  }
}

async function recordFailure(
  db: Db,
  policy: LoginPolicy,
  ip: string,
  username: string | null,
): Promise<void> {
  await db.insertInto('login_failures').values({ ip, username }).execute();
  // Old failures no longer count; keep the table small.
  await db
    .deleteFrom('login_failures')
    .where(sql<boolean>`at < now() - make_interval(mins => ${policy.loginWindowMinutes * 2})`)
    .execute();
}
