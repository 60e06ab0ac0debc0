import { z } from 'zod';
import { endpoint, text } from '../endpoint.ts';

/**
 * Leitstand › Schnittstellen (issue 20.7, admin): the integration tokens of the export API, as `npm run
 * token` manages them. A new token is answered once (only its SHA-256 is stored; a repeat of the same call
 * answers `token: null`).
 */

const when = z.iso.datetime({ offset: true });

export const tokenRow = z.object({
  name: z.string(),
  createdAt: when,
  /** Noted at most once a minute per token. */
  lastUsedAt: when.nullable(),
  revokedAt: when.nullable(),
});
export type TokenRow = z.infer<typeof tokenRow>;

/** As `npm run token` takes it; the server names a bad one in German (schnittstellenTexts.refusals). */
const tokenName = text(200, { controls: 'typed' });

export const integrationTokens = endpoint({
  name: 'integrationTokens',
  method: 'GET',
  path: '/api/admin/schnittstellen',
  role: 'admin',
  response: z.object({ tokens: z.array(tokenRow) }),
});

export const createIntegrationToken = endpoint({
  name: 'createIntegrationToken',
  method: 'POST',
  path: '/api/admin/schnittstellen',
  role: 'admin',
  body: z.object({ name: tokenName }).strict(),
  response: z.object({
    name: z.string(),
    /** The token, to hand to the other system now; null on a repeat of the call. */
    token: z.string().nullable(),
  }),
});

export const revokeIntegrationToken = endpoint({
  name: 'revokeIntegrationToken',
  method: 'PUT',
  path: '/api/admin/schnittstellen/widerruf',
  role: 'admin',
  body: z.object({ name: tokenName }).strict(),
  response: z.object({ name: z.string() }),
});

export const schnittstellenTexts = {
  title: 'Schnittstellen',
  intro:
    'Zugangsschlüssel (Integration-Tokens) für andere Systeme – ERP, BI – an der Export-API (/api/export/…). Ein Schlüssel wird nur beim Anlegen angezeigt.',
  columns: {
    name: 'Name',
    createdAt: 'Angelegt',
    lastUsedAt: 'Zuletzt benutzt',
    state: 'Status',
    actions: 'Aktionen',
  },
  listTitle: 'Alle Schlüssel',
  none: 'Noch keine Schlüssel.',
  never: '–',
  cancel: 'Abbrechen',
  live: 'gültig',
  revoked: (when: string) => `widerrufen am ${when}`,
  create: {
    title: 'Neuer Schlüssel',
    name: 'Name',
    nameHint: 'z. B. erp-export: Buchstaben, Ziffern, Punkt, Unterstrich, Bindestrich.',
    submit: 'Schlüssel anlegen',
  },
  shown: {
    title: (name: string) => `Schlüssel „${name}“`,
    hint: 'Nur jetzt sichtbar: dem anderen System als „Authorization: Bearer <Schlüssel>“ mitgeben. Gespeichert wird nur ein Prüfwert.',
    copy: 'Kopieren',
    copied: 'Kopiert.',
    close: 'Schließen',
    lost: 'Der Schlüssel wurde angelegt, aber sein Text ist nicht mehr abrufbar. Bitte widerrufen und neu anlegen.',
  },
  revoke: {
    button: 'Widerrufen',
    confirm: (name: string) =>
      `Schlüssel „${name}“ widerrufen? Das andere System kommt damit sofort nicht mehr an die Daten.`,
    done: (name: string) => `Schlüssel „${name}“ widerrufen.`,
  },
  refusals: {
    nameInvalid:
      'Name: 1 bis 100 Zeichen aus Buchstaben, Ziffern, Punkt, Unterstrich und Bindestrich, am Anfang ein Buchstabe oder eine Ziffer.',
    nameTaken: (name: string) =>
      `Einen gültigen Schlüssel „${name}“ gibt es schon: erst widerrufen oder einen anderen Namen wählen.`,
    unknown: (name: string) => `Einen gültigen Schlüssel „${name}“ gibt es nicht.`,
  },
} as const;
