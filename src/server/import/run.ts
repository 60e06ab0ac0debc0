import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { directSteps, type Steps } from '../http/back-office.ts';
import type { ImportContext, Line } from './framework.ts';
import type { KindName } from './kinds/index.ts';
import type { Progress } from './progress.ts';
import { LISTED_LINES, type Refusal, refusal } from './rows.ts';
import { type RowSource, textSource } from './source.ts';
import { applyRun, closeRun, createRun, type ImportReport, stageRun } from './staged.ts';

export type { ImportReport } from './staged.ts';

export interface ImportOptions {
  /** Write the good rows even when some are refused. */
  skipBad?: boolean;
  progress?: Progress;
  imagesSource?: string | null;
  imagesDir: string;
  /** The steps the work is cut into (the server's gate lane; directSteps in a process of its own). */
  steps?: Steps;
}

/**
 * Imports one CSV text of a kind, all or nothing unless `skipBad`: read, checked and staged a few units at
 * a time, then written a few units per transaction (staged.ts). For a text already in memory; the CLI and
 * the server read a file in a worker thread (importSource).
 */
export function importCsv(
  db: Kysely<Database>,
  kindName: KindName,
  text: string,
  options: ImportOptions,
): Promise<ImportReport> {
  return importSource(db, kindName, textSource(kindName, text), options);
}

/** Imports what `source` reads (no idempotency key: `npm run import`, tests). */
export async function importSource(
  db: Kysely<Database>,
  kindName: KindName,
  source: RowSource,
  options: ImportOptions,
): Promise<ImportReport> {
  const engine = {
    db,
    steps: options.steps ?? directSteps,
    imagesDir: options.imagesDir,
    ...(options.progress ? { progress: options.progress } : {}),
  };
  const runOptions = {
    kind: kindName,
    fileName: '',
    skipBad: options.skipBad ?? false,
    keepAnAdmin: false,
    imagesSource: options.imagesSource ?? null,
    requestKey: null,
    userId: null,
  };
  const runId = await engine.steps.run(() => createRun(db, runOptions));
  try {
    const staged = await stageRun(engine, runId, runOptions, source);
    if (!staged.opened) throw new Error(staged.invalid ?? staged.undecodable ?? 'the file cannot be read');
    if (staged.refused) {
      await closeRun(engine, runId, null);
      return staged.refused;
    }
  } catch (error) {
    await closeRun(engine, runId, null);
    throw error;
  } finally {
    await source.close();
  }
  return applyRun(engine, runId);
}

/** The report as the CLI prints it. */
export function formatReport(report: ImportReport, options: { skipBad: boolean }): string {
  const lines: string[] = [];
  if (report.ignoredColumns.length > 0) lines.push(`Ignored columns: ${report.ignoredColumns.join(', ')}`);
  for (const r of report.refused) lines.push(`line ${r.line}: ${r.column}: ${r.reason}`);
  if (report.unlistedRows > 0)
    lines.push(
      `… and ${report.unlistedRows} more refused lines, not listed (the first ${LISTED_LINES} are).`,
    );
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

class NothingWritten extends Error {}

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
      phase: 'check',
      keepAnAdmin: false,
      memo: new Map(),
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
