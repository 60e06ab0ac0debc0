import { z } from 'zod';

/**
 * What the import engine (src/server/import/) says about a file: why a line, the header or the file was
 * refused, and what an import wrote. Each is a code and its parameters, so the same result reads in English
 * where `npm run import` prints it for IT (src/server/import/messages.ts) and in German where the Leitstand's
 * Import page shows it to the person at the desk (`importReasonTexts`, `importSummaryTexts` below). The code
 * list and the parameters of each live here, once; both catalogues are typed against them.
 */

type None = Record<string, never>;
type Line = { line: number };

/** Every reason the engine refuses a cell, a line, the header or the file for, with its parameters. */
export interface ImportReasons {
  // A cell (src/server/import/framework.ts, values.ts)
  empty: None;
  tooLong: { max: number };
  tooShort: { min: number };
  controlCharacter: None;
  /** An invisible character that changes how a text reads (a bidi override, a C1 control): `U+202E`. */
  hiddenCharacter: { codePoint: string };
  notANumber: { value: string };
  notAWholeNumber: { value: string };
  outOfRange: { value: number; min: number; max: number };
  notADate: { value: string };
  notACalendarDate: { value: string };
  notABoolean: { value: string };
  notAnEan: { value: string };
  // The file and its header (csv.ts, run.ts)
  quoteNotClosed: None;
  textAfterQuote: None;
  fileEmpty: None;
  columnRepeated: { column: string };
  columnMissing: None;
  tooManyFields: { fields: number; header: number };
  /** A record longer than the import reads (LINE_MAX_CHARS): the whole file is refused. */
  lineTooLong: { max: number };
  unreadable: None;
  /** A value (a number, a code, a card) a line of the file has already. */
  duplicate: { what: string } & Line;
  // References to what an earlier import brought
  unknownArticle: { nummer: string };
  unknownLocation: { code: string };
  unknownNote: { belegnr: string };
  unknownBatch: { batch: string };
  unknownProject: { projekt: string };
  // Users
  passwordNeedsUsername: None;
  noUsernameNoCard: None;
  cardTaken: { name: string };
  noLoginWay: None;
  /** While the file was written, the other active admins were switched off: this row would leave none. */
  lastActiveAdmin: None;
  // Delivery notes
  mengeWithoutArticle: None;
  differsInNote: Line;
  euMissing: None;
  articleTwiceInNote: Line;
  packedLineMissing: { nummer: string; packed: number };
  belowPacked: { amount: number; packed: number };
  pickedLineMissing: { nummer: string; picked: number };
  belowPicked: { amount: number; picked: number };
  notePacked: { belegnr: string };
  noteLineRefused: Line;
  // Receipts (Wareneingang)
  differsInReceipt: Line;
  receiptLineTwice: Line;
  receivedLineMissing: { nummer: string; charge: string; received: number };
  receiptClosed: { nummer: string };
  receiptLineRefused: Line;
  // Shipments
  unknownCarrier: { value: string; carriers: string };
  /** A user's Sprache that is none of the handheld's languages (src/contract/i18n/languages.ts). */
  unknownLanguage: { value: string; languages: string };
  /** A pick cart's or compartment's code that already names a location or another cart's compartment. */
  codeTaken: { code: string };
  /** Fewer compartments would remove one that already held a note. */
  compartmentUsed: { code: string };
  // Projects and cartons
  imageWithPath: { image: string };
  imageWithoutCarton: None;
  cartonTwice: Line;
  imageMissing: { file: string };
  imageNotJpeg: { image: string };
  // Locations and their minimums
  minimumMissing: None;
  minimumWithoutArticle: None;
  differsInLocation: Line;
  minimumTwice: Line;
  // Stock
  slotTwice: Line;
  chargeRequired: { nummer: string };
  mhdRequired: { nummer: string };
  aboveMaximum: { nummer: string; code: string; total: number; max: number };
}
export type ImportReasonCode = keyof ImportReasons;
/** One reason with its parameters. */
export type ImportReason = {
  [C in ImportReasonCode]: { code: C; params: ImportReasons[C] };
}[ImportReasonCode];

/** What things an import counts in its summary (the `what` of `counts`). */
export const IMPORT_THINGS = [
  'articles',
  'locations',
  'users',
  'batches',
  'carts',
  'pick carts',
  'shipments',
  'projects',
  'cartons',
  'delivery notes',
  'receipts',
] as const;
export type ImportThing = (typeof IMPORT_THINGS)[number];

/** Every line of an import's summary, with its parameters. */
export interface ImportSummaries {
  counts: { what: ImportThing; inserted: number; updated: number; unchanged: number };
  noteLines: { inserted: number; updated: number; removed: number };
  receiptLines: { inserted: number; updated: number; removed: number };
  minimums: { set: number; removed: number; unchanged: number };
  pictures: { copied: number; target: string; unchanged: number };
  picturesNotCopied: None;
  stock: { up: number; down: number; unchanged: number };
}
export type ImportSummaryCode = keyof ImportSummaries;
export type ImportSummary = {
  [C in ImportSummaryCode]: { code: C; params: ImportSummaries[C] };
}[ImportSummaryCode];

/** A catalogue: a text for every code, from its parameters. */
export type Catalogue<T> = { [C in keyof T]: (params: T[C]) => string };

/** The `column` of a refusal of the whole file (unreadable CSV) and of a whole line (too many fields). */
export const WHOLE_FILE = 'file';
export const WHOLE_LINE = 'row';

const de = (n: number) => n.toLocaleString('de-DE');

/** The engine's reasons in German, for the Leitstand's Import page: a cell's reason follows its column. */
export const importReasonTexts: Catalogue<ImportReasons> = {
  empty: () => 'ist leer',
  tooLong: ({ max }) => `ist länger als ${de(max)} Zeichen`,
  tooShort: ({ min }) => `ist kürzer als ${de(min)} Zeichen`,
  controlCharacter: () => 'enthält ein Steuerzeichen oder einen Zeilenumbruch',
  hiddenCharacter: ({ codePoint }) =>
    `enthält das unsichtbare Steuerzeichen ${codePoint} (z. B. eine Schreibrichtungsumkehr); bitte im ERP entfernen`,
  notANumber: ({ value }) => `„${value}“ ist keine Zahl`,
  notAWholeNumber: ({ value }) => `„${value}“ ist keine ganze Zahl`,
  outOfRange: ({ value, min, max }) => `${de(value)} liegt nicht zwischen ${de(min)} und ${de(max)}`,
  notADate: ({ value }) => `„${value}“ ist kein Datum (31.12.2027 oder 2027-12-31)`,
  notACalendarDate: ({ value }) => `„${value}“ ist kein gültiges Datum`,
  notABoolean: ({ value }) => `„${value}“ ist weder ja noch nein`,
  notAnEan: ({ value }) =>
    `„${value}“ ist keine EAN/GTIN (8, 12, 13 oder 14 Ziffern mit gültiger Prüfziffer)`,
  quoteNotClosed: () => 'Ein Feld in Anführungszeichen wird nicht geschlossen.',
  textAfterQuote: () => 'Text nach dem schließenden Anführungszeichen eines Felds.',
  fileEmpty: () => 'Die Datei ist leer (sie braucht eine Kopfzeile).',
  columnRepeated: ({ column }) => `wiederholt die Spalte „${column}“`,
  columnMissing: () => 'fehlt in der Kopfzeile',
  tooManyFields: ({ fields, header }) => `hat ${de(fields)} Felder, die Kopfzeile ${de(header)}`,
  lineTooLong: ({ max }) =>
    `Die Zeile ist länger als ${de(max)} Zeichen (oft ein nicht geschlossenes Anführungszeichen). Die Datei wurde nicht gelesen.`,
  unreadable: () => 'konnte nicht gelesen werden',
  duplicate: ({ what, line }) => `${what} steht schon in Zeile ${de(line)}`,
  unknownArticle: ({ nummer }) => `Einen Artikel mit der Artikelnummer „${nummer}“ gibt es nicht.`,
  unknownLocation: ({ code }) => `Einen Lagerplatz „${code}“ gibt es nicht.`,
  unknownNote: ({ belegnr }) => `Einen Lieferschein mit der Belegnr „${belegnr}“ gibt es nicht.`,
  unknownBatch: ({ batch }) => `Einen Batch „${batch}“ gibt es nicht (zuerst die Batches importieren).`,
  unknownProject: ({ projekt }) =>
    `Ein Projekt „${projekt}“ gibt es nicht (zuerst die Projekte importieren).`,
  passwordNeedsUsername: () => 'braucht einen Benutzernamen zum Anmelden',
  noUsernameNoCard: () => 'ist leer, die Karte auch (ein Benutzer braucht eines von beiden)',
  cardTaken: ({ name }) => `gehört schon einem anderen Benutzer („${name}“)`,
  noLoginWay: () => 'ist leer, die Karte auch (ein neuer aktiver Benutzer muss sich anmelden können)',
  lastActiveAdmin: () =>
    'nicht übernommen: Während des Imports wurden die anderen Admins abgeschaltet – es bliebe keiner aktiv.',
  mengeWithoutArticle: () => 'ist leer (zu welchem Artikel gehört die Menge?)',
  differsInNote: ({ line }) => `weicht von Zeile ${de(line)} desselben Lieferscheins ab`,
  euMissing: () => 'ist leer (ein neuer Lieferschein braucht ja oder nein)',
  articleTwiceInNote: ({ line }) =>
    `Der Artikel ist schon in Zeile ${de(line)} eine Position des Lieferscheins.`,
  packedLineMissing: ({ nummer, packed }) =>
    `Die Position von Artikel ${nummer} fehlt, aber ${de(packed)} davon sind schon gepackt.`,
  belowPacked: ({ amount, packed }) => `${de(amount)} ist weniger als die ${de(packed)} schon gepackten`,
  pickedLineMissing: ({ nummer, picked }) =>
    `Die Position von Artikel ${nummer} fehlt, aber ${de(picked)} davon sind schon kommissioniert.`,
  belowPicked: ({ amount, picked }) =>
    `${de(amount)} ist weniger als die ${de(picked)} schon kommissionierten`,
  notePacked: ({ belegnr }) =>
    `Lieferschein ${belegnr} ist schon gepackt; seine Positionen können sich nicht mehr ändern.`,
  noteLineRefused: ({ line }) => `Zeile ${de(line)} desselben Lieferscheins ist abgelehnt.`,
  differsInReceipt: ({ line }) => `weicht von Zeile ${de(line)} desselben Wareneingangs ab`,
  receiptLineTwice: ({ line }) =>
    `Dieser Artikel mit dieser Charge und diesem MHD steht schon in Zeile ${de(line)}.`,
  receivedLineMissing: ({ nummer, charge, received }) =>
    `Die Position von Artikel ${nummer}${charge ? ` (Charge ${charge})` : ''} fehlt, aber ${de(received)} davon sind schon eingegangen.`,
  receiptClosed: ({ nummer }) => `Wareneingang ${nummer} ist abgeschlossen; er kann sich nicht mehr ändern.`,
  receiptLineRefused: ({ line }) => `Zeile ${de(line)} desselben Wareneingangs ist abgelehnt.`,
  unknownCarrier: ({ value, carriers }) => `„${value}“ ist keiner von ${carriers} (oder leer)`,
  unknownLanguage: ({ value, languages }) => `„${value}“ ist keine der Sprachen ${languages} (oder leer)`,
  codeTaken: ({ code }) => `„${code}“ ist schon der Code eines Lagerplatzes, Wagens oder Fachs`,
  compartmentUsed: ({ code }) => `Fach ${code} hatte schon einen Lieferschein und bleibt`,
  imageWithPath: ({ image }) => `„${image}“ muss ein Dateiname im Bilderordner sein, ohne Pfad`,
  imageWithoutCarton: () => 'ist leer (zu welcher Kartonage gehört das Bild?)',
  cartonTwice: ({ line }) => `Diese Kartonage des Projekts steht schon in Zeile ${de(line)}.`,
  imageMissing: ({ file }) => `Die Datei ${file} gibt es nicht.`,
  imageNotJpeg: ({ image }) => `${image} ist kein JPEG-Bild (der Packplatz zeigt .jpg)`,
  minimumMissing: () => 'ist leer (eine Zeile mit Artikelnummer setzt dessen Mindestbestand; 0 entfernt ihn)',
  minimumWithoutArticle: () => 'ist leer (zu welchem Artikel gehört der Mindestbestand?)',
  differsInLocation: ({ line }) => `weicht von Zeile ${de(line)} desselben Lagerplatzes ab`,
  minimumTwice: ({ line }) =>
    `Der Mindestbestand dieses Artikels auf diesem Lagerplatz steht schon in Zeile ${de(line)}.`,
  slotTwice: ({ line }) =>
    `Derselbe Bestand (Lagerplatz, Artikelnummer, Charge, MHD) steht schon in Zeile ${de(line)}.`,
  chargeRequired: ({ nummer }) => `ist leer, Artikel ${nummer} braucht eine Charge`,
  mhdRequired: ({ nummer }) => `ist leer, Artikel ${nummer} braucht ein MHD`,
  aboveMaximum: ({ nummer, code, total, max }) =>
    `Der Bestand von Artikel ${nummer} auf ${code} wäre ${de(total)}, mehr als die ${de(max)}, die ein Lagerplatz halten kann.`,
};

const things: Record<ImportThing, string> = {
  articles: 'Artikel',
  locations: 'Lagerplätze',
  users: 'Benutzer',
  batches: 'Batches',
  carts: 'Zollwagen',
  'pick carts': 'Kommissionierwagen',
  shipments: 'Sendungen',
  projects: 'Projekte',
  cartons: 'Kartonagen',
  'delivery notes': 'Lieferscheine',
  receipts: 'Wareneingänge',
};

/** An import's summary in German. */
export const importSummaryTexts: Catalogue<ImportSummaries> = {
  counts: ({ what, inserted, updated, unchanged }) =>
    `${things[what]}: ${de(inserted)} neu, ${de(updated)} geändert, ${de(unchanged)} unverändert`,
  noteLines: ({ inserted, updated, removed }) =>
    `Lieferscheinpositionen: ${de(inserted)} neu, ${de(updated)} geändert, ${de(removed)} entfernt`,
  receiptLines: ({ inserted, updated, removed }) =>
    `Wareneingangspositionen: ${de(inserted)} neu, ${de(updated)} geändert, ${de(removed)} entfernt`,
  minimums: ({ set, removed, unchanged }) =>
    `Mindestbestände: ${de(set)} gesetzt oder geändert, ${de(removed)} entfernt, ${de(unchanged)} unverändert`,
  pictures: ({ copied, unchanged }) => `Bilder: ${de(copied)} kopiert, ${de(unchanged)} unverändert`,
  picturesNotCopied: () => 'Bilder: nicht kopiert (kein Bilderordner angegeben)',
  stock: ({ up, down, unchanged }) =>
    `Bestand: ${de(up + down)} Plätze geändert (${de(up)} mehr, ${de(down)} weniger, jede Änderung im Journal), ${de(unchanged)} unverändert`,
};

/** The text of one reason or summary line from its catalogue (the code picks the text, its params fill it). */
export function render<T>(catalogue: Catalogue<T>, message: { code: keyof T; params: unknown }): string {
  return (catalogue[message.code] as (params: unknown) => string)(message.params);
}

const param = z.union([z.string(), z.number()]);

/** A reason or summary line as the API answers it: its code, its parameters, and its English text. */
export const importMessage = <C extends string>(codes: readonly [C, ...C[]]) =>
  z.object({
    code: z.enum(codes),
    params: z.record(z.string(), param),
    /** English, as `npm run import` prints it. */
    text: z.string(),
  });

export const IMPORT_REASON_CODES = Object.keys(importReasonTexts) as [
  ImportReasonCode,
  ...ImportReasonCode[],
];
export const IMPORT_SUMMARY_CODES = Object.keys(importSummaryTexts) as [
  ImportSummaryCode,
  ...ImportSummaryCode[],
];
