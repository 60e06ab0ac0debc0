import {
  type Catalogue,
  type ImportReason,
  type ImportReasons,
  type ImportSummaries,
  type ImportSummary,
  render,
} from '../../contract/leitstand/import-messages.ts';

/**
 * The import engine's reasons and summary lines in English, as `npm run import` prints them for IT. The codes
 * and their parameters are the contract's (src/contract/leitstand/import-messages.ts), where the Leitstand's
 * German texts of the same codes are.
 */
const en = (n: number) => n.toLocaleString('en-US');

export const englishReasons: Catalogue<ImportReasons> = {
  empty: () => 'is empty',
  tooLong: ({ max }) => `is longer than ${max} characters`,
  tooShort: ({ min }) => `is shorter than ${min} characters`,
  controlCharacter: () => 'holds a control character or a line break',
  hiddenCharacter: ({ codePoint }) =>
    `holds the invisible control character ${codePoint} (a bidi override or C1 control); remove it in the ERP`,
  notANumber: ({ value }) => `"${value}" is not a number`,
  notAWholeNumber: ({ value }) => `"${value}" is not a whole number`,
  outOfRange: ({ value, min, max }) => `${value} is not between ${min} and ${max}`,
  notADate: ({ value }) => `"${value}" is not a date (31.12.2027 or 2027-12-31)`,
  notACalendarDate: ({ value }) => `"${value}" is not a valid calendar date`,
  notABoolean: ({ value }) => `"${value}" is not ja or nein`,
  notAnEan: ({ value }) => `"${value}" is not an EAN/GTIN (8, 12, 13 or 14 digits with a valid check digit)`,
  quoteNotClosed: () => 'a quoted field is never closed',
  textAfterQuote: () => 'unexpected text after a closing quote',
  fileEmpty: () => 'the file is empty (a header line is needed)',
  columnRepeated: ({ column }) => `repeats the column "${column}"`,
  columnMissing: () => 'column is missing in the header',
  tooManyFields: ({ fields, header }) => `has ${fields} fields, the header ${header}`,
  lineTooLong: ({ max }) =>
    `the line is longer than ${en(max)} characters (often a quote never closed); the file was not read`,
  unreadable: () => 'could not be read',
  duplicate: ({ what, line }) => `this ${what} is already on line ${line}`,
  unknownArticle: ({ nummer }) => `no article with the Artikelnummer "${nummer}"`,
  unknownLocation: ({ code }) => `no location with the Lagerplatz "${code}"`,
  unknownNote: ({ belegnr }) => `no delivery note with the Belegnr "${belegnr}"`,
  unknownBatch: ({ batch }) => `no batch "${batch}" (import batches first)`,
  unknownProject: ({ projekt }) => `no project "${projekt}" (import projects first)`,
  passwordNeedsUsername: () => 'needs a Benutzername to log in with',
  noUsernameNoCard: () => 'is empty and so is Karte (a user needs one of them)',
  cardTaken: ({ name }) => `belongs to another user ("${name}")`,
  noLoginWay: () => 'is empty and so is Karte (a new active user needs a way to log in)',
  lastActiveAdmin: () =>
    'not applied: the other admins were switched off while the file was imported, none would stay active',
  mengeWithoutArticle: () => 'is empty (which article is this Menge of?)',
  differsInNote: ({ line }) => `differs from line ${line} of the same delivery note`,
  euMissing: () => 'is empty (a new delivery note needs ja or nein)',
  articleTwiceInNote: ({ line }) => `this article is already a line of the delivery note on line ${line}`,
  packedLineMissing: ({ nummer, packed }) =>
    `the line of article ${nummer} is missing, but ${packed} of it are already packed`,
  belowPacked: ({ amount, packed }) => `${amount} is less than the ${packed} already packed`,
  pickedLineMissing: ({ nummer, picked }) =>
    `the line of article ${nummer} is missing, but ${picked} of it are already picked`,
  belowPicked: ({ amount, picked }) => `${amount} is less than the ${picked} already picked`,
  notePacked: ({ belegnr }) => `delivery note ${belegnr} is already packed; its lines cannot change`,
  noteLineRefused: ({ line }) => `line ${line} of the same delivery note is refused`,
  differsInReceipt: ({ line }) => `differs from line ${line} of the same receipt`,
  receiptLineTwice: ({ line }) => `this article with this Charge and MHD is already on line ${line}`,
  receivedLineMissing: ({ nummer, charge, received }) =>
    `the line of article ${nummer}${charge ? ` (Charge ${charge})` : ''} is missing, but ${received} of it were already received`,
  receiptClosed: ({ nummer }) => `receipt ${nummer} is closed; it cannot change`,
  receiptLineRefused: ({ line }) => `line ${line} of the same receipt is refused`,
  unknownCarrier: ({ value, carriers }) => `"${value}" is none of ${carriers} (or empty)`,
  unknownLanguage: ({ value, languages }) => `"${value}" is none of the languages ${languages} (or empty)`,
  codeTaken: ({ code }) => `"${code}" is already the code of a location, a cart or a compartment`,
  compartmentUsed: ({ code }) => `compartment ${code} already held a delivery note and stays`,
  imageWithPath: ({ image }) => `"${image}" must be a file name in the --images folder, without a path`,
  imageWithoutCarton: () => 'is empty (whose Bild is this?)',
  cartonTwice: ({ line }) => `this carton of the project is already on line ${line}`,
  imageMissing: ({ file }) => `no file ${file}`,
  imageNotJpeg: ({ image }) => `${image} is not a JPEG picture (the packing station shows .jpg)`,
  minimumMissing: () => 'is empty (a row with an Artikelnummer sets its minimum; 0 removes it)',
  minimumWithoutArticle: () => 'is empty (whose minimum is this?)',
  differsInLocation: ({ line }) => `differs from line ${line} of the same Lagerplatz`,
  minimumTwice: ({ line }) => `this article's minimum on this Lagerplatz is already on line ${line}`,
  slotTwice: ({ line }) =>
    `the same slot (Lagerplatz, Artikelnummer, Charge, MHD) is already on line ${line}`,
  chargeRequired: ({ nummer }) => `is empty, article ${nummer} requires a Charge`,
  mhdRequired: ({ nummer }) => `is empty, article ${nummer} requires an MHD`,
  aboveMaximum: ({ nummer, code, total, max }) =>
    `would make the stock of article ${nummer} on ${code} ${en(total)}, more than the ${en(max)} one location may hold`,
};

export const englishSummaries: Catalogue<ImportSummaries> = {
  counts: ({ what, inserted, updated, unchanged }) =>
    `${what}: ${inserted} new, ${updated} changed, ${unchanged} unchanged`,
  noteLines: ({ inserted, updated, removed }) =>
    `delivery note lines: ${inserted} new, ${updated} changed, ${removed} removed`,
  receiptLines: ({ inserted, updated, removed }) =>
    `receipt lines: ${inserted} new, ${updated} changed, ${removed} removed`,
  minimums: ({ set, removed, unchanged }) =>
    `replenishment minimums: ${set} set or changed, ${removed} removed, ${unchanged} unchanged`,
  pictures: ({ copied, target, unchanged }) =>
    `pictures: ${copied} copied to ${target}, ${unchanged} unchanged`,
  picturesNotCopied: () => 'pictures: not copied (no --images folder given)',
  stock: ({ up, down, unchanged }) =>
    `stock: ${up + down} slots changed (${up} up, ${down} down, each journalled), ${unchanged} unchanged`,
};

/** A reason as the CLI prints it. */
export const inEnglish = (reason: ImportReason): string => render(englishReasons, reason);
/** A summary line as the CLI prints it. */
export const summaryInEnglish = (line: ImportSummary): string => render(englishSummaries, line);

/** A reason, typed by its code: `because('tooLong', { max: 200 })`. */
export const because = <C extends keyof ImportReasons>(code: C, params: ImportReasons[C]) =>
  ({ code, params }) as ImportReason;

/** A summary line, typed by its code. */
export const summaryLine = <C extends keyof ImportSummaries>(code: C, params: ImportSummaries[C]) =>
  ({ code, params }) as ImportSummary;
