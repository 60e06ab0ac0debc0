import { type Kysely, sql } from 'kysely';
import type { Language } from '../../contract/i18n/languages.ts';
import type { Role } from '../../contract/roles.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/schema.ts';
import { newSessionToken } from './secrets.ts';

/** The logged-in user behind a request, and which of their logins it came with. */
export interface AuthUser {
  id: number;
  name: string;
  /** What the login may do (DESIGN §9), as the user's row said when the login was last checked. */
  role: Role;
  /** The language the user reads (decision 35): the server answers them in it. */
  language: Language;
  sessionId: number;
}

/** What a login answers (SPEC §7). */
export interface LoginResult {
  success: true;
  token: string;
  name: string;
  id: number;
  role: Role;
  language: Language;
}

type Db = Kysely<Database>;

/** Sliding expiry is refreshed at most once a minute per session, so reads stay reads. */
const TOUCH_AFTER_SECONDS = 60;

/** What a login needs to know about sessions (docs/configuration.md). */
export type SessionPolicy = Pick<Config, 'sessionMaxPerUser' | 'sessionIdleMinutes'>;

/** A new login, and the logins the cap per user ended to make room (the server forgets them at once). */
export interface Opened {
  answer: LoginResult;
  ended: number[];
}

/**
 * Opens a session. A user holds at most `sessionMaxPerUser` live ones: past that, the one unused for longest
 * ends (an abandoned device, rather than the handheld logged in first and still scanning); ended and
 * idle-expired ones go with it. The user's row is locked meanwhile, so parallel logins cannot pass the cap.
 */
export async function openSession(
  db: Db,
  policy: SessionPolicy,
  user: { id: number; name: string; role: Role; language: Language },
): Promise<Opened> {
  const { token, tokenHash } = newSessionToken();
  return db.transaction().execute(async (trx) => {
    await trx.selectFrom('users').select('id').where('id', '=', user.id).forUpdate().execute();
    const session = await trx
      .insertInto('sessions')
      .values({ token_hash: tokenHash, user_id: user.id, last_seen_at: sql`now()` })
      .returning('id')
      .executeTakeFirstOrThrow();
    const ended = await sql<{ id: number }>`
      update sessions set revoked_at = now()
      where user_id = ${user.id} and revoked_at is null and id <> ${session.id}
        and id not in (
          select id from sessions
          where user_id = ${user.id} and revoked_at is null and id <> ${session.id}
            and last_seen_at > now() - make_interval(mins => ${policy.sessionIdleMinutes})
          order by last_seen_at desc, id desc
          limit ${policy.sessionMaxPerUser - 1})
      returning id`.execute(trx);
    return {
      answer: {
        success: true as const,
        token,
        name: user.name,
        id: user.id,
        role: user.role,
        language: user.language,
      },
      ended: ended.rows.map((r) => r.id),
    };
  });
}

export async function endSession(db: Db, sessionId: number): Promise<void> {
  await db.updateTable('sessions').set({ revoked_at: sql`now()` }).where('id', '=', sessionId).execute();
}

/** The login behind a token (given as its hash), or null if it is unknown, ended, idle too long or its user is off. */
export async function checkSession(db: Db, idleMinutes: number, tokenHash: string): Promise<AuthUser | null> {
  const row = await db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select([
      's.id as sessionId',
      'u.id as id',
      'u.name as name',
      'u.role as role',
      'u.language as language',
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
  return { id: row.id, name: row.name, role: row.role, language: row.language, sessionId: row.sessionId };
}
