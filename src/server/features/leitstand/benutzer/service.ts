import type { Kysely } from 'kysely';
import type { Language } from '../../../../contract/i18n/languages.ts';
import type { UserId } from '../../../../contract/ids.ts';
import { benutzerTexts, type UserRow } from '../../../../contract/leitstand/benutzer.ts';
import type { Role } from '../../../../contract/roles.ts';
import {
  AdminError,
  activateUser,
  assignCard,
  changePassword,
  createUser as createUserRow,
  listUsers,
  MIN_PASSWORD_LENGTH,
  newCardText,
  setLanguage,
  setRole,
  switchOff,
  type UserListing,
} from '../../../auth/users.ts';
import type { Database } from '../../../db/schema.ts';
import { conflict, type DomainError, invalid, notFound } from '../../../domain/errors.ts';
import { type AuditEntry, recordAudit } from '../../../repositories/audit.repository.ts';

/**
 * Leitstand › Benutzer: the operator's user administration (src/server/auth/users.ts, as `npm run user`)
 * for an admin in the browser. Its refusals in German; each write journalled (never a password or a card
 * text); the last active admin stays (AdminGuards.keepAnAdmin).
 */
type Db = Kysely<Database>;

/** Who does it, for the audit list. */
export type Actor = Pick<AuditEntry, 'userId' | 'requestKey'>;

const refusals = benutzerTexts.refusals;

/** The German refusal of an AdminError (the CLI prints its English message). */
function inGerman(error: AdminError, username?: string): DomainError {
  switch (error.code) {
    case 'usernameInvalid':
      return invalid(refusals.usernameInvalid);
    case 'nameInvalid':
      return invalid(refusals.nameInvalid);
    case 'passwordTooShort':
      return invalid(refusals.passwordTooShort(MIN_PASSWORD_LENGTH));
    case 'passwordTooLong':
      return invalid(refusals.passwordTooLong);
    case 'cardTooShort':
      return invalid(refusals.cardTooShort);
    case 'cardTooLong':
      return invalid(refusals.cardTooLong);
    case 'noLoginWay':
      return invalid(refusals.noLoginWay);
    case 'usernameTaken':
      return conflict(refusals.usernameTaken(username ?? ''));
    case 'cardTaken':
      return conflict(refusals.cardTaken);
    case 'unknownUser':
      return notFound(refusals.unknownUser);
    case 'lastAdmin':
      return invalid(refusals.lastAdmin);
  }
}

async function german<T>(work: Promise<T>, username?: string): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof AdminError) throw inGerman(error, username);
    throw error;
  }
}

function row(user: UserListing): UserRow {
  return { ...user, lastSeenAt: user.lastSeenAt ? user.lastSeenAt.toISOString() : null };
}

async function one(db: Db, idleMinutes: number, id: number): Promise<UserRow> {
  const [user] = await listUsers(db, idleMinutes, id);
  if (!user) throw notFound(refusals.unknownUser);
  return row(user);
}

/** How the audit list names a user: the username, or #id for a card-only one. */
const subjectOf = (user: UserRow) => user.username ?? `#${user.id}`;

/** How the audit list names the user of this id (#id when there is none). */
export async function auditSubject(db: Db, userId: UserId): Promise<string> {
  const row = await db.selectFrom('users').select('username').where('id', '=', userId).executeTakeFirst();
  return row?.username ?? `#${userId}`;
}

export async function users(db: Db, idleMinutes: number): Promise<UserRow[]> {
  return (await listUsers(db, idleMinutes)).map(row);
}

export async function createUser(
  db: Db,
  idleMinutes: number,
  actor: Actor,
  input: {
    username: string;
    name: string;
    role: Role;
    language?: Language | undefined;
    password: string | null;
    newCard: boolean;
  },
): Promise<{ user: UserRow; cardText: string | null }> {
  const cardText = input.newCard ? newCardText() : null;
  const { id } = await german(
    createUserRow(db, {
      username: input.username,
      name: input.name,
      role: input.role,
      language: input.language ?? 'de',
      password: input.password ?? undefined,
      cardText: cardText ?? undefined,
    }),
    input.username,
  );
  const user = await one(db, idleMinutes, id);
  await recordAudit(db, {
    ...actor,
    action: 'user.create',
    subject: subjectOf(user),
    detail: {
      name: user.name,
      role: user.role,
      language: user.language,
      password: user.hasPassword,
      card: user.hasCard,
    },
  });
  return { user, cardText };
}

export async function setUserRole(
  db: Db,
  idleMinutes: number,
  actor: Actor,
  userId: UserId,
  role: Role,
): Promise<UserRow> {
  const before = await one(db, idleMinutes, userId);
  await german(setRole(db, `#${userId}`, role, { keepAnAdmin: true }));
  const user = await one(db, idleMinutes, userId);
  if (before.role !== role)
    await recordAudit(db, {
      ...actor,
      action: 'user.role',
      subject: subjectOf(user),
      detail: { from: before.role, to: role },
    });
  return user;
}

/** The user's language (decision 35), journalled from → to like a role. */
export async function setUserLanguage(
  db: Db,
  idleMinutes: number,
  actor: Actor,
  userId: UserId,
  language: Language,
): Promise<UserRow> {
  const before = await one(db, idleMinutes, userId);
  await german(setLanguage(db, `#${userId}`, language));
  const user = await one(db, idleMinutes, userId);
  if (before.language !== language)
    await recordAudit(db, {
      ...actor,
      action: 'user.language',
      subject: subjectOf(user),
      detail: { from: before.language, to: language },
    });
  return user;
}

export async function setUserPassword(
  db: Db,
  idleMinutes: number,
  actor: Actor,
  userId: UserId,
  password: string,
): Promise<{ user: UserRow; endedLogins: number }> {
  const { endedLogins } = await german(changePassword(db, `#${userId}`, password));
  const user = await one(db, idleMinutes, userId);
  await recordAudit(db, {
    ...actor,
    action: 'user.password',
    subject: subjectOf(user),
    detail: { endedLogins },
  });
  return { user, endedLogins };
}

export async function setUserActive(
  db: Db,
  idleMinutes: number,
  actor: Actor,
  userId: UserId,
  active: boolean,
): Promise<{ user: UserRow; endedLogins: number }> {
  const before = await one(db, idleMinutes, userId);
  let endedLogins = 0;
  if (active) await german(activateUser(db, `#${userId}`));
  else ({ endedLogins } = await german(switchOff(db, `#${userId}`, { keepAnAdmin: true })));
  const user = await one(db, idleMinutes, userId);
  if (before.active !== active || endedLogins > 0)
    await recordAudit(db, {
      ...actor,
      action: active ? 'user.activate' : 'user.deactivate',
      subject: subjectOf(user),
      detail: active ? {} : { endedLogins },
    });
  return { user, endedLogins };
}

/** A new card for the user: its text answered once, journalled without it; their earlier card stops working. */
export async function newUserCard(
  db: Db,
  idleMinutes: number,
  actor: Actor,
  userId: UserId,
): Promise<{ user: UserRow; cardText: string }> {
  const cardText = newCardText();
  await german(assignCard(db, `#${userId}`, cardText));
  const user = await one(db, idleMinutes, userId);
  await recordAudit(db, {
    ...actor,
    action: 'user.card',
    subject: subjectOf(user),
    detail: { name: user.name },
  });
  return { user, cardText };
}
