import { z } from 'zod';
import { endpoint, text } from '../endpoint.ts';
import { typedLocationCode } from '../ids.ts';

/**
 * The Leitstand's Bestand (issue 20.3): articles found by any of their codes or by name with the locations
 * holding them, a location's content, and the movement journal — filtered, paged on the server (keyset,
 * newest first) and as a CSV download of every matching row.
 */

/** Every kind of journal row (`movements.kind`; src/server/db/schema.ts MovementKind says the same). */
export const MOVEMENT_KINDS = [
  'umlagerung',
  'umbuchung',
  'inventur',
  'wmsretoure',
  'korrektur',
  'seed',
  'import',
  'wareneingang',
  'kommissionierung',
] as const;
export type MovementKindName = (typeof MOVEMENT_KINDS)[number];

/** Articles a search answers at most (its default page size); `mehr` says there were more. */
export const SEARCH_LIMIT = 50;
/**
 * Stock rows (location, charge, MHD) a search lists per article at most; `bestandWeitere` counts the rest
 * and `gesamt` is the whole stock. An article on thousands of locations made one search answer 9 MB
 * (issue 39): an answer now has at most SEARCH_LIMIT × this many rows.
 */
export const BESTAND_ROWS_PER_ARTICLE = 50;
/** Journal rows per page: the default and the most a page may hold. */
export const JOURNAL_PAGE = 50;
export const JOURNAL_PAGE_MAX = 200;

/** The German texts of the Bestand pages and of their calls' refusals (not in texts.ts: not on the handheld). */
export const bestandTexts = {
  title: 'Bestand',
  journalTitle: 'Bewegungsjournal',
  search: {
    label: 'Artikel suchen',
    hint: 'Artikelnummer, EAN, Herstellernummer oder Teil des Namens',
    submit: 'Suchen',
    results: (n: number, more: boolean) =>
      n === 0 ? 'Kein Artikel gefunden.' : more ? `Die ersten ${n} Treffer.` : `${n} Treffer.`,
    noStock: 'Auf keinem Lagerplatz.',
    /** Below an article's stock table when it lists only the first BESTAND_ROWS_PER_ARTICLE rows. */
    moreStock: (n: number) =>
      `… und ${n.toLocaleString('de-DE')} ${n === 1 ? 'weiterer Bestand' : 'weitere Bestände'} auf anderen Lagerplätzen (Gesamt zählt alle).`,
    total: 'Gesamt',
    journal: 'Journal des Artikels',
  },
  location: {
    label: 'Lagerplatz anzeigen',
    submit: 'Anzeigen',
    heading: (code: string) => `Lagerplatz ${code}`,
    empty: 'Keine Artikel auf diesem Lagerplatz.',
    journal: 'Journal des Lagerplatzes',
    lhm: 'Ladungsträger',
    /** A picker's Fehlmenge found less here than the books say; an Inventur count clears it (issue 36). */
    countMarked: (since: string) => `Zur Zählung markiert seit ${since}: Bestand bitte zählen (Inventur).`,
  },
  columns: {
    nummer: 'Artikelnummer',
    name: 'Bezeichnung',
    ean: 'EAN',
    herstellernummer: 'Herstellernummer',
    treffer: 'Gefunden über',
    lagerplatz: 'Lagerplatz',
    lagertyp: 'Lagertyp',
    menge: 'Menge',
    charge: 'Charge',
    mhd: 'MHD',
    zeit: 'Zeit',
    art: 'Art',
    artikel: 'Artikel',
    von: 'Von',
    nach: 'Nach',
    vonNach: 'Von → Nach',
    chargeMhd: 'Charge / MHD',
    benutzer: 'Benutzer',
    beleg: 'Beleg',
  },
  treffer: {
    nummer: 'Artikelnummer',
    ean: 'EAN',
    herstellernummer: 'Herstellernummer',
    name: 'Name',
  },
  kinds: {
    umlagerung: 'Umlagerung',
    umbuchung: 'Umbuchung',
    inventur: 'Inventur',
    wmsretoure: 'WMS-Retoure',
    korrektur: 'Korrektur',
    seed: 'Anfangsbestand',
    import: 'Import',
    wareneingang: 'Wareneingang',
    kommissionierung: 'Kommissionierung',
  } satisfies Record<MovementKindName, string>,
  filter: {
    heading: 'Filter',
    artikel: 'Artikel',
    lagerplatz: 'Lagerplatz',
    benutzer: 'Benutzer',
    art: 'Art',
    allKinds: 'Alle Arten',
    von: 'Von',
    bis: 'Bis',
    apply: 'Filtern',
    reset: 'Filter zurücksetzen',
  },
  journal: {
    heading: 'Buchungen',
    empty: 'Keine Buchungen für diese Filter.',
    more: 'Weitere laden',
    end: 'Ende des Journals.',
    shown: (n: number) => `${n.toLocaleString('de-DE')} Buchungen angezeigt.`,
    csv: 'Als CSV herunterladen',
    csvFile: 'journal.csv',
  },
  /** Beside texts.lookup's (an article or location not found). */
  errors: {
    articleAmbiguous: (code: string, n: number) =>
      `${n} Artikel passen zu "${code}" – bitte die Artikelnummer angeben.`,
    userNotFound: (name: string) => `Benutzer "${name}" nicht gefunden!`,
    userAmbiguous: (name: string) => `Mehrere Benutzer heißen "${name}" – bitte den Benutzernamen angeben.`,
    range: 'Von muss vor Bis liegen.',
    cursor: 'Die Seite ist nicht mehr gültig. Bitte das Journal neu laden.',
  },
} as const;

/** The CSV's columns, in order (German Excel: `;`, UTF-8 with a byte order mark). */
export const JOURNAL_CSV_COLUMNS = [
  'Zeit',
  'Art',
  'Artikelnummer',
  'Bezeichnung',
  'Von',
  'Nach',
  'Menge',
  'Charge',
  'MHD',
  'Benutzer',
  'Buchungsnummer',
  'Beleg',
] as const;

/** A date (the whole day, in the site's time zone) or a time: with a zone, or the site's local time. */
const zeitpunkt = z
  .union([z.iso.date(), z.iso.datetime({ offset: true, local: true })])
  .refine((value) => !value.startsWith('0000'))
  .describe(
    "A date (2026-11-24: that whole day in the site's time zone), a local time (2026-11-24T06:00) or a time with zone (2026-11-24T05:00:00Z).",
  );

/** A code or name typed into a filter; empty means no filter. */
const filterText = text(200, { controls: 'typed' })
  .optional()
  .transform((value) => (value === '' ? undefined : value));

const journalFilters = {
  artikel: filterText.describe('Article: nummer, EAN (with or without one leading 0) or herstellernummer'),
  lagerplatz: filterText.describe('Location code: rows that left or reached it'),
  benutzer: filterText.describe('Who booked: username, or the name if only one user has it'),
  art: z.enum(MOVEMENT_KINDS).optional().describe('Kind of movement'),
  von: zeitpunkt.optional().describe('Booked at or after (a date: from its start)'),
  bis: zeitpunkt.optional().describe('Booked before (a date: up to its end)'),
};

export const journalQuery = z.strictObject({
  ...journalFilters,
  cursor: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,200}$/)
    .optional()
    .describe('`weiter` of the page before: continues right after its last row'),
  limit: z
    .string()
    .regex(/^[0-9]{1,4}$/)
    .transform(Number)
    .pipe(z.number().int().min(1).max(JOURNAL_PAGE_MAX))
    .optional()
    .describe(`Rows per page, 1 to ${JOURNAL_PAGE_MAX} (default ${JOURNAL_PAGE})`),
});
export type JournalQuery = z.output<typeof journalQuery>;

export const journalCsvQuery = z.strictObject(journalFilters);
export type JournalFilterQuery = z.output<typeof journalCsvQuery>;

const day = z.string().nullable().describe('YYYY-MM-DD');

export const bestandZeile = z.object({
  lagerplatz: z.string(),
  lagerplatzName: z.string(),
  lagertyp: z.string(),
  menge: z.number().int(),
  charge: z.string().nullable(),
  mhd: day,
});

export const artikelTreffer = z.object({
  id: z.number().int(),
  nummer: z.string(),
  name: z.string(),
  ean: z.string().nullable(),
  herstellernummer: z.string().nullable(),
  /** How the search found it. */
  treffer: z.enum(['nummer', 'ean', 'herstellernummer', 'name']),
  /** The article's whole stock, all locations. */
  gesamt: z.number().int(),
  /** Its stock rows in location order, at most BESTAND_ROWS_PER_ARTICLE. */
  bestand: z.array(bestandZeile),
  /** Stock rows beyond those `bestand` lists. */
  bestandWeitere: z.number().int().optional(),
});
export type ArtikelTreffer = z.infer<typeof artikelTreffer>;

/** Articles by nummer, EAN (± one leading 0) or herstellernummer, or a part of the name; with their stock. */
export const bestandArtikel = endpoint({
  name: 'bestandArtikel',
  method: 'GET',
  path: '/api/leitstand/bestand/artikel',
  role: 'schichtleitung',
  query: z.strictObject({
    q: text(200, { min: 1, controls: 'typed' }),
    limit: z
      .string()
      .regex(/^[0-9]{1,3}$/)
      .transform(Number)
      .pipe(z.number().int().min(1).max(SEARCH_LIMIT))
      .optional()
      .describe(`Articles per answer, 1 to ${SEARCH_LIMIT} (default ${SEARCH_LIMIT})`),
  }),
  response: z.object({
    success: z.literal(true),
    artikel: z.array(artikelTreffer),
    /** More articles matched than the answer holds (`limit`). */
    mehr: z.boolean(),
  }),
});

export const lagerplatzInhalt = z.object({
  artikelId: z.number().int(),
  nummer: z.string(),
  name: z.string(),
  menge: z.number().int(),
  charge: z.string().nullable(),
  mhd: day,
});

/** What lies on a location, per article, charge and MHD. */
export const bestandLagerplatz = endpoint({
  name: 'bestandLagerplatz',
  method: 'GET',
  path: '/api/leitstand/bestand/lagerplatz/:code',
  role: 'schichtleitung',
  params: z.object({ code: typedLocationCode() }),
  response: z.object({
    success: z.literal(true),
    lagerplatz: z.object({
      code: z.string(),
      name: z.string(),
      lagertyp: z.string(),
      lhm: z.boolean(),
      /** Marked for a count since (ISO 8601): a picker found less than its book stock (issue 36). */
      zaehlenSeit: z.string().nullable().optional(),
    }),
    inhalt: z.array(lagerplatzInhalt),
  }),
});

export const journalZeile = z.object({
  id: z.number().int(),
  /** UTC with the database's microseconds: 2026-11-24T09:15:02.123456Z. */
  at: z.string(),
  art: z.enum(MOVEMENT_KINDS),
  artikel: z.object({ id: z.number().int(), nummer: z.string(), name: z.string() }),
  von: z.string().nullable(),
  nach: z.string().nullable(),
  menge: z.number().int(),
  charge: z.string().nullable(),
  mhd: day,
  benutzer: z.string().nullable(),
  /** The document it was booked for: a receipt's number (Wareneingang), a delivery note's (Kommissionierung). */
  beleg: z.string().nullable(),
});
export type JournalZeile = z.infer<typeof journalZeile>;

/** One page of the movement journal, newest first; `weiter` continues after its last row (null: the end). */
export const journal = endpoint({
  name: 'journal',
  method: 'GET',
  path: '/api/leitstand/journal',
  role: 'schichtleitung',
  query: journalQuery,
  response: z.object({
    success: z.literal(true),
    zeilen: z.array(journalZeile),
    weiter: z.string().nullable(),
  }),
});

/** Every row of the filtered journal as CSV (newest first), streamed: `;`, UTF-8 with a byte order mark. */
export const journalCsv = endpoint({
  name: 'journalCsv',
  method: 'GET',
  path: '/api/leitstand/journal.csv',
  role: 'schichtleitung',
  query: journalCsvQuery,
  response: z
    .string()
    .describe(`text/csv: a header row (${JOURNAL_CSV_COLUMNS.join(';')}), then one row per booking`),
});
