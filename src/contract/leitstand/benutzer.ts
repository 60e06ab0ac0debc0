import { z } from 'zod';
import { endpoint, text } from '../endpoint.ts';
import { languageCodes } from '../i18n/languages.ts';
import { userIdParam } from '../ids.ts';
import { ROLES, type Role } from '../roles.ts';

/**
 * Leitstand › Benutzer (issue 20.6, admin): the users, as `npm run user` manages them. A new card's text is
 * answered once (never stored in clear: a repeat of the same call answers `cardText: null`).
 */

const when = z.iso.datetime({ offset: true });

/** The shortest password a user may get (`npm run user` and the Leitstand alike). */
export const MIN_PASSWORD_LENGTH = 8;

export const userRow = z.object({
  id: z.number().int(),
  /** null: a card-only user from an import. */
  username: z.string().nullable(),
  name: z.string(),
  role: z.enum(ROLES),
  /** The language the user's handheld shows and the server answers them in (issue 43, decision 35). */
  language: z.enum(languageCodes),
  active: z.boolean(),
  hasPassword: z.boolean(),
  hasCard: z.boolean(),
  /** Logins used within SESSION_IDLE_MINUTES (0 for a deactivated user). */
  liveSessions: z.number().int(),
  lastSeenAt: when.nullable(),
});
export type UserRow = z.infer<typeof userRow>;

/** A password as typed: not trimmed (a space may belong to it), only NUL refused (src/contract/limits.ts). */
const password = text(2000, { trim: false, controls: 'secret' });

const userParams = z.object({ id: userIdParam }).strict();

export const users = endpoint({
  name: 'users',
  method: 'GET',
  path: '/api/admin/benutzer',
  role: 'admin',
  response: z.object({ users: z.array(userRow) }),
});

export const createUser = endpoint({
  name: 'createUser',
  method: 'POST',
  path: '/api/admin/benutzer',
  role: 'admin',
  body: z
    .object({
      // Long limits here: the server names what is wrong in German (benutzerTexts.refusals).
      username: text(1000, { controls: 'typed' }),
      name: text(1000, { controls: 'typed' }),
      role: z.enum(ROLES),
      /** The handheld's language for the user (decision 35); left out: German. */
      language: z.enum(languageCodes).optional(),
      /** null: no password (then `newCard` must be true). */
      password: password.nullable(),
      /** Give the user a new card; its text is in the answer, once. */
      newCard: z.boolean(),
    })
    .strict(),
  response: z.object({
    user: userRow,
    /** The new card's text, to print on the badge now; null without a card, and on a repeat of the call. */
    cardText: z.string().nullable(),
  }),
});

export const setUserRole = endpoint({
  name: 'setUserRole',
  method: 'PUT',
  path: '/api/admin/benutzer/:id/rolle',
  role: 'admin',
  params: userParams,
  body: z.object({ role: z.enum(ROLES) }).strict(),
  response: z.object({ user: userRow }),
});

/** The user's language (decision 35): their logins answer in it from their next call on. */
export const setUserLanguage = endpoint({
  name: 'setUserLanguage',
  method: 'PUT',
  path: '/api/admin/benutzer/:id/sprache',
  role: 'admin',
  params: userParams,
  body: z.object({ language: z.enum(languageCodes) }).strict(),
  response: z.object({ user: userRow }),
});

export const setUserPassword = endpoint({
  name: 'setUserPassword',
  method: 'PUT',
  path: '/api/admin/benutzer/:id/passwort',
  role: 'admin',
  params: userParams,
  body: z.object({ password }).strict(),
  /** `endedLogins`: the user's logins the new password ended. */
  response: z.object({ user: userRow, endedLogins: z.number().int() }),
});

export const setUserActive = endpoint({
  name: 'setUserActive',
  method: 'PUT',
  path: '/api/admin/benutzer/:id/aktiv',
  role: 'admin',
  params: userParams,
  body: z.object({ active: z.boolean() }).strict(),
  response: z.object({ user: userRow, endedLogins: z.number().int() }),
});

export const newUserCard = endpoint({
  name: 'newUserCard',
  method: 'PUT',
  path: '/api/admin/benutzer/:id/karte',
  role: 'admin',
  params: userParams,
  body: z.object({}).strict(),
  response: z.object({ user: userRow, cardText: z.string().nullable() }),
});

export const roleLabels: Record<Role, string> = {
  mitarbeiter: 'Mitarbeiter',
  schichtleitung: 'Schichtleitung',
  admin: 'Admin',
};

export const benutzerTexts = {
  title: 'Benutzer',
  intro:
    'Wer sich an den Scannern und im Leitstand anmelden darf, mit welcher Rolle, per Passwort oder Karte.',
  listTitle: 'Alle Benutzer',
  columns: {
    username: 'Benutzername',
    name: 'Name',
    /** The role, and below it the handheld's language. */
    roleAndLanguage: 'Rolle, Sprache',
    /** Active or not, and how they log in. */
    access: 'Zugang',
    seen: 'Zuletzt',
    actions: 'Aktionen',
  },
  state: (active: boolean) => (active ? 'aktiv' : 'deaktiviert'),
  /** Live logins (used within SESSION_IDLE_MINUTES). */
  liveSessions: (n: number) => (n === 1 ? '1 Anmeldung' : `${n} Anmeldungen`),
  /** How a user logs in: 'Passwort, Karte', 'Karte', … */
  ways: (password: boolean, card: boolean) =>
    [password && 'Passwort', card && 'Karte'].filter(Boolean).join(', ') || '–',
  cancel: 'Abbrechen',
  never: '–',
  noUsername: (id: number) => `#${id} (nur Karte)`,
  create: {
    title: 'Neuer Benutzer',
    username: 'Benutzername',
    name: 'Name',
    role: 'Rolle',
    /** The handheld's language; the Leitstand itself stays German (decision 35). */
    language: 'Sprache',
    password: 'Passwort',
    passwordHint: (min: number) => `Mindestens ${min} Zeichen. Leer lassen für einen Benutzer nur mit Karte.`,
    newCard: 'Neue Karte ausgeben',
    submit: 'Benutzer anlegen',
    created: (name: string) => `Benutzer ${name} angelegt.`,
  },
  role: {
    label: (name: string) => `Rolle von ${name}`,
    changed: (name: string, role: string) => `${name} ist jetzt ${role}.`,
  },
  language: {
    label: (name: string) => `Sprache von ${name}`,
    changed: (name: string, language: string) => `${name} liest den Handscanner jetzt auf ${language}.`,
  },
  password: {
    /** In the row; its accessible name says more (`action`). */
    button: 'Passwort',
    action: (name: string) => `Neues Passwort: ${name}`,
    title: (name: string) => `Neues Passwort für ${name}`,
    label: 'Neues Passwort',
    submit: 'Passwort setzen',
    done: (name: string, ended: number) =>
      `Neues Passwort für ${name} gesetzt; ${ended === 1 ? '1 Anmeldung' : `${ended} Anmeldungen`} beendet.`,
  },
  active: {
    deactivate: 'Deaktivieren',
    activate: 'Aktivieren',
    action: (verb: string, name: string) => `${verb}: ${name}`,
    confirmDeactivate: (name: string) =>
      `${name} deaktivieren? Alle Anmeldungen enden sofort, eine neue ist nicht mehr möglich.`,
    deactivated: (name: string) => `${name} ist deaktiviert.`,
    activated: (name: string) => `${name} kann sich wieder anmelden.`,
  },
  card: {
    button: 'Karte',
    action: (name: string) => `Neue Karte: ${name}`,
    title: 'Neue Karte',
    confirm: (name: string) => `Neue Karte für ${name} ausgeben? Die bisherige Karte gilt dann nicht mehr.`,
    badgeTitle: 'Ausweis drucken',
    badgeHint:
      'Der Kartentext wird nur jetzt angezeigt und nirgends im Klartext gespeichert. Jetzt drucken; danach geht es nur mit einer neuen Karte.',
    badgeLabel: (name: string) => `Ausweis von ${name}`,
    barcodeAlt: (name: string) => `Anmeldecode von ${name}`,
    print: 'Ausweis drucken',
    close: 'Schließen',
    /** A repeat of the call: the card was given, its text was answered to the first copy only. */
    lost: 'Die Karte wurde ausgegeben, aber ihr Text ist nicht mehr abrufbar. Bitte eine neue Karte ausgeben.',
  },
  /** The German texts of src/server/auth/users.ts's refusals (AdminError codes). */
  refusals: {
    usernameInvalid: 'Benutzername: 1 bis 200 Zeichen ohne Leerzeichen, nicht mit # am Anfang.',
    nameInvalid: 'Name: 1 bis 200 Zeichen.',
    passwordTooShort: (min: number) => `Das Passwort braucht mindestens ${min} Zeichen.`,
    passwordTooLong: 'Das Passwort darf höchstens 1000 Zeichen haben.',
    cardTooShort: 'Der Kartentext braucht mindestens 8 Zeichen.',
    cardTooLong: 'Der Kartentext darf höchstens 2000 Zeichen haben.',
    noLoginWay:
      'Ein Benutzer braucht ein Passwort, eine Karte oder beides, sonst kann er sich nicht anmelden.',
    usernameTaken: (username: string) => `Den Benutzernamen „${username}“ gibt es schon.`,
    cardTaken: 'Diese Karte gehört schon einem anderen Benutzer.',
    unknownUser: 'Diesen Benutzer gibt es nicht.',
    lastAdmin:
      'Das ist der letzte aktive Admin: bitte zuerst einen anderen Benutzer zum Admin machen, sonst kann niemand mehr Benutzer verwalten.',
  },
} as const;
