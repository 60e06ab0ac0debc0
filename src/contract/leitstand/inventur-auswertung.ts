import { z } from 'zod';
import { endpoint, successOnly } from '../endpoint.ts';
import { AMOUNT_MAX } from '../limits.ts';

/**
 * Permanente Inventur in the Leitstand, the numbers (issue 42): the ABC classes ('ABC-Klassen berechnen' from
 * the journal's last ABC_DAYS days) with each class's count frequency and tolerance, edited in place; the
 * coverage of a year (Abdeckung: which share of the locations and articles was counted, and without a
 * difference — the HGB's question), overall and per aisle; and the auditor's Inventurliste of the posted
 * counts as CSV and PDF. The plans, tasks and Differenzen are `inventur.ts` beside this file.
 */

/** A location's class: A, B or C from the articles it holds, '-' for a location without one. */
export const ABC_CLASSES = ['A', 'B', 'C', '-'] as const;
export const abcClass = z.enum(ABC_CLASSES);
export type AbcClass = z.infer<typeof abcClass>;

/** The journal's window the classes are computed from (days back from now). */
export const ABC_DAYS = 90;
/**
 * The split by movements: the articles of the top 80 % of the window's movements are A, of the next 15 % B,
 * the rest (and every article without a movement) C.
 */
export const ABC_SHARES = { A: 80, B: 15 } as const;
/** A class's count frequency in days: at most ten years. */
export const FREQUENCY_DAYS_MAX = 3660;

/** The pages' and calls' German texts (not in texts.ts: the handheld's first download does not need them). */
export const inventurAuswertungTexts = {
  classesTitle: 'ABC-Klassen',
  classesIntro:
    `Jeder Lagerplatz bekommt die beste Klasse der Artikel, die er hat. Die Klassen kommen aus den Bewegungen ` +
    `der letzten ${ABC_DAYS} Tage im Journal (Anzahl der Buchungen je Artikel, ohne Inventur, Korrektur, ` +
    `Import und Erstbestand): die Artikel der obersten ${ABC_SHARES.A} % der Bewegungen sind A, der nächsten ` +
    `${ABC_SHARES.B} % B, alle anderen C.`,
  toleranceRule:
    'Eine Differenz liegt in der Toleranz, wenn sie höchstens so viele Stück ODER höchstens so viel Prozent ' +
    'des Buchbestands beträgt. Darüber: Nachzählung durch eine andere Person, danach Freigabe unter Differenzen.',
  compute: 'ABC-Klassen berechnen',
  computing: 'Wird berechnet …',
  computedAt: (at: string, by: string) => `Zuletzt berechnet: ${at} von ${by}.`,
  neverComputed: 'Noch nie berechnet: alle Lagerplätze sind ohne Klasse.',
  klasse: 'Klasse',
  klassen: { A: 'A', B: 'B', C: 'C', '-': 'ohne Klasse' } as Record<AbcClass, string>,
  lagerplaetze: 'Lagerplätze',
  artikel: 'Artikel',
  frequenz: 'Zählen alle … Tage',
  toleranzStueck: 'Toleranz Stück',
  toleranzProzent: 'Toleranz %',
  actions: 'Aktionen',
  save: 'Speichern',
  saveLabel: (klasse: string) => `Klasse ${klasse} speichern`,
  fieldOf: (field: string, klasse: string) => `${field} der Klasse ${klasse}`,
  // Answers, in the page's status line
  computed: (a: number, b: number, c: number) => `ABC-Klassen berechnet: ${a} Lagerplätze A, ${b} B, ${c} C.`,
  saved: (klasse: string) => `Klasse ${klasse} gespeichert.`,
  // Refusals
  running: 'Die ABC-Klassen werden gerade berechnet. Bitte die Seite gleich neu laden.',
  unknownClass: 'Diese Klasse gibt es nicht.',

  coverageTitle: 'Abdeckung',
  coverageIntro:
    'Gezählt ist, was in diesem Jahr über einen gebuchten Zählauftrag oder eine freie Inventur gezählt wurde: ' +
    'für die permanente Inventur (§ 241 Abs. 2 HGB) muss jeder Lagerplatz mit Bestand einmal im Jahr gezählt sein.',
  jahr: 'Jahr',
  gesamt: 'Gesamt',
  gang: 'Gang',
  gaenge: 'Je Gang',
  lhmGang: 'Ladungsträger',
  alle: 'alle',
  gezaehlt: 'gezählt',
  anteil: 'Anteil',
  bestandspositionen: 'Bestandspositionen',
  bestandspositionenHint: 'Artikel mit Bestand auf einem Lagerplatz, dort in diesem Jahr gezählt',
  zaehlpositionen: 'Zählpositionen',
  ohneDifferenz: 'ohne Differenz',
  zaehlpositionenHint: 'Gezählte Artikel je Lagerplatz und Zählung, davon ohne Differenz zum Buchbestand',
  artikelMitBestand: 'Artikel mit Bestand',
  noAisles: 'Keine Lagerplätze.',
  percent: (part: number, whole: number) =>
    whole === 0 ? '–' : `${((100 * part) / whole).toLocaleString('de-DE', { maximumFractionDigits: 1 })} %`,

  listTitle: 'Inventurliste',
  listIntro:
    'Die gebuchten Zählungen eines Zeitraums für den Prüfer: Zählaufträge (mit Freigabe) und freie ' +
    'Inventur-Zählungen, je Lagerplatz und Artikel.',
  von: 'Von',
  bis: 'Bis',
  csv: 'Als CSV',
  pdf: 'Als PDF',
  csvFile: 'inventurliste.csv',
  pdfFile: 'inventurliste.pdf',
  downloaded: (name: string) => `${name} heruntergeladen.`,
  pdfTitle: (von: string, bis: string) => `Inventurliste ${von} bis ${bis}`,
  pdfPage: (page: number) => `Seite ${page}`,
  pdfEmpty: 'Keine gebuchten Zählungen in diesem Zeitraum.',
  /** The Art column: where the count came from. */
  arten: {
    plan: 'Zählauftrag',
    fehlmenge: 'Zählauftrag (Fehlmenge)',
    nachzaehlung: 'Nachzählung',
    frei: 'freie Inventur',
  },
  /** 'Freigegeben von' of a count posted at once: it was within the tolerance. */
  withinTolerance: 'automatisch (in Toleranz)',
  /** 'Freigegeben von' of a free Inventur count: it books at once. */
  freeCount: '–',
  badRange: '„Von“ muss vor oder gleich „Bis“ sein.',
  rangeTooLong: 'Höchstens ein Jahr auf einmal.',
} as const;

const T = inventurAuswertungTexts;

/** The Inventurliste's columns, in order (the CSV's header row and the PDF's table). */
export const AUDIT_LIST_COLUMNS = [
  'Lagerplatz',
  'Artikelnummer',
  'Bezeichnung',
  'Gezählt',
  'Buchbestand vorher',
  'Differenz',
  'Gezählt von',
  'Gezählt am',
  'Freigegeben von',
  'Art',
] as const;

export const klasseRow = z.object({
  klasse: abcClass,
  /** Locations of the class now (from the last computation; '-': every other location). */
  lagerplaetze: z.number().int(),
  /** Articles of the class at the last computation (null for '-' and before the first computation). */
  artikel: z.number().int().nullable(),
  frequenzTage: z.number().int(),
  toleranzStueck: z.number().int(),
  toleranzProzent: z.number(),
});
export type KlasseRow = z.infer<typeof klasseRow>;

/** The last computation: when, by whom; null before the first. */
export const abcRun = z
  .object({ am: z.iso.datetime({ offset: true }), von: z.string(), bewegungen: z.number().int() })
  .nullable();

export const abcKlassen = endpoint({
  name: 'abcKlassen',
  method: 'GET',
  path: '/api/leitstand/inventur/abc',
  role: 'schichtleitung',
  response: z.object({ data: z.object({ klassen: z.array(klasseRow), berechnet: abcRun }) }),
});

/**
 * 'ABC-Klassen berechnen': counts each article's movements in the journal's last ABC_DAYS days, splits them
 * by ABC_SHARES and gives every location the best class of the articles it holds (stock above 0). In steps
 * behind the floor; exactly once per key. 409 while another computation runs.
 */
export const abcBerechnen = endpoint({
  name: 'abcBerechnen',
  method: 'POST',
  path: '/api/leitstand/inventur/abc/berechnen',
  role: 'schichtleitung',
  body: z.strictObject({}),
  response: successOnly.extend({
    message: z.string(),
    lagerplaetze: z.object({ A: z.number().int(), B: z.number().int(), C: z.number().int() }),
    artikel: z.object({ A: z.number().int(), B: z.number().int(), C: z.number().int() }),
  }),
});

/** A tolerance in percent of the book stock: 0 to 100, at most two decimals. */
const percent = z
  .number()
  .min(0)
  .max(100)
  .refine((p) => Math.abs(p * 100 - Math.round(p * 100)) < 1e-9);

/** A class's count frequency and tolerance, edited in place. */
export const klasseForm = z.object({
  klasse: abcClass,
  frequenzTage: z.number().int().min(1).max(FREQUENCY_DAYS_MAX),
  toleranzStueck: z.number().int().min(0).max(AMOUNT_MAX),
  toleranzProzent: percent,
});
export type KlasseForm = z.infer<typeof klasseForm>;

export const klasseAendern = endpoint({
  name: 'klasseAendern',
  method: 'PUT',
  path: '/api/leitstand/inventur/klassen',
  role: 'schichtleitung',
  body: klasseForm,
  response: successOnly.extend({ message: z.string() }),
});

/** A year's coverage of one group of locations (an aisle, or all). */
export const abdeckungZahlen = z.object({
  /** Locations, and those counted this year. */
  lagerplaetze: z.number().int(),
  lagerplaetzeGezaehlt: z.number().int(),
  /** Stock positions now (an article with stock on a location), and those counted there this year. */
  bestandspositionen: z.number().int(),
  bestandspositionenGezaehlt: z.number().int(),
  /**
   * Counted positions this year (an article of a posted count task, or a free Inventur count) and those whose
   * count matched the book stock.
   */
  zaehlpositionen: z.number().int(),
  zaehlpositionenOhneDifferenz: z.number().int(),
});
export type AbdeckungZahlen = z.infer<typeof abdeckungZahlen>;

/** The first year the coverage can be asked for. */
export const COVERAGE_FIRST_YEAR = 2000;

export const abdeckung = endpoint({
  name: 'abdeckung',
  method: 'GET',
  path: '/api/leitstand/inventur/abdeckung',
  role: 'schichtleitung',
  query: z.strictObject({
    jahr: z
      .string()
      .regex(/^[0-9]{4}$/)
      .transform(Number)
      .pipe(z.number().int().min(COVERAGE_FIRST_YEAR).max(2999))
      .optional()
      .describe("The year (in the site's time zone); this year if not given"),
  }),
  response: z.object({
    data: z.object({
      jahr: z.number().int(),
      /** Every location; and the articles with stock now, and those of them counted this year (anywhere). */
      gesamt: abdeckungZahlen.extend({ artikel: z.number().int(), artikelGezaehlt: z.number().int() }),
      /** By aisle (the location code's first segment; load carriers together), in code order. */
      gaenge: z.array(abdeckungZahlen.extend({ gang: z.string() })),
    }),
  }),
});

/** At most this many days in one Inventurliste. */
export const AUDIT_LIST_DAYS_MAX = 366;

export const inventurlisteQuery = z.strictObject({
  von: z.iso.date().describe("First day (in the site's time zone)"),
  bis: z.iso.date().describe('Last day, included'),
});

export const inventurlisteCsv = endpoint({
  name: 'inventurlisteCsv',
  method: 'GET',
  path: '/api/leitstand/inventur/inventurliste.csv',
  role: 'schichtleitung',
  query: inventurlisteQuery,
  response: z
    .string()
    .describe(
      `text/csv: a header row (${AUDIT_LIST_COLUMNS.join(';')}), then one row per counted article, oldest first`,
    ),
});

export const inventurlistePdf = endpoint({
  name: 'inventurlistePdf',
  method: 'GET',
  path: '/api/leitstand/inventur/inventurliste.pdf',
  role: 'schichtleitung',
  query: inventurlisteQuery,
  response: z.string().describe('application/pdf: the same rows as the CSV, A4 landscape'),
});

/** The German refusal of a range the list does not take (null: fine). */
export function rangeRefusal(von: string, bis: string): string | null {
  if (von > bis) return T.badRange;
  const days = (Date.parse(`${bis}T00:00:00Z`) - Date.parse(`${von}T00:00:00Z`)) / 86_400_000 + 1;
  return days > AUDIT_LIST_DAYS_MAX ? T.rangeTooLong : null;
}
