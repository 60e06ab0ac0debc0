import { type Kysely, sql } from 'kysely';
import type { Language } from '../../../contract/i18n/languages.ts';
import { texts } from '../../../contract/texts.ts';
import { cardOwner } from '../../auth/cards.ts';
import { DUMMY_PASSWORD_HASH, verifyPassword } from '../../auth/secrets.ts';
import { endSession, type Opened, openSession, type SessionPolicy } from '../../auth/sessions.ts';
import type { Database } from '../../db/schema.ts';
import { WrongSecret } from '../../domain/errors.ts';
import { endPickTripsOfSession } from '../../domain/pick-trip.ts';
import { releasePickClaimsOfSession } from '../../repositories/pick-claim.repository.ts';

type Db = Kysely<Database>;

/** A user name as the password login compares it (and counts its failures). */
export function normalUserName(username: string): string {
  return username.trim().toLowerCase();
}

/**
 * Name and password. The route counts the attempt against the name's and the address's limits before this
 * runs (decision 14); a wrong one is a `WrongSecret`.
 */
export async function loginPassword(
  db: Db,
  policy: SessionPolicy,
  input: { username: string; password: string },
): Promise<Opened> {
  const user = await db
    .selectFrom('users')
    .select(['id', 'name', 'role', 'language', 'password_hash', 'active'])
    .where(sql<string>`lower(username)`, '=', normalUserName(input.username))
    .executeTakeFirst();
  // Always run one scrypt so an unknown name takes as long as a wrong password.
  const passwordOk = await verifyPassword(input.password, user?.password_hash ?? DUMMY_PASSWORD_HASH);
  if (!user?.active || !user.password_hash || !passwordOk)
    throw new WrongSecret('unauthenticated', texts.login.failed);
  return openSession(db, policy, user);
}

/** The scanned employee card; counted against the address's card limit by the route. */
export async function loginCard(db: Db, policy: SessionPolicy, input: { card: string }): Promise<Opened> {
  const user = await cardOwner(db, input.card);
  if (!user) throw new WrongSecret('unauthenticated', texts.login.failed);
  return openSession(db, policy, user);
}

/**
 * Ends the login, and lets go of the delivery notes it was picking (decision 25): its carts' trips end as
 * 'Abbrechen' ends them (decision 33), then its claims go. One transaction: a logout never ends half a trip.
 */
export async function logout(db: Db, sessionId: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await endSession(trx, sessionId);
    await endPickTripsOfSession(trx, sessionId);
    await releasePickClaimsOfSession(trx, sessionId);
  });
}

/** Notes a refused login for the Leitstand (the limits count separately, src/server/auth/attempt-limits.ts). */
export async function recordFailedLogin(db: Db, kind: 'password' | 'card', username: string | null) {
  await db
    .insertInto('failed_logins')
    .values({ kind, username: username === null ? null : normalUserName(username).slice(0, 200) })
    .execute();
}

/** The worker's own language (decision 35), kept with the user: each login of theirs follows it. */
export async function setLanguage(db: Db, userId: number, language: Language): Promise<void> {
  await db.updateTable('users').set({ language }).where('id', '=', userId).execute();
}
