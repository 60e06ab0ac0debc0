// Over 400 lines: the life of one import run (create, stage in steps, apply, finish, close, resume after a
// restart) over its one run row; the steps share the run's state and its rules (decision 30).
import { type Kysely, sql, type Transaction } from 'kysely';
import type { ImportSummary } from '../../contract/leitstand/import-messages.ts';
import type { Database } from '../db/schema.ts';
import { StepSize, type Steps } from '../http/back-office.ts';
import { recordAudit } from '../repositories/audit.repository.ts';
import type { CsvEncoding } from './encoding.ts';
import { type ImportContext, type ImportKind, type Line, mergeSummaries } from './framework.ts';
import { KINDS, type KindName } from './kinds/index.ts';
import { summaryInEnglish } from './messages.ts';
import { type Progress, silentProgress } from './progress.ts';
import { BATCH_ROWS } from './read.ts';
import { firstListed, type Refusal, Refusals, refusal } from './rows.ts';
import type { RowSource } from './source.ts';

/**
 * An import in steps (docs/decisions/0030-import-in-steps.md). Never one long transaction: on the embedded
 * database that would hold the only session — every handheld — for seconds, and on PostgreSQL the stock
 * rows' locks against the handhelds' bookings.
 *
 * 1. **Staging** (`stageRun`): the rows come read and checked in-file (RowSource: a worker thread); a few
 *    units at a time are checked against the database and, while the file is still good, kept as JSON in
 *    `import_batches` — one short transaction per step. A refusal (unless --skip-bad) or a crash here and
 *    the run is dropped (`closeRun`): nothing was written.
 * 2. **Applying** (`applyRun`): a few staged batches per transaction are checked again and written, and in
 *    the same transaction the run's progress moves on and those batches are deleted. A crash here and the
 *    run is completed where it stopped (`resumeRuns`, at the server's next start): applied once, wholly.
 *    A unit the floor changed in between so that it no longer passes (a note packed meanwhile) is not
 *    written, and the report lists it.
 * 3. **Done**: in the last step the report becomes the answer stored under the upload's idempotency key,
 *    with its audit entry, and the run is deleted.
 */

export interface ImportReport {
  /** Rows in the file (without the header). */
  rows: number;
  /** The problems of the first LISTED_LINES refused rows, in line order. */
  refused: Refusal[];
  refusedRows: number;
  /** Refused rows beyond those listed in `refused`. */
  unlistedRows: number;
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
  /** How the file was read. */
  encoding: CsvEncoding;
  seconds: number;
}

/** What an engine run needs around it: the database, its steps (the gate's lane, or directSteps). */
export interface Engine {
  db: Kysely<Database>;
  steps: Steps;
  /** Where the server serves pictures from (projects with --images). */
  imagesDir: string;
  progress?: Progress;
}

/**
 * The steps of a run go on without waiting for their commits to reach the disk (the embedded database's WAL
 * sync, decision 28): until the report nobody is told of them, and a run cut off by a crash is dropped
 * (staging) or completed from what is on disk (applying) — the WAL is one sequence, so what is on disk is
 * always a prefix of the steps. Waiting after every step, the 100,000-article import took 2–3 × as long as
 * its steps' work (issue 37). Where something is told — the report, a picture copied under a carton's id —
 * `onDisk` waits first, and covers every step before it.
 */
const ahead = { waitForDisk: false } as const;

/** Waits until every commit so far is on disk: any step does at its end (a read as well). */
const onDisk = (engine: Pick<Engine, 'db' | 'steps'>) =>
  engine.steps.run(() => sql`select 1`.execute(engine.db));

export interface RunOptions {
  kind: KindName;
  fileName: string;
  /** Write the good rows even when some are refused (the CLI's --skip-bad). */
  skipBad: boolean;
  /** A users file must leave an active admin (the Leitstand's upload). */
  keepAnAdmin: boolean;
  imagesSource: string | null;
  /** The upload's X-Idempotency-Key and its user: the report is stored there, the audit names them. */
  requestKey: string | null;
  userId: number | null;
}

/** What the checks and writes of a run need, kept with the run (a server completing it after a crash). */
interface Settings {
  kind: KindName;
  skipBad: boolean;
  keepAnAdmin: boolean;
  imagesSource: string | null;
  encoding: CsvEncoding;
  columns: [string, string][];
}

/** The file's figures, kept with the run when its rows are staged. */
interface Facts {
  rows: number;
  /** The first LISTED_LINES refused lines' refusals (--skip-bad). */
  refused: Refusal[];
  /** Lines refused (absent in a run staged before it was kept). */
  refusedRows?: number;
  ignoredColumns: string[];
  staged: number;
}

/** An import whose run is gone (another server completed or dropped it): read the stored answer instead. */
export class RunGone extends Error {
  constructor(readonly runId: number) {
    super(`import run ${runId}: no longer at work`);
    this.name = 'RunGone';
  }
}

/** Starts a run (in the caller's transaction: the upload claims its key in the same one). */
export async function createRun(db: Kysely<Database>, options: RunOptions): Promise<number> {
  const settings = {
    kind: options.kind,
    skipBad: options.skipBad,
    keepAnAdmin: options.keepAnAdmin,
    imagesSource: options.imagesSource,
  };
  const { id } = await db
    .insertInto('import_runs')
    .values({
      kind: options.kind,
      file_name: options.fileName,
      request_key: options.requestKey,
      user_id: options.userId,
      state: 'staging',
      settings: JSON.stringify(settings),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export type StageResult =
  /** The file could not be opened (not the call's body, not UTF-8 or Windows-1252): nothing staged. */
  | { opened: false; invalid?: string; undecodable?: string }
  /** Refused (whole file, or rows without --skip-bad): nothing was written; the caller drops the run. */
  | { opened: true; refused: ImportReport }
  /** Every row checked and staged: the run is being applied (applyRun). */
  | { opened: true; refused: null };

/**
 * Reads, checks and stages the file of run `runId`. On a refusal nothing was written: the caller drops the
 * run, storing the refused report as its key's answer (closeRun). Throws (LeavesNoAdmin, TooManyRows, a
 * database error) with the run still staging: the caller drops it too.
 */
export async function stageRun(
  engine: Engine,
  runId: number,
  options: RunOptions,
  source: RowSource,
): Promise<StageResult> {
  const started = performance.now();
  const progress = engine.progress ?? silentProgress;
  const opened = await source.opened;
  if (!opened.ok) {
    return 'invalid' in opened
      ? { opened: false, invalid: opened.invalid }
      : { opened: false, undecodable: opened.undecodable };
  }
  const { facts } = opened;
  const refusals = new Refusals({ listed: facts.refused, lines: facts.refusedLines });
  const refusedReport = (): ImportReport =>
    report({
      rows: facts.rows,
      refused: refusals.listed(),
      refusedRows: refusals.rows,
      ignoredColumns: facts.ignoredColumns,
      encoding: opened.encoding,
      fileRefused: facts.fileRefused,
      committed: false,
      written: 0,
      summary: [],
      seconds: (performance.now() - started) / 1000,
    });
  if (facts.fileRefused) return { opened: true, refused: refusedReport() };

  const settings: Settings = {
    kind: options.kind,
    skipBad: options.skipBad,
    keepAnAdmin: options.keepAnAdmin,
    imagesSource: options.imagesSource,
    encoding: opened.encoding,
    columns: facts.columns,
  };
  const kind = KINDS[options.kind] as ImportKind<unknown>;
  const memo = new Map<string, unknown>();
  const contextOf = (trx: Transaction<Database>) =>
    context(trx, settings, engine.imagesDir, 'check', memo, {
      refuse: (problem) => refusals.add(problem),
      isRefused: (line) => refusals.has(line),
      afterCommit: () => {},
    });
  const good = () => options.skipBad || refusals.rows === 0;
  let batches = 0;
  let staged = 0;
  const stage = async (trx: Transaction<Database>, group: Line<unknown>[][]) => {
    const parts = group.map((b) => b.filter((r) => !refusals.has(r.line))).filter((b) => b.length > 0);
    if (parts.length === 0) return;
    await trx
      .insertInto('import_batches')
      .values(parts.map((rows) => ({ run_id: runId, batch: ++batches, rows: JSON.stringify(rows) })))
      .execute();
    await trx.updateTable('import_runs').set({ touched_at: sql`now()` }).where('id', '=', runId).execute();
    staged += parts.reduce((n, b) => n + b.length, 0);
  };

  // A step of rows that need no database check (articles) costs only their staging: still at most 1,000.
  const size = new StepSize({ max: 1000, start: 200, min: 1 });
  let checked = 0;
  progress.start('checking', facts.rows);
  for (;;) {
    const group: Line<unknown>[][] = [];
    for (let n = 0; n < size.rows; ) {
      const batch = await source.next();
      if (!batch) break;
      group.push(batch);
      n += batch.length;
    }
    if (group.length === 0) break;
    const rows = group.flat();
    await engine.steps.run(
      () =>
        size.timed(async () => {
          await engine.db.transaction().execute(async (trx) => {
            await kind.check(contextOf(trx), rows);
            if (good() && !kind.prepare) await stage(trx, group);
          });
          return { rows: rows.length };
        }),
      ahead,
    );
    if (good() && kind.prepare) {
      // Secrets become hashes before anything is staged (users: scrypt, on libuv's threads, between steps).
      const parts: Line<unknown>[][] = [];
      for (const batch of group) {
        const kept = batch.filter((r) => !refusals.has(r.line));
        parts.push(
          kept.length === 0
            ? []
            : await kind.prepare({ read: (work) => engine.steps.run(() => work(engine.db)) }, kept),
        );
      }
      await engine.steps.run(() => engine.db.transaction().execute((trx) => stage(trx, parts)), ahead);
    }
    checked += rows.length;
    progress.update(checked);
  }
  progress.done();
  await source.close();
  if (kind.afterCheck) {
    const afterCheck = kind.afterCheck;
    await engine.steps.run(() => engine.db.transaction().execute((trx) => afterCheck(contextOf(trx))), ahead);
  }
  if (!good()) return { opened: true, refused: refusedReport() };
  const kept: Facts = {
    rows: facts.rows,
    refused: refusals.listed(),
    refusedRows: refusals.rows,
    ignoredColumns: facts.ignoredColumns,
    staged,
  };
  await engine.steps.run(
    () =>
      engine.db
        .updateTable('import_runs')
        .set({
          state: 'applying',
          file_name: opened.fileName || options.fileName,
          settings: JSON.stringify(settings),
          facts: JSON.stringify(kept),
          batches,
          touched_at: sql`now()`,
        })
        .where('id', '=', runId)
        .execute(),
    ahead,
  );
  return { opened: true, refused: null };
}

/**
 * Writes the staged batches of run `runId` from where it stands, a few per transaction, then finishes it:
 * its report becomes the stored answer of its idempotency key (with the audit entry) and the run is
 * deleted. Several servers may do this at once (PostgreSQL): the run's row is locked in each step and its
 * progress read there, so each batch is written once. Throws RunGone when another finished it.
 */
export async function applyRun(engine: Engine, runId: number): Promise<ImportReport> {
  const progress = engine.progress ?? silentProgress;
  const size = new StepSize({ max: 1000, start: 200, min: 1 });
  const memo = new Map<string, unknown>();
  let shown = false;
  for (;;) {
    const pictures: (() => void)[] = [];
    const step = await engine.steps.run(
      () =>
        size.timed(async (rowsWanted) => {
          const outcome = await engine.db.transaction().execute(async (trx) => {
            const run = await trx
              .selectFrom('import_runs')
              .selectAll()
              .where('id', '=', runId)
              .forUpdate()
              .executeTakeFirst();
            if (run?.state !== 'applying' || !run.facts) throw new RunGone(runId);
            const settings = JSON.parse(run.settings) as Settings;
            const facts = JSON.parse(run.facts) as Facts;
            if (!shown) {
              progress.start('writing', facts.staged);
              shown = true;
            }
            const staged = await trx
              .selectFrom('import_batches')
              .select(['batch', 'rows'])
              .where('run_id', '=', runId)
              .orderBy('batch')
              .limit(Math.max(1, Math.ceil(rowsWanted / BATCH_ROWS)))
              .execute();
            if (staged.length === 0) return { rows: 0, report: await finish(trx, run, settings, facts) };
            const rows = staged.flatMap((b) => JSON.parse(b.rows) as Line<unknown>[]);
            const raced: Refusal[] = [];
            const racedLines = new Set<number>();
            const ctx = context(trx, settings, engine.imagesDir, 'apply', memo, {
              refuse: (problem) => {
                raced.push(problem);
                racedLines.add(problem.line);
              },
              isRefused: (line) => racedLines.has(line),
              afterCommit: (job) => pictures.push(job),
            });
            const kind = KINDS[settings.kind] as ImportKind<unknown>;
            await kind.check(ctx, rows);
            const good = rows.filter((r) => !racedLines.has(r.line));
            const lines = await kind.write(ctx, good);
            const last = staged[staged.length - 1]?.batch ?? 0;
            await trx
              .updateTable('import_runs')
              .set({
                applied: run.applied + staged.length,
                written: run.written + good.length,
                summary: JSON.stringify(mergeSummaries(JSON.parse(run.summary), lines)),
                // Only the first lines are kept: the count of raced rows is staged − written.
                raced:
                  raced.length > 0
                    ? JSON.stringify(firstListed([...JSON.parse(run.raced), ...raced]))
                    : run.raced,
                touched_at: sql`now()`,
              })
              .where('id', '=', runId)
              .execute();
            await trx
              .deleteFrom('import_batches')
              .where('run_id', '=', runId)
              .where('batch', '<=', last)
              .execute();
            return { rows: rows.length, report: null, written: run.written + good.length };
          });
          return outcome;
        }),
      ahead,
    );
    // Pictures are copied once their cartons are on disk (their ids are the file names: a carton lost to a
    // power cut could give its id to another, which would show this picture).
    if (pictures.length > 0) await onDisk(engine);
    for (const job of pictures) job();
    if (step.report) {
      // The report is the answer (and the stored one): told only once the whole run is on disk.
      await onDisk(engine);
      progress.done();
      return step.report;
    }
    progress.update(step.written ?? 0);
  }
}

/** The last step: the report, stored as the key's answer with the audit entry; the run deleted. */
async function finish(
  trx: Transaction<Database>,
  run: {
    id: number;
    kind: string;
    file_name: string;
    request_key: string | null;
    user_id: number | null;
    written: number;
    summary: string;
    raced: string;
    started_at: Date;
  },
  settings: Settings,
  facts: Facts,
): Promise<ImportReport> {
  let summary = JSON.parse(run.summary) as ImportSummary[];
  if (summary.length === 0) {
    // Nothing to write (a header without rows, or only refused ones): the kind's summary of nothing.
    const kind = KINDS[settings.kind] as ImportKind<unknown>;
    const ctx = context(trx, settings, '', 'apply', new Map(), {
      refuse: () => {},
      isRefused: () => false,
      afterCommit: () => {},
    });
    summary = await kind.write(ctx, []);
  }
  // Every staged row was written or refused as raced (its unit changed on the floor meanwhile).
  const refusedRows =
    (facts.refusedRows ?? new Set(facts.refused.map((r) => r.line)).size) +
    Math.max(0, facts.staged - run.written);
  const result = report({
    rows: facts.rows,
    refused: [...facts.refused, ...(JSON.parse(run.raced) as Refusal[])],
    refusedRows,
    ignoredColumns: facts.ignoredColumns,
    encoding: settings.encoding,
    fileRefused: false,
    committed: true,
    written: run.written,
    summary,
    seconds: Math.max(0, (Date.now() - new Date(run.started_at).getTime()) / 1000),
  });
  if (run.user_id !== null) {
    await recordAudit(trx, {
      userId: run.user_id,
      requestKey: run.request_key,
      action: `import.${settings.kind}`,
      subject: run.file_name,
      detail: {
        kind: settings.kind,
        rows: result.rows,
        written: result.written,
        encoding: settings.encoding,
      },
    });
  }
  if (run.request_key !== null) await storeAnswer(trx, run.request_key, 200, answerOf(result));
  await trx.deleteFrom('import_runs').where('id', '=', run.id).execute();
  return result;
}

/**
 * Drops run `runId` — refused, failed while staging, or found dead — deleting its staged batches a step
 * at a time. Its key gets `outcome` as the stored answer (a refusal), or is freed (null) so that a repeat
 * of the upload does the work. A run already applying is never dropped (it is completed instead).
 */
export async function closeRun(
  engine: Pick<Engine, 'db' | 'steps'>,
  runId: number,
  outcome: { status: number; body: unknown } | null,
): Promise<void> {
  for (;;) {
    const deleted = await engine.steps.run(() =>
      sql`delete from import_batches where run_id = ${runId} and batch in (
            select batch from import_batches where run_id = ${runId} order by batch limit 200)`.execute(
        engine.db,
      ),
    );
    if (Number(deleted.numAffectedRows ?? 0) === 0) break;
  }
  await engine.steps.run(() =>
    engine.db.transaction().execute(async (trx) => {
      const run = await trx
        .deleteFrom('import_runs')
        .where('id', '=', runId)
        .where('state', '=', 'staging')
        .returning('request_key')
        .executeTakeFirst();
      if (!run?.request_key) return;
      if (outcome) await storeAnswer(trx, run.request_key, outcome.status, outcome.body);
      else
        await trx
          .deleteFrom('idempotency')
          .where('key', '=', run.request_key)
          .where('status_code', '=', 0)
          .execute();
    }),
  );
}

async function storeAnswer(trx: Kysely<Database>, key: string, status: number, body: unknown): Promise<void> {
  await trx
    .updateTable('idempotency')
    .set({ status_code: status, response: JSON.stringify(body) })
    .where('key', '=', key)
    .where('status_code', '=', 0)
    .execute();
}

/** The Leitstand's answer to an upload (contract runImport's response) from a report. */
export function answerOf(result: ImportReport) {
  return {
    imported: result.committed,
    encoding: result.encoding,
    rows: result.rows,
    written: result.written,
    refusedRows: result.refusedRows,
    fileRefused: result.fileRefused,
    lineErrors: result.refused,
    unlistedRows: result.unlistedRows,
    ignoredColumns: result.ignoredColumns,
    summary: result.summaryLines.map((line) => ({ ...line, text: summaryInEnglish(line) })),
  };
}

/** The runs at work in the database, for a server that starts or a repeat of an upload that waits. */
export interface PendingRun {
  id: number;
  state: 'staging' | 'applying';
  requestKey: string | null;
  /** Not touched for `staleMs`: its server is gone (PostgreSQL, several servers). */
  stale: boolean;
}

export async function pendingRuns(
  db: Kysely<Database>,
  staleMs: number,
  requestKey?: string,
): Promise<PendingRun[]> {
  let query = db
    .selectFrom('import_runs')
    .select([
      'id',
      'state',
      'request_key',
      sql<boolean>`touched_at < now() - make_interval(secs => ${staleMs / 1000})`.as('stale'),
    ])
    .orderBy('id');
  if (requestKey !== undefined) query = query.where('request_key', '=', requestKey);
  const rows = await query.execute();
  return rows.map((r) => ({ id: r.id, state: r.state, requestKey: r.request_key, stale: r.stale }));
}

function report(parts: {
  rows: number;
  /** Refusals, of which those of the first LISTED_LINES lines are reported. */
  refused: Refusal[];
  /** Lines refused in all. */
  refusedRows: number;
  ignoredColumns: string[];
  encoding: CsvEncoding;
  fileRefused: boolean;
  committed: boolean;
  written: number;
  summary: ImportSummary[];
  seconds: number;
}): ImportReport {
  const refused = firstListed(parts.refused);
  const listedRows = new Set(refused.map((r) => r.line)).size;
  return {
    rows: parts.rows,
    refused,
    refusedRows: Math.max(parts.refusedRows, listedRows),
    unlistedRows: Math.max(0, parts.refusedRows - listedRows),
    written: parts.written,
    committed: parts.committed,
    fileRefused: parts.fileRefused,
    ignoredColumns: parts.ignoredColumns,
    summary: parts.summary.map(summaryInEnglish),
    summaryLines: parts.summary,
    encoding: parts.encoding,
    seconds: parts.seconds,
  };
}

function context(
  trx: Transaction<Database>,
  settings: Settings,
  imagesDir: string,
  phase: ImportContext['phase'],
  memo: Map<string, unknown>,
  hooks: {
    refuse: (problem: Refusal) => void;
    isRefused: (line: number) => boolean;
    afterCommit: (job: () => void) => void;
  },
): ImportContext {
  const kind = KINDS[settings.kind] as ImportKind<unknown>;
  const headers = new Map(settings.columns);
  const header = (key: string) => headers.get(key) ?? kind.columns.find((c) => c.key === key)?.header ?? key;
  return {
    trx,
    present: new Set(headers.keys()),
    header,
    refuse: (line, key, why) => hooks.refuse(refusal(line, header(key), why)),
    isRefused: hooks.isRefused,
    phase,
    keepAnAdmin: settings.keepAnAdmin,
    memo,
    imagesSource: settings.imagesSource,
    imagesDir,
    afterCommit: hooks.afterCommit,
  };
}
