import { z } from 'zod';
import { endpoint, text } from '../endpoint.ts';
import {
  IMPORT_REASON_CODES,
  IMPORT_SUMMARY_CODES,
  type ImportReason,
  type ImportSummary,
  importMessage,
  importReasonTexts,
  importSummaryTexts,
  render,
  WHOLE_FILE,
  WHOLE_LINE,
} from './import-messages.ts';

/**
 * Leitstand › Import (issue 20.8, admin): a CSV of any import kind uploaded while the server runs — the
 * engine of `npm run import` (src/server/import/), all or nothing (decision 30). The file travels as
 * base64 in JSON, so the server reads its bytes as the CLI does (UTF-8 or Windows-1252); the upload has its
 * own body limit (IMPORT_LIMIT_KB), answered by `importKinds` as the largest file.
 */

export const importKind = z.object({
  /** The kind's name as `npm run import -- <kind>` takes it. */
  name: z.string(),
  columns: z.array(z.object({ header: z.string(), required: z.boolean() })),
});

export const importKinds = endpoint({
  name: 'importKinds',
  method: 'GET',
  path: '/api/admin/import',
  role: 'admin',
  response: z.object({
    /** In the order a new site imports them (later kinds refer to earlier ones). */
    kinds: z.array(importKind),
    /** The largest file the upload takes, in bytes (IMPORT_LIMIT_KB less the base64 overhead). */
    maxFileBytes: z.number().int(),
  }),
});

/**
 * One refused line (or the header, line 1, or the whole file): the column as the file spells it (or 'file',
 * 'row'), why by code and parameters (src/contract/leitstand/import-messages.ts), and `reason`, the English
 * text `npm run import` prints.
 */
export const lineError = z.object({
  line: z.number().int(),
  column: z.string(),
  code: z.enum(IMPORT_REASON_CODES),
  params: importMessage(IMPORT_REASON_CODES).shape.params,
  reason: z.string(),
});

export const runImport = endpoint({
  name: 'runImport',
  method: 'POST',
  path: '/api/admin/import/:kind',
  role: 'admin',
  params: z.object({ kind: z.string().regex(/^[a-z][a-z-]{0,39}$/) }).strict(),
  body: z
    .object({
      fileName: text(255, { min: 1, controls: 'typed' }),
      /** The file's bytes, base64. */
      content: z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/),
    })
    .strict(),
  response: z.object({
    /** Whether the rows were written; false: all or nothing refused the file, nothing was written. */
    imported: z.boolean(),
    encoding: z.enum(['UTF-8', 'Windows-1252']),
    rows: z.number().int(),
    written: z.number().int(),
    refusedRows: z.number().int(),
    /** The file as a whole was refused (unreadable CSV, a required column missing or repeated). */
    fileRefused: z.boolean(),
    /** The refusals of the first 100 refused lines (the lowest line numbers), in line order. */
    lineErrors: z.array(lineError),
    /** Refused lines beyond those `lineErrors` lists (absent in answers stored before it was counted). */
    unlistedRows: z.number().int().optional(),
    ignoredColumns: z.array(z.string()),
    /** The import's summary lines by code; `text` as the CLI prints it ('articles: 3 new, 0 changed, 0 unchanged'). */
    summary: z.array(importMessage(IMPORT_SUMMARY_CODES)),
  }),
});

const mb = (bytes: number) => (bytes / (1024 * 1024)).toLocaleString('de-DE', { maximumFractionDigits: 1 });

export const importTexts = {
  title: 'Import',
  intro:
    'CSV-Export aus dem ERP einspielen, während der Server läuft – wie „npm run import“: hat eine Zeile einen Fehler, wird nichts geschrieben; sonst wird die ganze Datei übernommen.',
  kinds: {
    users: 'Benutzer',
    articles: 'Artikel',
    locations: 'Lagerplätze',
    stock: 'Bestand',
    batches: 'Batches',
    projects: 'Projekte und Kartonagen',
    'delivery-notes': 'Lieferscheine',
    shipments: 'Sendungen',
    carts: 'Zollwagen',
    'pick-carts': 'Kommissionierwagen',
    receipts: 'Wareneingänge',
  } as Record<string, string>,
  kind: 'Art',
  columns: (list: string) => `Spalten: ${list}`,
  requiredMark: '(Pflicht)',
  file: 'Datei (CSV)',
  fileHint: (maxBytes: number) =>
    `UTF-8 oder Windows-1252 (Excel: „CSV UTF-8“ oder „CSV (Trennzeichen-getrennt)“), höchstens ${mb(maxBytes)} MB.`,
  submit: 'Importieren',
  running: 'Import läuft …',
  imported: (rows: number, fileName: string) =>
    `${rows.toLocaleString('de-DE')} ${rows === 1 ? 'Zeile' : 'Zeilen'} aus ${fileName} importiert.`,
  refused: (refusedRows: number, rows: number) =>
    `${refusedRows.toLocaleString('de-DE')} von ${rows.toLocaleString('de-DE')} Zeilen abgelehnt. Es wurde nichts importiert.`,
  fileRefused: 'Die Datei wurde abgelehnt. Es wurde nichts importiert.',
  lineErrorsTitle: 'Abgelehnte Zeilen',
  /** Below the table when the answer lists only the first refused lines. */
  unlistedRows: (n: number) =>
    `… und ${n.toLocaleString('de-DE')} weitere abgelehnte ${n === 1 ? 'Zeile' : 'Zeilen'}, hier nicht aufgeführt. Bitte zuerst die aufgeführten Fehler beheben (oft haben die anderen denselben Grund).`,
  lineColumns: { line: 'Zeile', column: 'Spalte', reason: 'Grund' },
  /** A refusal's column (the file's header, or the whole file or line) and reason in German (the API's `reason` is the CLI's English). */
  column: (column: string) =>
    column === WHOLE_FILE ? 'ganze Datei' : column === WHOLE_LINE ? 'ganze Zeile' : column,
  reason: (error: { code: string; params: unknown }) => render(importReasonTexts, error as ImportReason),
  summaryLine: (line: { code: string; params: unknown }) => render(importSummaryTexts, line as ImportSummary),
  summaryTitle: 'Zusammenfassung',
  ignoredColumns: (list: string) => `Nicht verwendete Spalten: ${list}`,
  readAs: (encoding: string) => `Gelesen als ${encoding}.`,
  refusals: {
    unknownKind: (kind: string) => `Unbekannte Importart „${kind}“.`,
    tooLarge: (maxBytes: number) =>
      `Die Datei ist zu groß: höchstens ${mb(maxBytes)} MB. Bitte aufteilen oder mit „npm run import“ auf dem Server einspielen.`,
    encoding:
      'Die Datei ist weder UTF-8 noch Windows-1252. Bitte in Excel als „CSV UTF-8 (durch Trennzeichen getrennt)“ oder „CSV (Trennzeichen-getrennt)“ speichern.',
    noFile: 'Bitte eine Datei wählen.',
    /** A repeat of an upload whose first copy is still at work, after waiting a while for it (409). */
    running:
      'Dieser Import läuft noch. Das Ergebnis erscheint, sobald er fertig ist – bitte in einer Minute noch einmal senden.',
    /** The file's rows do not fit the memory an upload may take (400). */
    tooManyRows:
      'Die Datei hat zu viele Zeilen für einen Import im Leitstand. Bitte aufteilen oder mit „npm run import“ auf dem Server einspielen.',
  },
} as const;
