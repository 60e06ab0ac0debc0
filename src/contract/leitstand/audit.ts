import { z } from 'zod';
import { endpoint } from '../endpoint.ts';

/**
 * Leitstand › Protokoll (issue 20): every write made in the Leitstand, with who, what and when — newest
 * first, paged by a cursor (keyset on the audit_log's (at, id) index, so the list stays fast however long).
 */

export const auditEntry = z.object({
  id: z.number().int(),
  at: z.iso.datetime({ offset: true }),
  user: z.object({ id: z.number().int(), name: z.string(), username: z.string().nullable() }),
  /** A stable English key: 'user.create', 'token.revoke', 'import.articles', … */
  action: z.string(),
  /** What it was done to: a username, a token's name, a file name. */
  subject: z.string(),
  /** What changed (never a secret). */
  detail: z.record(z.string(), z.unknown()),
});
export type AuditEntry = z.infer<typeof auditEntry>;

/** An opaque position in the list, as `next` answered it. */
const cursor = z.string().regex(/^[A-Za-z0-9_-]{1,200}$/);

export const auditList = endpoint({
  name: 'auditList',
  method: 'GET',
  path: '/api/leitstand/audit',
  role: 'schichtleitung',
  query: z
    .object({
      /** Continue after this entry (the `next` of the page before). */
      before: cursor.optional(),
      limit: z
        .string()
        .regex(/^[0-9]{1,3}$/)
        .transform(Number)
        .pipe(z.number().int().min(1).max(200))
        .optional(),
    })
    .strict(),
  response: z.object({
    entries: z.array(auditEntry),
    /** The cursor of the next (older) page; null on the last one. */
    next: cursor.nullable(),
  }),
});

/** Entries on a page unless the call asks for another number. */
export const AUDIT_PAGE = 50;

export const auditTexts = {
  title: 'Protokoll',
  intro: 'Jede Änderung im Leitstand: wer, was, wann – die neuesten zuerst.',
  columns: { at: 'Zeitpunkt', user: 'Wer', action: 'Was', subject: 'Betreff', detail: 'Einzelheiten' },
  more: 'Ältere laden',
  listTitle: 'Einträge',
  empty: 'Noch keine Einträge.',
  badCursor: 'Diese Seite des Protokolls gibt es nicht. Bitte die Liste neu laden.',
  /** The actions by key; an action without a label here is shown by its key. */
  actions: {
    'user.create': 'Benutzer angelegt',
    'user.role': 'Rolle geändert',
    'user.password': 'Passwort neu gesetzt',
    'user.deactivate': 'Benutzer deaktiviert',
    'user.activate': 'Benutzer aktiviert',
    'user.card': 'Neue Karte ausgegeben',
    'token.create': 'Schlüssel angelegt',
    'token.revoke': 'Schlüssel widerrufen',
    import: 'CSV importiert',
  } as Record<string, string>,
} as const;
