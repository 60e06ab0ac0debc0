import { z } from 'zod';
import { endpoint, successOnly, text } from '../endpoint.ts';
import { klaerfallIdParam } from '../ids.ts';

/**
 * Klärfälle in the Leitstand (issue 20.2, decision 20): the notes packers reported at the packing station,
 * and the shift lead's two ways to close one — 'Erledigt' (with a comment; the note is not packed) and
 * 'Zurück ins Packen' (counters reset, the note can be packed again from scratch).
 */

/** The Klärfälle page's and calls' texts (not in texts.ts: the handheld's first download does not need them). */
export const klaerfaelleTexts = {
  heading: 'Klärfälle',
  open: 'Offene Klärfälle',
  noneOpen: 'Keine offenen Klärfälle.',
  closed: (days: number) => `Abgeschlossen in den letzten ${days} Tagen`,
  noneClosed: 'Keine abgeschlossenen Klärfälle.',
  belegnr: 'Lieferschein',
  reported: 'Gemeldet',
  reportedBy: (name: string | null, when: string) => `${when} von ${name ?? 'unbekannt'}`,
  /** After 'Gemeldet …' when a picker's Fehlmenge raised it (Kommissionierung, decision 25). */
  fromPicking: 'Fehlmenge beim Kommissionieren',
  lines: 'Positionen',
  nummer: 'Nummer',
  name: 'Artikel',
  lsmenge: 'Soll',
  pemenge: 'Ist',
  missing: 'Fehlt',
  /** A picker's Fehlmenge: where it was missing and what the books said lay there (issue 36). */
  location: 'Lagerplatz',
  locationStock: (code: string, bestand: number | null) =>
    bestand === null ? code : `${code} (Bestand ${bestand})`,
  /** The location still waits for a count (an Inventur count there clears the mark). */
  countMarked: 'zur Zählung markiert',
  outcome: 'Abschluss',
  outcomes: { erledigt: 'Erledigt', zurueck: 'Zurück ins Packen' },
  closedAt: 'Abgeschlossen',
  closedBy: (name: string, when: string) => `${when} von ${name}`,
  comment: 'Kommentar',
  actions: 'Aktionen',
  erledigt: 'Erledigt',
  erledigtBody:
    'Der Lieferschein wird danach nicht gepackt. Liegt er in einem Fach eines Kommissionierwagens, wird das ' +
    'Fach frei – die Ware bitte herausnehmen. Bitte kurz festhalten, was mit ihm geschehen ist.',
  erledigtConfirm: 'Als erledigt abschließen',
  zurueck: 'Zurück ins Packen',
  zurueckTitle: (belegnr: string) => `${belegnr} zurück ins Packen?`,
  zurueckBody:
    'Alle gescannten Mengen werden auf 0 gesetzt; der Lieferschein kann danach neu gepackt werden.',
  zurueckConfirm: 'Zurück ins Packen',
  cancel: 'Abbrechen',
  /** After a successful action, in the page's status line. */
  doneErledigt: (belegnr: string) => `Klärfall ${belegnr} ist erledigt.`,
  doneZurueck: (belegnr: string) => `${belegnr} kann wieder gepackt werden.`,
  /** 400: 'Erledigt' needs a comment. */
  commentMissing: 'Bitte einen Kommentar eingeben: was ist mit dem Lieferschein geschehen?',
  /** 404: no Klärfall with this number. */
  notFound: (id: number) => `Klärfall ${id} gibt es nicht.`,
  /** 409: the Klärfall was closed already (by someone else, or a second click). */
  notOpen: (belegnr: string) => `Lieferschein ${belegnr} hat keinen offenen Klärfall.`,
} as const;

/** How long closed Klärfälle stay in the list by default, and at most. */
export const KLAERFAELLE_DAYS = { standard: 7, max: 90 } as const;

/** At most this many closed Klärfälle are listed (the newest). */
export const KLAERFAELLE_CLOSED_MAX = 200;

export const klaerfallLine = z.object({
  nummer: z.string(),
  name: z.string(),
  lsmenge: z.number().int(),
  /** Scanned when it was reported. */
  pemenge: z.number().int(),
  /** lsmenge − pemenge. */
  fehlt: z.number().int(),
  /**
   * A picker's Fehlmenge (issue 36): the location where it was missing, its book stock of the article then,
   * and whether the location is still marked for a count (an Inventur count there clears it). Absent from the
   * packing station, and when no location held the article.
   */
  lagerplatz: z
    .object({ code: z.string(), bestand: z.number().int().nullable(), zaehlen: z.boolean() })
    .optional(),
});

export const klaerfallRow = z.object({
  id: z.number().int(),
  lieferscheinId: z.number().int(),
  belegnr: z.string(),
  /** The packer's name; null for a note reported before Klärfälle were recorded, without a journal row. */
  gemeldetVon: z.string().nullable(),
  /** ISO 8601. */
  gemeldetAm: z.string(),
  /** Where it was raised: the packing station, or a Fehlmenge while picking (decision 25). */
  quelle: z.enum(['packen', 'kommissionierung']),
  /** The note's lines as they were when it was reported. */
  positionen: z.array(klaerfallLine),
  /** How the shift lead closed it; null while open. */
  abschluss: z
    .object({
      art: z.enum(['erledigt', 'zurueck']),
      von: z.string(),
      /** ISO 8601. */
      am: z.string(),
      kommentar: z.string().nullable(),
    })
    .nullable(),
});
export type KlaerfallRow = z.infer<typeof klaerfallRow>;

/** Every open Klärfall (oldest first), then those closed in the last `tage` days (newest first). */
export const klaerfaelleList = endpoint({
  name: 'klaerfaelleList',
  method: 'GET',
  path: '/api/leitstand/klaerfaelle',
  role: 'schichtleitung',
  query: z.object({
    tage: z
      .string()
      .regex(/^[1-9][0-9]{0,1}$/)
      .transform(Number)
      .pipe(z.number().int().max(KLAERFAELLE_DAYS.max))
      .optional()
      .describe(`Closed Klärfälle of this many days (1–${KLAERFAELLE_DAYS.max}, default 7)`),
  }),
  response: z.object({
    data: z.object({
      offen: z.array(klaerfallRow),
      abgeschlossen: z.array(klaerfallRow),
      tage: z.number().int(),
    }),
  }),
});

/** Closes an open Klärfall without packing: the note stays unpackable. The comment says what happened. */
export const klaerfallErledigt = endpoint({
  name: 'klaerfallErledigt',
  method: 'PUT',
  path: '/api/leitstand/klaerfaelle/:klaerfallId/erledigt',
  role: 'schichtleitung',
  params: z.object({ klaerfallId: klaerfallIdParam }),
  body: z.object({ kommentar: text(1000, { controls: 'typed' }) }),
  response: successOnly,
});

/** Closes an open Klärfall by sending the note back into packing: every scanned amount to 0, status 'offen'. */
export const klaerfallZurueck = endpoint({
  name: 'klaerfallZurueck',
  method: 'PUT',
  path: '/api/leitstand/klaerfaelle/:klaerfallId/zurueck',
  role: 'schichtleitung',
  params: z.object({ klaerfallId: klaerfallIdParam }),
  body: z.object({}),
  response: successOnly,
});
