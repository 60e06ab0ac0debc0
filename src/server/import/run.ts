import type { Kysely, Transaction } from 'kysely';
import { type ImportSummary, WHOLE_FILE, WHOLE_LINE } from '../../contract/leitstand/import-messages.ts';
import type { Database } from '../db/schema.ts';
import { CsvSyntaxError, parseCsv } from './csv.ts';
import {
  type ImportContext,
  type ImportKind,
  type Line,
  normalizeHeader,
  type Refusal,
  RowReader,
  refusal,
} from './framework.ts';
import { KINDS, type KindName } from './kinds/index.ts';
import { because, summaryInEnglish } from './messages.ts';
import { type Progress, silentProgress } from './progress.ts';

export interface ImportOptions {
  /** Write the good rows even when some are refused. */
  skipBad?: boolean;
  progress?: Progress;
  imagesSource?: string | null;
  imagesDir: string;
}

export interface ImportReport {
  /** Rows in the file (without the header). */
  rows: number;
  /** Every refused row's problems, in line order. */
  refused: Refusal[];
  refusedRows: number;
  /** Rows written (not refused); 0 when nothing was written. */
  written: number;
  /** Whether the database was changed (false: all-or-nothing refused the file). */
  committed: boolean;
  /** The file as a whole was refused (unreadable CSV, a missing or repeated column). */
  fileRefused: boolean;
  /** Columns of the header that no column of the kind matches (ignored). */
  ignoredColumns: string[];
  /** What was written, as the CLI prints it (English). */
  summary: string[];
  /** The same by code and parameters (the Leitstand shows it in German). */
  summaryLines: ImportSummary[];
  seconds: number;
}

class NothingWritten extends Error {}

/**
 * Imports one CSV text of a kind: one transaction, all or nothing unless `skipBad`. When `db` is a
 * transaction already (the Leitstand's upload runs inside its exactly-once transaction) the import writes
 * in that one: a refused file writes nothing (rows are checked before the first write), and an error while
 * writing rolls the caller's transaction back whole.
 */
export async function importCsv(
  db: Kysely<Database>,
  kindName: KindName,
  text: string,
  options: ImportOptions,
): Promise<ImportReport> {
  const kind = KINDS[kindName] as ImportKind<unknown>;
  const progress = options.progress ?? silentProgress;
  const started = performance.now();
  const report: ImportReport = {
    rows: 0,
    refused: [],
    refusedRows: 0,
    written: 0,
    committed: false,
    fileRefused: false,
    ignoredColumns: [],
    summary: [],
    summaryLines: [],
    seconds: 0,
  };
  const finish = () => {
    report.refused.sort((a, b) => a.line - b.line);
    report.refusedRows = new Set(report.refused.map((r) => r.line)).size;
    report.seconds = (performance.now() - started) / 1000;
    return report;
  };

  progress.start('reading', 100, false);
  let file: ReturnType<typeof parseCsv>;
  try {
    file = parseCsv(text, (share) => progress.update(Math.floor(share * 100)));
  } catch (error) {
    if (!(error instanceof CsvSyntaxError)) throw error;
    report.refused.push(refusal(error.line, WHOLE_FILE, error.reason));
    report.fileRefused = true;
    return finish();
  } finally {
    progress.done();
  }
  // Lines of only separators (Excel writes them below cells that were once formatted) are no rows.
  const records = file.records.filter((record) => record.fields.some((field) => field.trim() !== ''));
  report.rows = records.length;

  // Header → columns.
  const index = new Map<string, { position: number; header: string }>();
  file.header.fields.forEach((name, position) => {
    const normalized = normalizeHeader(name);
    const column = kind.columns.find(
      (c) =>
        normalizeHeader(c.header) === normalized || c.aliases?.some((a) => normalizeHeader(a) === normalized),
    );
    if (!column) {
      if (name.trim() !== '') report.ignoredColumns.push(name.trim());
      return;
    }
    if (index.has(column.key)) {
      const first = index.get(column.key)?.header ?? column.header;
      report.refused.push(refusal(1, name.trim(), because('columnRepeated', { column: first })));
      return;
    }
    index.set(column.key, { position, header: name.trim() });
  });
  for (const column of kind.columns) {
    if (column.required && !index.has(column.key)) {
      report.refused.push(refusal(1, column.header, because('columnMissing', {})));
    }
  }
  if (report.refused.length > 0) {
    report.fileRefused = true;
    return finish();
  }

  // Each record on its own.
  const refusedLines = new Set<number>();
  const refuse = (problem: Refusal) => {
    report.refused.push(problem);
    refusedLines.add(problem.line);
  };
  const rows: Line<unknown>[] = [];
  const width = file.header.fields.length;
  for (const record of records) {
    if (record.fields.length > width && record.fields.slice(width).some((f) => f.trim() !== '')) {
      const fields = record.fields.length;
      refuse(refusal(record.line, WHOLE_LINE, because('tooManyFields', { fields, header: width })));
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

  const afterCommit: (() => void)[] = [];
  // Pictures are copied after the commit, which a caller's transaction does later: no --images there.
  if (db.isTransaction && options.imagesSource)
    throw new Error('importCsv: --images needs its own transaction');
  const inTransaction = (work: (trx: Transaction<Database>) => Promise<void>) =>
    db.isTransaction ? work(db as Transaction<Database>) : db.transaction().execute(work);
  try {
    await inTransaction(async (trx) => {
      const ctx: ImportContext = {
        trx,
        present: new Set(index.keys()),
        header: (key) => index.get(key)?.header ?? kind.columns.find((c) => c.key === key)?.header ?? key,
        refuse: (line, key, why) => refuse(refusal(line, ctx.header(key), why)),
        isRefused: (line) => refusedLines.has(line),
        progress,
        imagesSource: options.imagesSource ?? null,
        imagesDir: options.imagesDir,
        afterCommit: (job) => afterCommit.push(job),
      };
      // References are looked up in a few large queries: no steps to count, but say what is going on.
      progress.start('checking', 1, false);
      await kind.check(ctx, rows);
      progress.done();
      if (refusedLines.size > 0 && !options.skipBad) throw new NothingWritten();
      const good = rows.filter((r) => !refusedLines.has(r.line));
      report.summaryLines = await kind.write(ctx, good);
      report.summary = report.summaryLines.map(summaryInEnglish);
      report.written = good.length;
    });
  } catch (error) {
    if (error instanceof NothingWritten) return finish();
    throw error;
  }
  report.committed = true;
  for (const job of afterCommit) job();
  return finish();
}

/** The report as the CLI prints it. */
export function formatReport(report: ImportReport, options: { skipBad: boolean }): string {
  const lines: string[] = [];
  if (report.ignoredColumns.length > 0) lines.push(`Ignored columns: ${report.ignoredColumns.join(', ')}`);
  for (const r of report.refused) lines.push(`line ${r.line}: ${r.column}: ${r.reason}`);
  if (!report.committed) {
    lines.push(
      report.fileRefused
        ? 'The file was refused. Nothing was written.'
        : `${report.refusedRows} of ${report.rows} rows refused. Nothing was written (--skip-bad writes the good rows).`,
    );
    return lines.join('\n');
  }
  lines.push(...report.summary);
  const rate = report.seconds > 0 ? Math.round(report.rows / report.seconds) : report.rows;
  if (options.skipBad && report.refusedRows > 0) {
    lines.push(
      `${report.refusedRows} of ${report.rows} rows refused and skipped; ${report.written} written.`,
    );
  }
  lines.push(
    `${report.written} rows imported in ${report.seconds.toFixed(1)} s (${rate.toLocaleString('en')} rows/s).`,
  );
  return lines.join('\n');
}

/**
 * Rows that did not come from a CSV file (the integration call that pushes one receipt) through a kind's
 * checks and writes, with the import's rule: all or nothing. `header` names a column key as the caller's
 * format names the field. Answers the refusals (nothing written) or what `write` answered.
 */
export async function importRecords<Row, T>(
  db: Kysely<Database>,
  rows: Line<Row>[],
  steps: {
    present: Set<string>;
    header: (key: string) => string;
    check: (ctx: ImportContext, rows: Line<Row>[]) => Promise<void>;
    write: (ctx: ImportContext, rows: Line<Row>[]) => Promise<T>;
  },
): Promise<{ refused: Refusal[] } | { refused: null; result: T }> {
  const refused: Refusal[] = [];
  const refusedLines = new Set<number>();
  const run = async (trx: Transaction<Database>) => {
    const ctx: ImportContext = {
      trx,
      present: steps.present,
      header: steps.header,
      refuse: (line, key, reason) => {
        refused.push(refusal(line, steps.header(key), reason));
        refusedLines.add(line);
      },
      isRefused: (line) => refusedLines.has(line),
      progress: silentProgress,
      imagesSource: null,
      imagesDir: '',
      afterCommit: () => {
        throw new Error('importRecords: no work after the commit');
      },
    };
    await steps.check(ctx, rows);
    if (refused.length > 0) throw new NothingWritten();
    return steps.write(ctx, rows);
  };
  try {
    const result = db.isTransaction
      ? await run(db as Transaction<Database>)
      : await db.transaction().execute(run);
    return { refused: null, result };
  } catch (error) {
    if (error instanceof NothingWritten) return { refused: refused.sort((a, b) => a.line - b.line) };
    throw error;
  }
}
