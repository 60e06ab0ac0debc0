import { randomBytes } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { Role } from '../../../contract/roles.ts';
import { hashCardSecret, hashPassword } from '../../auth/secrets.ts';
import type { Database } from '../../db/schema.ts';

/**
 * User administration for the operator (`npm run user`, src/server/cli/users.ts): create, set a password,
 * give or replace a badge card, switch off and on, list. Messages are English: they are read by IT.
 * A user is named by username, or by `#id` (a card-only user from an import may lack a username).
 */
type Db = Kysely<Database>;

/** Refused operator input: the CLI prints the message and exits with 1. */
export class AdminError extends Error {}

export const MIN_PASSWORD_LENGTH = 8;

export interface UserListing {
  id: number;
  username: string | null;
  name: string;
  role: Role;
  active: boolean;
  hasPassword: boolean;
  hasCard: boolean;
  liveSessions: number;
  lastSeenAt: Date | null;
}

function checkUsername(username: string): void {
  if (!/^[^\s#][^\s]{0,199}$/u.test(username))
    throw new AdminError(
      `A username is 1 to 200 characters without spaces and does not start with #, got "${username}".`,
    );
}

function checkName(name: string): void {
  if (name.trim().length < 1 || name.length > 200)
    throw new AdminError('A name is 1 to 200 characters (as the handheld greets the user).');
}

function checkPassword(password: string): void {
  if (password.length < MIN_PASSWORD_LENGTH)
    throw new AdminError(`A password needs at least ${MIN_PASSWORD_LENGTH} characters.`);
  if (password.length > 1000) throw new AdminError('A password has at most 1000 characters.');
}

/** A new badge text: 40 random characters from a set no scanner layout mixes up (no 0/O, 1/I, Y/Z). */
export function newCardText(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWX23456789';
  const bytes = randomBytes(40);
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('');
}

function checkCardText(text: string): string {
  const card = text.trim();
  // As the import takes cards (8): a site's existing badges may be short; new ones get 40 characters.
  if (card.length < 8)
    throw new AdminError('A card text needs at least 8 characters (it is the only secret of a card login).');
  if (card.length > 2000) throw new AdminError('A card text has at most 2000 characters.');
  return card;
}

async function findUser(db: Db, who: string): Promise<{ id: number; name: string; username: string | null }> {
  const byId = /^#(\d{1,9})$/.exec(who);
  const query = db.selectFrom('users').select(['id', 'name', 'username']);
  const user = await (byId
    ? query.where('id', '=', Number(byId[1]))
    : query.where('username', '=', who)
  ).executeTakeFirst();
  if (!user) throw new AdminError(`No user "${who}". \`npm run user -- list\` shows them all.`);
  return user;
}

const label = (user: { name: string; username: string | null; id: number }) =>
  `${user.username ?? `#${user.id}`} (${user.name})`;

/** Ends every live login of the user; answers how many there were. */
async function endSessions(db: Db, userId: number): Promise<number> {
  const result = await db
    .updateTable('sessions')
    .set({ revoked_at: sql`now()` })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

async function assertCardFree(db: Db, cardHash: string, exceptUserId: number | null): Promise<void> {
  const holder = await db
    .selectFrom('users')
    .select(['id', 'name', 'username'])
    .where('card_secret_hash', '=', cardHash)
    .executeTakeFirst();
  if (holder && holder.id !== exceptUserId)
    throw new AdminError(`This card already belongs to ${label(holder)}. Take it from them first.`);
}

export async function createUser(
  db: Db,
  input: { username: string; name: string; password?: string; cardText?: string; role?: Role },
): Promise<{ id: number; message: string }> {
  checkUsername(input.username);
  checkName(input.name);
  if (input.password !== undefined) checkPassword(input.password);
  const card = input.cardText === undefined ? undefined : checkCardText(input.cardText);
  if (input.password === undefined && card === undefined)
    throw new AdminError('A user needs a password, a card or both, or they cannot log in.');
  return db.transaction().execute(async (tx) => {
    const taken = await tx
      .selectFrom('users')
      .select('id')
      .where('username', '=', input.username)
      .executeTakeFirst();
    if (taken) throw new AdminError(`The username "${input.username}" is taken.`);
    const cardHash = card === undefined ? null : hashCardSecret(card);
    if (cardHash) await assertCardFree(tx, cardHash, null);
    const { id } = await tx
      .insertInto('users')
      .values({
        username: input.username,
        name: input.name.trim(),
        password_hash: input.password === undefined ? null : await hashPassword(input.password),
        card_secret_hash: cardHash,
        role: input.role ?? 'mitarbeiter',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const ways = [input.password !== undefined && 'password', card !== undefined && 'card'].filter(Boolean);
    return {
      id,
      message: `Created ${input.username} (${input.name.trim()}), #${id}, ${input.role ?? 'mitarbeiter'}, logs in with ${ways.join(' and ')}.`,
    };
  });
}

/**
 * A new role. Takes effect at the user's next request (a server instance rechecks a login after at most
 * SESSION_CACHE_SECONDS); their logins stay, so a shift lead made worker keeps scanning.
 */
export async function setRole(db: Db, who: string, role: Role): Promise<string> {
  return db.transaction().execute(async (tx) => {
    const user = await findUser(tx, who);
    const before = await tx
      .selectFrom('users')
      .select('role')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    if (before.role === role) return `${label(user)} is ${role} already.`;
    await tx.updateTable('users').set({ role }).where('id', '=', user.id).execute();
    return `${label(user)} is ${role} now (was ${before.role}).`;
  });
}

/** A new password; the user's logins end, so a leaked one is of no use any more. */
export async function setPassword(db: Db, who: string, password: string): Promise<string> {
  checkPassword(password);
  const hash = await hashPassword(password);
  return db.transaction().execute(async (tx) => {
    const user = await findUser(tx, who);
    await tx.updateTable('users').set({ password_hash: hash }).where('id', '=', user.id).execute();
    const ended = await endSessions(tx, user.id);
    return `New password for ${label(user)}; ${ended} login(s) ended.`;
  });
}

/** Gives the user this card (an existing badge's text, or a new one); their old card stops working at once. */
export async function assignCard(db: Db, who: string, cardText: string): Promise<string> {
  const card = checkCardText(cardText);
  const cardHash = hashCardSecret(card);
  return db.transaction().execute(async (tx) => {
    const user = await findUser(tx, who);
    await assertCardFree(tx, cardHash, user.id);
    await tx.updateTable('users').set({ card_secret_hash: cardHash }).where('id', '=', user.id).execute();
    return `Card of ${label(user)} set; any earlier card of theirs no longer logs in.`;
  });
}

/** Switches the user off: no login from now on, and every open login ends at once. */
export async function deactivateUser(db: Db, who: string): Promise<string> {
  return db.transaction().execute(async (tx) => {
    const user = await findUser(tx, who);
    await tx.updateTable('users').set({ active: false }).where('id', '=', user.id).execute();
    const ended = await endSessions(tx, user.id);
    return `${label(user)} deactivated; ${ended} login(s) ended.`;
  });
}

export async function activateUser(db: Db, who: string): Promise<string> {
  const user = await findUser(db, who);
  await db.updateTable('users').set({ active: true }).where('id', '=', user.id).execute();
  return `${label(user)} can log in again.`;
}

export async function listUsers(db: Db, idleMinutes: number): Promise<UserListing[]> {
  const rows = await db
    .selectFrom('users as u')
    .select([
      'u.id',
      'u.username',
      'u.name',
      'u.role',
      'u.active',
      sql<boolean>`u.password_hash is not null`.as('hasPassword'),
      sql<boolean>`u.card_secret_hash is not null`.as('hasCard'),
      sql<number>`(select count(*) from sessions s where s.user_id = u.id and s.revoked_at is null
        and s.last_seen_at > now() - make_interval(mins => ${idleMinutes}))::int`.as('liveSessions'),
      sql<Date | null>`(select max(s.last_seen_at) from sessions s where s.user_id = u.id)`.as('lastSeenAt'),
    ])
    .orderBy('u.id')
    .execute();
  return rows.map((r) => ({ ...r, liveSessions: r.active ? r.liveSessions : 0 }));
}
