import { randomBytes } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { Language } from '../../contract/i18n/languages.ts';
import { MIN_PASSWORD_LENGTH } from '../../contract/leitstand/benutzer.ts';
import type { Role } from '../../contract/roles.ts';
import type { Database } from '../db/schema.ts';
import { hashCardSecret, hashPassword } from './secrets.ts';

/**
 * User administration: create, set a password or a role, give or replace a badge card, switch off and on,
 * list. Used by the operator's `npm run user` (src/server/cli/users.ts) and by the Leitstand's user page
 * (src/server/features/leitstand/benutzer/). Messages are English, for IT at the terminal; each refusal
 * carries a `code` the Leitstand turns into its German text. A user is named by username, or by `#id` (a
 * card-only user from an import may lack a username).
 *
 * Every write runs in one transaction: its own, or the caller's when `db` is one already (a Leitstand
 * call runs inside its exactly-once transaction).
 */
type Db = Kysely<Database>;

export type AdminErrorCode =
  | 'usernameInvalid'
  | 'nameInvalid'
  | 'passwordTooShort'
  | 'passwordTooLong'
  | 'cardTooShort'
  | 'cardTooLong'
  | 'noLoginWay'
  | 'usernameTaken'
  | 'cardTaken'
  | 'unknownUser'
  | 'lastAdmin';

/** Refused operator input: the CLI prints the message and exits with 1; the Leitstand answers `code` in German. */
export class AdminError extends Error {
  constructor(
    readonly code: AdminErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'AdminError';
  }
}

export { MIN_PASSWORD_LENGTH };

export interface UserListing {
  id: number;
  username: string | null;
  name: string;
  role: Role;
  language: Language;
  active: boolean;
  hasPassword: boolean;
  hasCard: boolean;
  liveSessions: number;
  lastSeenAt: Date | null;
}

/** What the Leitstand may refuse that the CLI allows (the terminal is IT's way back in). */
export interface AdminGuards {
  /**
   * Refuse to demote or deactivate the last active admin: nobody could reach the user page any more. The
   * active admins' rows are locked first, so two admins demoting each other at once cannot both succeed.
   */
  keepAnAdmin?: boolean;
}

function inTransaction<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}

function checkUsername(username: string): void {
  if (!/^[^\s#][^\s]{0,199}$/u.test(username))
    throw new AdminError(
      'usernameInvalid',
      `A username is 1 to 200 characters without spaces and does not start with #, got "${username}".`,
    );
}

function checkName(name: string): void {
  if (name.trim().length < 1 || name.length > 200)
    throw new AdminError('nameInvalid', 'A name is 1 to 200 characters (as the handheld greets the user).');
}

function checkPassword(password: string): void {
  if (password.length < MIN_PASSWORD_LENGTH)
    throw new AdminError('passwordTooShort', `A password needs at least ${MIN_PASSWORD_LENGTH} characters.`);
  if (password.length > 1000)
    throw new AdminError('passwordTooLong', 'A password has at most 1000 characters.');
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
    throw new AdminError(
      'cardTooShort',
      'A card text needs at least 8 characters (it is the only secret of a card login).',
    );
  if (card.length > 2000) throw new AdminError('cardTooLong', 'A card text has at most 2000 characters.');
  return card;
}

interface NamedUser {
  id: number;
  name: string;
  username: string | null;
  role: Role;
  active: boolean;
}

async function findUser(db: Db, who: string): Promise<NamedUser> {
  const byId = /^#(\d{1,9})$/.exec(who);
  const query = db.selectFrom('users').select(['id', 'name', 'username', 'role', 'active']);
  const user = await (byId
    ? query.where('id', '=', Number(byId[1]))
    : query.where('username', '=', who)
  ).executeTakeFirst();
  if (!user)
    throw new AdminError('unknownUser', `No user "${who}". \`npm run user -- list\` shows them all.`);
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
    throw new AdminError(
      'cardTaken',
      `This card already belongs to ${label(holder)}. Take it from them first.`,
    );
}

/** Refuses when `user` is the only active admin (see AdminGuards.keepAnAdmin). */
async function assertAnotherAdmin(tx: Db, user: NamedUser): Promise<void> {
  const admins = await tx
    .selectFrom('users')
    .select('id')
    .where('role', '=', 'admin')
    .where('active', '=', true)
    .orderBy('id')
    .forUpdate()
    .execute();
  if (admins.some((a) => a.id === user.id) && admins.length < 2)
    throw new AdminError(
      'lastAdmin',
      `${label(user)} is the last active admin; make another user admin first.`,
    );
}

export async function createUser(
  db: Db,
  input: {
    username: string;
    name: string;
    password?: string;
    cardText?: string;
    role?: Role;
    language?: Language;
  },
): Promise<{ id: number; message: string }> {
  checkUsername(input.username);
  checkName(input.name);
  if (input.password !== undefined) checkPassword(input.password);
  const card = input.cardText === undefined ? undefined : checkCardText(input.cardText);
  if (input.password === undefined && card === undefined)
    throw new AdminError('noLoginWay', 'A user needs a password, a card or both, or they cannot log in.');
  const passwordHash = input.password === undefined ? null : await hashPassword(input.password);
  return inTransaction(db, async (tx) => {
    const taken = await tx
      .selectFrom('users')
      .select('id')
      .where('username', '=', input.username)
      .executeTakeFirst();
    if (taken) throw new AdminError('usernameTaken', `The username "${input.username}" is taken.`);
    const cardHash = card === undefined ? null : hashCardSecret(card);
    if (cardHash) await assertCardFree(tx, cardHash, null);
    const { id } = await tx
      .insertInto('users')
      .values({
        username: input.username,
        name: input.name.trim(),
        password_hash: passwordHash,
        card_secret_hash: cardHash,
        role: input.role ?? 'mitarbeiter',
        language: input.language ?? 'de',
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
export async function setRole(db: Db, who: string, role: Role, guards: AdminGuards = {}): Promise<string> {
  return inTransaction(db, async (tx) => {
    const user = await findUser(tx, who);
    if (user.role === role) return `${label(user)} is ${role} already.`;
    if (guards.keepAnAdmin && user.role === 'admin') await assertAnotherAdmin(tx, user);
    await tx.updateTable('users').set({ role }).where('id', '=', user.id).execute();
    return `${label(user)} is ${role} now (was ${user.role}).`;
  });
}

/**
 * The language the user's handheld shows and the server answers them in (decision 35). Their logins stay;
 * a server instance answers in it within SESSION_CACHE_SECONDS (the one that changed it: at once).
 */
export async function setLanguage(db: Db, who: string, language: Language): Promise<string> {
  return inTransaction(db, async (tx) => {
    const user = await findUser(tx, who);
    await tx.updateTable('users').set({ language }).where('id', '=', user.id).execute();
    return `${label(user)} reads ${language} now.`;
  });
}

/** A new password; the user's logins end, so a leaked one is of no use any more. */
export async function setPassword(db: Db, who: string, password: string): Promise<string> {
  return (await changePassword(db, who, password)).message;
}

/** setPassword, also answering how many logins it ended. */
export async function changePassword(
  db: Db,
  who: string,
  password: string,
): Promise<{ message: string; endedLogins: number }> {
  checkPassword(password);
  const hash = await hashPassword(password);
  return inTransaction(db, async (tx) => {
    const user = await findUser(tx, who);
    await tx.updateTable('users').set({ password_hash: hash }).where('id', '=', user.id).execute();
    const ended = await endSessions(tx, user.id);
    return { message: `New password for ${label(user)}; ${ended} login(s) ended.`, endedLogins: ended };
  });
}

/** Gives the user this card (an existing badge's text, or a new one); their old card stops working at once. */
export async function assignCard(db: Db, who: string, cardText: string): Promise<string> {
  const card = checkCardText(cardText);
  const cardHash = hashCardSecret(card);
  return inTransaction(db, async (tx) => {
    const user = await findUser(tx, who);
    await assertCardFree(tx, cardHash, user.id);
    await tx.updateTable('users').set({ card_secret_hash: cardHash }).where('id', '=', user.id).execute();
    return `Card of ${label(user)} set; any earlier card of theirs no longer logs in.`;
  });
}

/** Switches the user off: no login from now on, and every open login ends at once. */
export async function deactivateUser(db: Db, who: string, guards: AdminGuards = {}): Promise<string> {
  return (await switchOff(db, who, guards)).message;
}

/** deactivateUser, also answering how many logins it ended. */
export async function switchOff(
  db: Db,
  who: string,
  guards: AdminGuards = {},
): Promise<{ message: string; endedLogins: number }> {
  return inTransaction(db, async (tx) => {
    const user = await findUser(tx, who);
    if (guards.keepAnAdmin && user.active && user.role === 'admin') await assertAnotherAdmin(tx, user);
    await tx.updateTable('users').set({ active: false }).where('id', '=', user.id).execute();
    const ended = await endSessions(tx, user.id);
    return { message: `${label(user)} deactivated; ${ended} login(s) ended.`, endedLogins: ended };
  });
}

export async function activateUser(db: Db, who: string): Promise<string> {
  const user = await findUser(db, who);
  await db.updateTable('users').set({ active: true }).where('id', '=', user.id).execute();
  return `${label(user)} can log in again.`;
}

export async function listUsers(db: Db, idleMinutes: number, onlyId?: number): Promise<UserListing[]> {
  let query = db
    .selectFrom('users as u')
    .select([
      'u.id',
      'u.username',
      'u.name',
      'u.role',
      'u.language',
      'u.active',
      sql<boolean>`u.password_hash is not null`.as('hasPassword'),
      sql<boolean>`u.card_secret_hash is not null`.as('hasCard'),
      sql<number>`(select count(*) from sessions s where s.user_id = u.id and s.revoked_at is null
        and s.last_seen_at > now() - make_interval(mins => ${idleMinutes}))::int`.as('liveSessions'),
      sql<Date | null>`(select max(s.last_seen_at) from sessions s where s.user_id = u.id)`.as('lastSeenAt'),
    ])
    .orderBy('u.id');
  if (onlyId !== undefined) query = query.where('u.id', '=', onlyId);
  const rows = await query.execute();
  return rows.map((r) => ({ ...r, liveSessions: r.active ? r.liveSessions : 0 }));
}
