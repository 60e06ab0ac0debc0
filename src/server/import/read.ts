import { WHOLE_FILE, WHOLE_LINE } from '../../contract/leitstand/import-messages.ts';
import { CsvSyntaxError, openCsv } from './csv.ts';
import type { FileContext, ImportKind, Line } from './framework.ts';
import { KINDS, type KindName } from './kinds/index.ts';
import { because } from './messages.ts';
import {
  CELL_MAX_CHARS,
  LINE_MAX_CHARS,
  type LineSetData,
  normalizeHeader,
  type Refusal,
  Refusals,
  RowReader,
  refusal,
} from './rows.ts';

/**
 * The part of an import that needs no database: a CSV text into rows — the header matched to the kind's
 * columns, each record read (`kind.read`), the checks across rows (`kind.inFile`) — and the rows grouped
 * into batches of whole units. Pure CPU work: the server runs it in a worker thread (worker.ts), so it never
 * holds the thread that answers the handhelds.
 */

/** Rows a batch aims at; a unit with more rows (a delivery note of 500 lines) is a batch of its own. */
export const BATCH_ROWS = 20;

/** What reading found, before the database is asked. */
export interface FileFacts {
  /** Rows in the file (records with any text; without the header). */
  rows: number;
  /**
   * Refusals of the file, its header, lines and cells: those of the first LISTED_LINES refused lines, in
   * line order (`refusedLines` has every refused line).
   */
  refused: Refusal[];
  /** Every refused line. */
  refusedLines: LineSetData;
  /** The file as a whole was refused (unreadable CSV, a column missing or repeated): no batches. */
  fileRefused: boolean;
  /** Columns of the header that no column of the kind matches (ignored). */
  ignoredColumns: string[];
  /** Each column key the header has, with the header as the file spells it. */
  columns: [string, string][];
  /** Batches that follow (`RowSource.next`). */
  batches: number;
}

export interface FileRead {
  facts: FileFacts;
  batches: Line<unknown>[][];
}

/** Reads a decoded CSV text of `kindName`. `onProgress`: the share of the text parsed (0…1), now and then. */
export function readCsvText(
  kindName: KindName,
  text: string,
  onProgress?: (share: number) => void,
): FileRead {
  const kind = KINDS[kindName] as ImportKind<unknown>;
  let refusals = new Refusals();
  const facts: FileFacts = {
    rows: 0,
    refused: [],
    refusedLines: refusals.lines.data(),
    fileRefused: false,
    ignoredColumns: [],
    columns: [],
    batches: 0,
  };
  const withRefusals = () => {
    facts.refused = refusals.listed();
    facts.refusedLines = refusals.lines.data();
  };
  const refusedWhole = (): FileRead => {
    facts.fileRefused = true;
    withRefusals();
    return { facts, batches: [] };
  };
  let file: ReturnType<typeof openCsv>;
  try {
    file = openCsv(text, onProgress, LINE_MAX_CHARS);
  } catch (error) {
    if (!(error instanceof CsvSyntaxError)) throw error;
    refusals.add(refusal(error.line, WHOLE_FILE, error.reason));
    return refusedWhole();
  }

  // Header → columns.
  const index = new Map<string, { position: number; header: string }>();
  file.header.fields.forEach((name, position) => {
    const normalized = normalizeHeader(name);
    const column = kind.columns.find(
      (c) =>
        normalizeHeader(c.header) === normalized || c.aliases?.some((a) => normalizeHeader(a) === normalized),
    );
    if (!column) {
      if (name.trim() !== '') facts.ignoredColumns.push(name.trim());
      return;
    }
    if (index.has(column.key)) {
      const first = index.get(column.key)?.header ?? column.header;
      refusals.add(refusal(1, name.trim(), because('columnRepeated', { column: first })));
      return;
    }
    index.set(column.key, { position, header: name.trim() });
  });
  for (const column of kind.columns) {
    if (column.required && !index.has(column.key))
      refusals.add(refusal(1, column.header, because('columnMissing', {})));
  }
  if (refusals.rows > 0) return refusedWhole();
  facts.columns = [...index].map(([key, { header }]) => [key, header]);

  // Each record on its own, as it is parsed: its fields are garbage at once, only the row stays.
  const refuse = (problem: Refusal) => refusals.add(problem);
  const rows: Line<unknown>[] = [];
  const width = file.header.fields.length;
  const positions = [...index.values()];
  try {
    for (const record of file.records) {
      // Lines of only separators (Excel writes them below cells that were once formatted) are no rows.
      if (!record.fields.some((field) => field.trim() !== '')) continue;
      facts.rows++;
      if (record.fields.length > width && record.fields.slice(width).some((f) => f.trim() !== '')) {
        const fields = record.fields.length;
        refuse(refusal(record.line, WHOLE_LINE, because('tooManyFields', { fields, header: width })));
        continue;
      }
      // A cell longer than any column takes is refused before it is read (and never echoed back).
      const long = positions.filter(
        ({ position }) => (record.fields[position]?.length ?? 0) > CELL_MAX_CHARS,
      );
      if (long.length > 0) {
        for (const { header } of long)
          refuse(refusal(record.line, header, because('tooLong', { max: CELL_MAX_CHARS })));
        continue;
      }
      const reader = new RowReader(record.line, record.fields, index);
      const row = kind.read(reader);
      if (reader.problems.length > 0 || row === undefined) {
        for (const problem of reader.problems) refuse(problem);
        if (reader.problems.length === 0) refuse(refusal(record.line, WHOLE_LINE, because('unreadable', {})));
        continue;
      }
      rows.push({ line: record.line, row });
    }
  } catch (error) {
    if (!(error instanceof CsvSyntaxError)) throw error;
    facts.rows = 0;
    refusals = new Refusals();
    refusals.add(refusal(error.line, WHOLE_FILE, error.reason));
    return refusedWhole();
  }

  const ctx: FileContext = {
    present: new Set(index.keys()),
    header: (key) => index.get(key)?.header ?? kind.columns.find((c) => c.key === key)?.header ?? key,
    refuse: (line, key, why) => refuse(refusal(line, ctx.header(key), why)),
    isRefused: (line) => refusals.has(line),
  };
  kind.inFile?.(ctx, rows);
  const batches = batchesOfUnits(rows, (row) => kind.unit(row));
  facts.batches = batches.length;
  withRefusals();
  return { facts, batches };
}

/**
 * The rows in batches of about BATCH_ROWS, each unit's rows in one batch, the units in the order of their
 * first row (a unit's later rows join it wherever they stand in the file).
 */
export function batchesOfUnits<Row>(rows: Line<Row>[], unitOf: (row: Row) => string): Line<Row>[][] {
  // Most files list a unit's rows together (an ERP exports a note's lines one after another): then the
  // rows are cut in file order, without a list per unit.
  const seen = new Set<string>();
  let previous: string | undefined;
  let together = true;
  for (const r of rows) {
    const key = unitOf(r.row);
    if (key === previous) continue;
    if (seen.has(key)) {
      together = false;
      break;
    }
    seen.add(key);
    previous = key;
  }
  seen.clear();
  const units: Iterable<Line<Row>[]> = together ? runsOf(rows, unitOf) : groupedBy(rows, unitOf);
  const batches: Line<Row>[][] = [];
  let batch: Line<Row>[] = [];
  for (const unit of units) {
    if (batch.length > 0 && batch.length + unit.length > BATCH_ROWS) {
      batches.push(batch);
      batch = [];
    }
    batch.push(...unit);
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}

/** Consecutive rows of the same unit. */
function* runsOf<Row>(rows: Line<Row>[], unitOf: (row: Row) => string): Generator<Line<Row>[]> {
  let run: Line<Row>[] = [];
  let key: string | undefined;
  for (const r of rows) {
    const k = unitOf(r.row);
    if (run.length > 0 && k !== key) {
      yield run;
      run = [];
    }
    key = k;
    run.push(r);
  }
  if (run.length > 0) yield run;
}

/** Each unit's rows, units in the order of their first row. */
function groupedBy<Row>(rows: Line<Row>[], unitOf: (row: Row) => string): Iterable<Line<Row>[]> {
  const units = new Map<string, Line<Row>[]>();
  for (const r of rows) {
    const key = unitOf(r.row);
    const unit = units.get(key);
    if (unit) unit.push(r);
    else units.set(key, [r]);
  }
  return units.values();
}
