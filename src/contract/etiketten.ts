import { z } from 'zod';
import { endpoint, id, idParam, scanText, successOnly, text } from './endpoint.ts';
import {
  druckerEintrag,
  druckTexts,
  LABEL_SIZES,
  type LabelKind,
  type LabelSize,
  printerName,
  ROLL_SIZES,
} from './etiketten-druck.ts';
import { joined } from './i18n/joined.ts';
import { localized } from './i18n/localized.ts';
import { HANDHELD_MAX, MAX_PRINT, MAX_RANGE, scanLimits } from './limits.ts';

// The handheld's part (printing one label, the station's printer) lives in etiketten-druck.ts.
export * from './etiketten-druck.ts';
export { HANDHELD_MAX, MAX_PRINT, MAX_RANGE };

/**
 * Labels (issue 21, decision 23): location, LHM, article, cart and badge labels as PDF (A4 sheets and single
 * labels for roll printers) and as ZPL II for Zebra printers, downloaded in the Leitstand or sent to a network
 * printer from the Leitstand and the handheld. Each label carries exactly what the app's scan field for that
 * kind accepts, so a printed label scanned back finds its record.
 */

/** The kinds downloaded by GET with their codes in the URL; a badge's card text never goes into a URL. */
export const CODE_KINDS = [
  'lagerplatz',
  'lhm',
  'artikel',
  'zollwagen',
  'kommissionierwagen',
  'fach',
] as const;
export type CodeKind = (typeof CODE_KINDS)[number];

const SIZE_KEYS = Object.keys(LABEL_SIZES) as [LabelSize, ...LabelSize[]];

export const DPIS = [203, 300] as const;
export type Dpi = (typeof DPIS)[number];

/** The most codes one request may name (a URL stays well below 16 KB); more locations go by range. */
export const MAX_CODES = 500;
/** What a worker (mitarbeiter) may print from the handheld: one record's label, a few at most. */
export const HANDHELD_KINDS = ['lagerplatz', 'lhm', 'zollwagen'] as const satisfies readonly LabelKind[];
/**
 * A printer that has not taken the whole job within this time is reported as not answering: 4 s, so the
 * German refusal reaches the handheld within its own 5 s request timeout.
 */
export const PRINT_TIMEOUT_MS = 4000;

/** The labels' and calls' texts (here, not in texts.ts: the handheld's first download does not need them; its screens need only `druckTexts`). */
export const etikettenTexts = joined(
  druckTexts,
  localized('etiketten', {
    title: 'Etiketten',
    kinds: {
      lagerplatz: 'Lagerplatz',
      lhm: 'LHM',
      artikel: 'Artikel',
      zollwagen: 'Zollwagen',
      kommissionierwagen: 'Kommissionierwagen',
      fach: 'Fach',
      ausweis: 'Ausweis',
    } satisfies Record<LabelKind, string>,
    sizes: {
      'a4-70x36': 'A4-Bogen 70 × 36 mm (3 × 8)',
      'a4-105x48': 'A4-Bogen 105 × 48 mm (2 × 6)',
      '100x50': 'Rolle 100 × 50 mm',
      '57x32': 'Rolle 57 × 32 mm',
    } satisfies Record<LabelSize, string>,
    /** Printed on the label. */
    label: {
      lhm: 'Ladungsträger',
      artikelNummer: (nummer: string) => `Art.-Nr. ${nummer}`,
      ausweis: 'Mitarbeiterausweis',
      kommissionierwagen: (compartments: number) =>
        compartments === 1 ? 'Kommissionierwagen · 1 Fach' : `Kommissionierwagen · ${compartments} Fächer`,
      fach: (number: number, cart: string) => `Fach ${number} · Wagen ${cart}`,
    },
    // Refusals (400 / 404)
    codesOrRange: 'Bitte Codes angeben oder einen Bereich mit „Von“ und „Bis“.',
    codesAndRange: 'Bitte entweder Codes oder einen Bereich angeben, nicht beides.',
    rangeOnlyLocations: 'Einen Bereich gibt es nur für Lagerplätze und LHM.',
    rangeIncomplete: 'Für einen Bereich bitte „Von“ und „Bis“ angeben.',
    rangeOrder: (from: string, to: string) => `Der Bereich ist leer: „${from}“ kommt nach „${to}“.`,
    rangeTooLarge: (count: number) =>
      `Der Bereich umfasst ${count} Etiketten; höchstens ${MAX_RANGE} auf einmal.`,
    duplicate: (code: string) => `„${code}“ ist doppelt angegeben.`,
    unknown: (kind: LabelKind, codes: string[]) => {
      const shown = codes
        .slice(0, 10)
        .map((c) => `„${c}“`)
        .join(', ');
      const more = codes.length > 10 ? ` und ${codes.length - 10} weitere` : '';
      const what = {
        lagerplatz: ['Lagerplatz', 'Lagerplätze'],
        lhm: ['LHM', 'LHM'],
        artikel: ['Artikel', 'Artikel'],
        zollwagen: ['Zollwagen', 'Zollwagen'],
        kommissionierwagen: ['Kommissionierwagen', 'Kommissionierwagen'],
        fach: ['Fach', 'Fächer'],
        ausweis: ['Ausweiskarte', 'Ausweiskarten'],
      }[kind];
      return codes.length === 1
        ? `${what[0]} ${shown} gibt es nicht.`
        : `Diese ${what[1]} gibt es nicht: ${shown}${more}.`;
    },
    /** A card text is a secret: the refusal counts the cards, it never repeats them. */
    unknownCards: (count: number) =>
      count === 1
        ? 'Diese Ausweiskarte gehört zu keinem aktiven Benutzer.'
        : `${count} Ausweiskarten gehören zu keinem aktiven Benutzer.`,
    duplicateCard: 'Eine Ausweiskarte ist doppelt angegeben.',
    /** An LHM code asked for as a location label, or the other way round. */
    notLhm: (code: string) => `„${code}“ ist ein Lagerplatz, kein LHM.`,
    isLhm: (code: string) => `„${code}“ ist ein LHM, kein Lagerplatz: bitte als LHM-Etikett drucken.`,
    notPrintable: (code: string) =>
      `„${code}“ enthält Zeichen, die ein Barcode (Code 128) nicht tragen kann: nur Buchstaben A–Z, Ziffern und einfache Satzzeichen.`,
    tooLong: (code: string, size: LabelSize) =>
      `„${code}“ ist zu lang für ein Etikett ${etikettenTexts.sizes[size]}: der Barcode würde zu schmal zum Scannen. Bitte ein größeres Etikett wählen.`,
    zplNeedsRoll: 'ZPL gibt es nur für Rollenetiketten (100 × 50 mm oder 57 × 32 mm).',
    dpiOnlyZpl: 'Die Auflösung (dpi) gilt nur für ZPL.',
    arrowOnlyLocations: 'Einen Pfeil gibt es nur auf Lagerplatz-Etiketten.',
    // Printing
    printerUnknown: (name: string) => `Drucker „${name}“ ist nicht eingerichtet.`,
    printerDown: (name: string) =>
      `Drucker „${name}“ antwortet nicht. Das Etikett wurde nicht gedruckt – bitte Drucker prüfen und erneut drucken.`,
    printed: (count: number, printer: string) =>
      count === 1 ? `1 Etikett an ${printer} gesendet.` : `${count} Etiketten an ${printer} gesendet.`,
    handheldKinds: 'Am Handscanner lassen sich nur Lagerplatz-, LHM- und Zollwagen-Etiketten drucken.',
    handheldMax: `Am Handscanner höchstens ${HANDHELD_MAX} Etiketten auf einmal.`,
    printRunning: 'Dieser Druckauftrag läuft noch. Bitte kurz warten und den Drucker prüfen.',
    printTooMany: `Höchstens ${MAX_PRINT} Etiketten je Druckauftrag.`,
    ausweisAdmin: 'Ausweise darf nur die IT-Administration drucken.',
    artikelLeitstand: 'Artikel-Etiketten druckt die Schichtleitung im Leitstand.',
    // The admin's printer list
    printers: 'Drucker',
    printerName: 'Name',
    printerHost: 'Adresse',
    printerPort: 'Port',
    printerDpi: 'Auflösung',
    printerSize: 'Etikettengröße',
    printerSource: 'Eingerichtet',
    fromEnvironment: 'Umgebung (PRINTERS)',
    fromLeitstand: 'Leitstand',
    printerSaved: (name: string) => `Drucker „${name}“ gespeichert.`,
    printerRemoved: (name: string) => `Drucker „${name}“ entfernt.`,
    printerNameTaken: (name: string) => `Einen Drucker „${name}“ gibt es schon.`,
    printerNotFound: (id: number) => `Drucker ${id} gibt es nicht.`,
    printerHostInvalid: 'Adresse: bitte einen Rechnernamen oder eine IP-Adresse angeben (ohne Port).',
    /** The port is not among 9100 and PRINTER_PORTS (issue 39: a printer is no way into other services). */
    printerPortBlocked: (port: number, allowed: number[]) =>
      `Port ${port} ist für Drucker nicht freigegeben (freigegeben: ${allowed.join(', ')}). Weitere Ports gibt die IT mit PRINTER_PORTS frei.`,
    printerHostNumeric: 'Adresse: eine IP-Adresse bitte mit vier Zahlen angeben, z. B. 192.0.2.10.',
    /** Loopback, unspecified, link-local, metadata, multicast: not a printer's address (PRINTER_ALLOWED_ADDRESSES). */
    printerAddressBlocked: (host: string) =>
      `Adresse ${host}: dieser Server selbst, Link-local-, Metadaten- und Rundsende-Adressen sind für Drucker gesperrt. Steht der Drucker wirklich dort, gibt die IT die Adresse mit PRINTER_ALLOWED_ADDRESSES frei.`,
    /** 409 when a job is sent: the printer's address (as resolved now) or port is blocked. */
    printerBlocked: (name: string) =>
      `Drucker „${name}“: seine Adresse oder sein Port ist für Drucker gesperrt. Das Etikett wurde nicht gedruckt. Bitte die IT fragen.`,
    // The Leitstand's page
    intro:
      'Etiketten als PDF (A4-Bogen oder Rolle) oder ZPL für Zebra-Drucker herunterladen, oder direkt an einen Netzwerkdrucker senden. Jeder Barcode ist genau das, was der Handscanner an dieser Stelle erwartet.',
    locationsHeading: 'Lagerplätze und LHM',
    locationKind: 'Art',
    rangeFrom: 'Von Lagerplatz',
    rangeTo: 'Bis Lagerplatz',
    /** Why 'Herunterladen' and 'Drucken' wait, beside them. */
    needsLocation:
      'Bitte „Von Lagerplatz“ angeben – für ein einzelnes Etikett genügt das, für einen Bereich auch „Bis Lagerplatz“.',
    needsArticles: 'Bitte zuerst Artikel suchen und auswählen.',
    needsPrinter: 'Zum Drucken bitte einen Drucker einrichten (IT-Administration).',
    arrow: 'Pfeil',
    arrows: { keiner: 'kein Pfeil', hoch: 'Pfeil nach oben', runter: 'Pfeil nach unten' },
    articlesHeading: 'Artikel',
    articleSearch: 'Artikel suchen',
    search: 'Suchen',
    select: (nummer: string) => `Artikel ${nummer} auswählen`,
    selected: (count: number) => (count === 1 ? '1 Artikel ausgewählt' : `${count} Artikel ausgewählt`),
    clearSelection: 'Auswahl leeren',
    noArticles: 'Keine Artikel gefunden.',
    moreArticles: 'Weitere Treffer: bitte die Suche genauer fassen.',
    cartsHeading: 'Zollwagen',
    cartsHint: 'Ein Etikett für jeden Zollwagen.',
    pickCartsHeading: 'Kommissionierwagen',
    pickCartsHint: 'Ein Etikett für jeden Kommissionierwagen – und eines für jedes seiner Fächer.',
    pickCartsLabels: 'Wagen',
    compartmentLabels: 'Fächer',
    format: 'Format',
    formats: { pdf: 'PDF', zpl: 'ZPL (Zebra)' },
    size: 'Größe',
    dpi: 'Auflösung',
    dpis: { 203: '203 dpi', 300: '300 dpi' },
    download: 'Herunterladen',
    printer: 'Drucker',
    noPrinter: 'Kein Drucker eingerichtet',
    print: 'Drucken',
    downloaded: (file: string) => `${file} heruntergeladen.`,
    printersHeading: 'Drucker (IT-Administration)',
    printersHint:
      'Netzwerk-Etikettendrucker (Zebra, roher Port 9100). Drucker aus der Umgebungsvariable PRINTERS lassen sich hier nicht ändern.',
    addPrinter: 'Drucker hinzufügen',
    edit: 'Ändern',
    save: 'Speichern',
    cancel: 'Abbrechen',
    remove: 'Entfernen',
    removeLabel: (name: string) => `Drucker ${name} entfernen`,
    editLabel: (name: string) => `Drucker ${name} ändern`,
  } as const),
);

/** One or several codes: `codes=A&codes=B` (the query parser gives one string or an array). */
const codesParam = z
  .union([scanText(scanLimits.card), z.array(scanText(scanLimits.card))])
  .transform((value) => (Array.isArray(value) ? value : [value]))
  .pipe(z.array(z.string()).max(MAX_CODES));

const sizeParam = z.enum(SIZE_KEYS).describe(`Label size: ${SIZE_KEYS.join(', ')}`);

/** The query of the downloads: the records (codes, or a from/to range of location codes) and the layout. */
export const labelQuery = z.strictObject({
  codes: codesParam
    .optional()
    .describe(
      'The records: location/LHM code, article number or cart number (repeat the parameter for several); carts without codes: all carts',
    ),
  from: scanText().optional().describe('First location code of a range (locations and LHM only)'),
  to: scanText().optional().describe('Last location code of a range, inclusive'),
  groesse: sizeParam.optional().describe('Label size (default a4-70x36 for PDF, 100x50 for ZPL)'),
  dpi: z
    .enum(['203', '300'])
    .transform(Number)
    .optional()
    .describe('ZPL only: the printer resolution (default 203)'),
  pfeil: z
    .enum(['hoch', 'runter'])
    .optional()
    .describe('Location labels only: an arrow up or down to the shelf'),
});
export type LabelQuery = z.output<typeof labelQuery>;

/** A badge's card texts go in a POST body, never a URL (access logs keep URLs; a card text is a login secret). */
export const ausweisBody = z.strictObject({
  karten: z
    .array(text(scanLimits.card, { min: 1, controls: 'secret' }))
    .min(1)
    .max(100),
  format: z.enum(['pdf', 'zpl']),
  groesse: sizeParam.optional(),
  dpi: z.union([z.literal(203), z.literal(300)]).optional(),
});
export type AusweisBody = z.output<typeof ausweisBody>;

const file = (kind: string, format: 'pdf' | 'zpl') =>
  z
    .string()
    .describe(
      format === 'pdf'
        ? `application/pdf: the ${kind} labels, streamed page by page`
        : `text/plain (ZPL II): one ^XA…^XZ label per ${kind}`,
    );

function download<K extends CodeKind, F extends 'pdf' | 'zpl'>(kind: K, format: F) {
  return endpoint({
    name: `etikett_${kind}_${format}`,
    method: 'GET',
    path: `/api/etiketten/${kind}.${format}`,
    role: 'schichtleitung',
    query: labelQuery,
    response: file(kind, format),
  });
}

export const lagerplatzPdf = download('lagerplatz', 'pdf');
export const lagerplatzZpl = download('lagerplatz', 'zpl');
export const lhmPdf = download('lhm', 'pdf');
export const lhmZpl = download('lhm', 'zpl');
export const artikelPdf = download('artikel', 'pdf');
export const artikelZpl = download('artikel', 'zpl');
export const zollwagenPdf = download('zollwagen', 'pdf');
export const zollwagenZpl = download('zollwagen', 'zpl');
export const kommissionierwagenPdf = download('kommissionierwagen', 'pdf');
export const kommissionierwagenZpl = download('kommissionierwagen', 'zpl');
export const fachPdf = download('fach', 'pdf');
export const fachZpl = download('fach', 'zpl');

export const labelDownloads: Record<CodeKind, Record<'pdf' | 'zpl', ReturnType<typeof download>>> = {
  lagerplatz: { pdf: lagerplatzPdf, zpl: lagerplatzZpl },
  lhm: { pdf: lhmPdf, zpl: lhmZpl },
  artikel: { pdf: artikelPdf, zpl: artikelZpl },
  zollwagen: { pdf: zollwagenPdf, zpl: zollwagenZpl },
  kommissionierwagen: { pdf: kommissionierwagenPdf, zpl: kommissionierwagenZpl },
  fach: { pdf: fachPdf, zpl: fachZpl },
};

/** Badges as PDF or ZPL, for admins: the card texts in the body. Writes nothing, so no idempotency key. */
export const ausweisDatei = endpoint({
  name: 'ausweisDatei',
  method: 'POST',
  path: '/api/admin/etiketten/ausweis',
  role: 'admin',
  body: ausweisBody,
  response: z.string().describe('application/pdf or text/plain (ZPL II): one badge label per card'),
  writes: false,
});

// ── Printers ──────────────────────────────────────────────────────────────────────────────────────────

/** A printer as the admin sees it: with its address; those from PRINTERS cannot be changed here. */
export const druckerZeile = druckerEintrag.extend({
  id: z.number().int().nullable().describe('null: from PRINTERS'),
  host: z.string(),
  port: z.number().int(),
});
export type DruckerZeile = z.infer<typeof druckerZeile>;

/** A printer's address: a host name, an IPv4 address, or an IPv6 address (two colons or more), no port. */
export function validPrinterHost(host: string): boolean {
  return /^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?|(?=[^:]*:[^:]*:)[0-9A-Fa-f:.]+)$/.test(host);
}

export const druckerForm = z.strictObject({
  name: printerName,
  /** A host name or IP address without port; checked by validPrinterHost (its own German message). */
  host: text(253, { min: 1, controls: 'typed' }),
  port: z.number().int().min(1).max(65535),
  dpi: z.union([z.literal(203), z.literal(300)]),
  groesse: z.enum(ROLL_SIZES),
});
export type DruckerForm = z.output<typeof druckerForm>;

export const adminDrucker = endpoint({
  name: 'adminDrucker',
  method: 'GET',
  path: '/api/admin/drucker',
  role: 'admin',
  response: z.object({ success: z.literal(true), drucker: z.array(druckerZeile) }),
});

const savedAnswer = z.object({ success: z.literal(true), message: z.string(), id });

export const druckerAnlegen = endpoint({
  name: 'druckerAnlegen',
  method: 'POST',
  path: '/api/admin/drucker',
  role: 'admin',
  body: druckerForm,
  response: savedAnswer,
});

export const druckerAendern = endpoint({
  name: 'druckerAendern',
  method: 'PUT',
  path: '/api/admin/drucker/:id',
  role: 'admin',
  params: z.object({ id: idParam }),
  body: druckerForm,
  response: savedAnswer,
});

export const druckerEntfernen = endpoint({
  name: 'druckerEntfernen',
  method: 'PUT',
  path: '/api/admin/drucker/:id/entfernen',
  role: 'admin',
  params: z.object({ id: idParam }),
  body: z.strictObject({}),
  response: successOnly.extend({ message: z.string() }),
});
