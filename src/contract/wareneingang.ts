import { z } from 'zod';
import { endpoint, scanText, scanTextOrEmpty, text } from './endpoint.ts';
import { localized } from './i18n/localized.ts';
import { locationCode, receiptLineId, receiptLineIdParam } from './ids.ts';
import { AMOUNT_MAX, scanLimits } from './limits.ts';

/**
 * Wareneingang (issue 22): receipts the ERP announces (`npm run import -- receipts`, the Leitstand's upload,
 * or `PUT /api/integration/receipts/{number}`), received on the handheld line by line onto a location the
 * app suggests, and closed with 'Abschließen', which records short and over deliveries. Texts here, not in
 * texts.ts: they load with the screen, the server and the Leitstand page.
 */

const de = (n: number) => n.toLocaleString('de-DE');

export const wareneingangTexts = localized('wareneingang', {
  title: 'Wareneingang',
  receipt: 'Wareneingang',
  receiptHint: 'Belegnummer des Wareneingangs scannen, z. B. WE100001',
  supplier: 'Lieferant',
  article: 'Artikel',
  position: 'Position',
  charge: 'Charge',
  mhd: 'MHD',
  mhdHint: 'TT.MM.JJJJ, TTMMJJ oder JJJJ-MM-TT',
  amount: 'Menge',
  location: 'Lagerplatz',
  expected: 'Erwartet',
  received: 'Erhalten',
  /** The handheld table's short headers for Erwartet and Erhalten, as at the packing station: 360 px wide. */
  soll: 'Soll',
  ist: 'Ist',
  open: 'Offen',
  lines: 'Positionen',
  short: 'Fehlmenge',
  over: 'Mehrmenge',
  suggestion: (code: string) => `Vorschlag: ${code}`,
  suggestionWhy: {
    holds: 'liegt dort schon',
    fixed: 'Stammplatz (Nachschub)',
    empty: 'leerer Platz',
  },
  noSuggestion: 'Kein Platzvorschlag – bitte einen Lagerplatz scannen.',
  scanLocation: 'Vorschlag oder anderen Platz',
  close: 'Abschließen',
  closeTitle: 'Wareneingang abschließen?',
  closeBody: (nummer: string) =>
    `${nummer} wird abgeschlossen: Fehl- und Mehrmengen werden festgehalten, danach ist keine Buchung mehr möglich.`,
  closeShort: (nummer: string, amount: number) => `${nummer}: ${de(amount)} fehlen`,
  closeNoDifference: 'Alle Positionen wie erwartet.',
  cancel: 'Abbrechen',
  confirm: 'Bestätigen',
  overTitle: 'Mehr als erwartet – trotzdem buchen?',
  overBody: (amount: number, open: number, nummer: string) =>
    `${de(amount)} × ${nummer} gescannt, offen sind nur ${de(open)}.`,
  overConfirm: 'Trotzdem buchen',
  booked: (amount: number, nummer: string, location: string) =>
    `${de(amount)} × ${nummer} auf ${location} eingelagert.`,
  success: 'Eingelagert!',
  closedSuccess: 'Abgeschlossen!',
  statusOpen: 'offen',
  statusClosed: 'abgeschlossen',
  closedAt: (when: string) => `abgeschlossen am ${when}`,
  difference: 'Differenz',
  // Refusals (the server's and the screen's)
  notFound: (nummer: string) => `Wareneingang "${nummer}" nicht gefunden!`,
  closed: (nummer: string) => `Wareneingang ${nummer} ist abgeschlossen – keine Buchung mehr möglich.`,
  notOnReceipt: (code: string, nummer: string) => `Artikel "${code}" ist nicht in Wareneingang ${nummer}.`,
  unknownPosition: 'Diese Position gehört nicht zu diesem Wareneingang.',
  chargeMismatch: (scanned: string, expected: string) =>
    `Charge "${scanned}" ist nicht angekündigt (erwartet: ${expected}).`,
  chargeMissing: 'Charge fehlt!',
  mhdMissing: 'MHD fehlt!',
  mhdInvalid: 'MHD ungültig. Bitte als TT.MM.JJJJ eingeben.',
  amountInvalid: 'Menge korrigieren!',
  overNotConfirmed: (amount: number, open: number) =>
    `Mehr als erwartet – trotzdem buchen? (${de(amount)} statt offen ${de(open)})`,
  closedMessage: (nummer: string) => `Wareneingang ${nummer} abgeschlossen.`,
  scanArticle: 'Artikel scannen',
  expects: {
    receipt: 'einen Wareneingang',
  },
} as const);

/** A receipt's number as scanned or imported (WE100001). */
export const receiptNumber = () => scanText(scanLimits.code);

export const receiptLine = z.object({
  position: z.number().int(),
  artikelId: z.number().int(),
  nummer: z.string(),
  name: z.string(),
  ean: z.string().nullable(),
  herstellernummer: z.string().nullable(),
  chargePflicht: z.boolean(),
  mhdPflicht: z.boolean(),
  /** As announced; null: none announced. */
  charge: z.string().nullable(),
  mhd: z.string().nullable().describe('YYYY-MM-DD'),
  erwartet: z.number().int(),
  erhalten: z.number().int(),
  /** Recorded at 'Abschließen' (null while open). */
  fehlmenge: z.number().int().nullable(),
  mehrmenge: z.number().int().nullable(),
});
export type ReceiptLine = z.infer<typeof receiptLine>;

export const receipt = z.object({
  nummer: z.string(),
  lieferant: z.string(),
  status: z.enum(['offen', 'abgeschlossen']),
  abgeschlossenAm: z.string().nullable(),
  positionen: z.array(receiptLine),
});
export type Receipt = z.infer<typeof receipt>;

/** A receipt with its lines (any status: a closed one is shown read-only). 404 for an unknown number. */
export const receiptByNumber = endpoint({
  name: 'receiptByNumber',
  method: 'GET',
  path: '/api/wareneingang/beleg/:wareneingang',
  params: z.object({ wareneingang: receiptNumber() }),
  response: receipt,
});

export const locationSuggestion = z.object({
  /** null: no location to suggest; the worker scans one. */
  code: z.string().nullable(),
  grund: z.enum(['holds', 'fixed', 'empty']).nullable(),
});

/**
 * Where to put a line's goods: a location that holds this article with this Charge already, else its fixed
 * location (the pick place with a replenishment minimum), else an empty location of the article's Lagertyp.
 */
export const suggestLocation = endpoint({
  name: 'suggestLocation',
  method: 'GET',
  path: '/api/wareneingang/vorschlag/:position',
  params: z.object({ position: receiptLineIdParam }),
  query: z.object({ charge: scanTextOrEmpty(scanLimits.batch).optional() }).strict(),
  response: locationSuggestion,
});

/**
 * Books received goods of one line onto a location: stock, journal (kind `wareneingang`) and the line's
 * received amount in one transaction. More than is open needs `mehrmenge: true` (the screen's question).
 */
export const bookReceipt = endpoint({
  name: 'bookReceipt',
  method: 'POST',
  path: '/api/wareneingang/buchen',
  body: z.object({
    wareneingang: receiptNumber(),
    position: receiptLineId,
    /** The location's code as scanned (decision 32: on the wire `lagerplatz`, behind the route a LocationCode). */
    lagerplatz: locationCode(scanLimits.code),
    /** Below 1 the service answers 'Menge korrigieren!'. */
    amount: z.number().int().max(AMOUNT_MAX),
    charge: scanTextOrEmpty(scanLimits.batch).nullable(),
    mhd: z.iso.date().nullable(),
    mehrmenge: z.boolean().default(false),
  }),
  response: z.object({ success: z.literal(true), message: z.string(), beleg: receipt }),
});

/** 'Abschließen': records each line's short and over delivery; the receipt is read-only afterwards. */
export const closeReceipt = endpoint({
  name: 'closeReceipt',
  method: 'POST',
  path: '/api/wareneingang/abschliessen',
  body: z.object({ wareneingang: receiptNumber() }),
  response: z.object({ success: z.literal(true), message: z.string(), beleg: receipt }),
});

// ── The integration call (English messages: read by whoever builds the ERP side) ──────────────────────────

export const receiptPushMessages = {
  invalid: (field: string, problem: string) => `${field}: ${problem}`,
  refused: (problems: string[]) => `receipt refused, nothing written: ${problems.join('; ')}`,
};

export const receiptPushLine = z.strictObject({
  article: text(100, { min: 1, controls: 'typed' }).describe('Artikelnummer'),
  expected: z.number().int().min(1).max(AMOUNT_MAX).describe('Amount expected'),
  charge: text(scanLimits.batch, { controls: 'typed' }).nullable().optional(),
  mhd: z.iso.date().nullable().optional().describe('Best-before date, YYYY-MM-DD'),
});

/**
 * Pushes one receipt as the ERP knows it (integration token only). The whole receipt: lines are matched by
 * (article, Charge, MHD), what was received stays, a line the body no longer has is removed unless goods
 * were booked on it; a closed receipt is refused. The same rules as the import kind `receipts`, so a PUT
 * sent twice changes nothing the second time.
 */
export const pushReceipt = endpoint({
  name: 'pushReceipt',
  method: 'PUT',
  path: '/api/integration/receipts/:number',
  params: z.object({ number: text(200, { min: 1, controls: 'typed' }) }),
  body: z.strictObject({
    supplier: text(200, { controls: 'typed' }).optional().describe('Lieferant'),
    lines: z.array(receiptPushLine).min(1).max(10_000),
  }),
  response: z.object({
    number: z.string(),
    created: z.boolean().describe('true: a new receipt; false: an existing open one was updated'),
    lines: z.object({ added: z.number().int(), changed: z.number().int(), removed: z.number().int() }),
  }),
  audience: 'integration',
});
