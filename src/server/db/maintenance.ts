import { setImmediate as nextTurn } from 'node:timers/promises';
import { type Kysely, sql } from 'kysely';
import type { Database } from './schema.ts';

/**
 * What PostgreSQL's autovacuum does, for the embedded database (decision 29). PGlite runs PostgreSQL in
 * single-user mode, where autovacuum never starts: without this, the space of every row the hourly
 * housekeeping deletes (exactly-once records, sessions, counters) and of every updated stock row is never
 * reused — the tables grow with every booking, for ever — planner statistics are never renewed, and after
 * ~2 billion transactions PostgreSQL would stop taking writes (transaction-id wraparound).
 *
 * Each table's use is read from PostgreSQL's own counters (`pg_stat_user_tables`), and a table is due by
 * autovacuum's rules: dead rows above 50 + 20 % of its rows, rows inserted since its last vacuum above
 * 1,000 + 20 %, rows changed since its last analyse above 50 + 10 %. PGlite keeps those counters in memory
 * only (they start at 0 with every start, and a command such as `npm run import` takes its own with it), so
 * the catalog is read too: a table with more than 20 % of its pages written since its last vacuum is
 * vacuumed, one with rows never analysed or whose size moved more than 10 % from the one its statistics were taken at
 * is analysed; and every table is vacuumed at least once a day (counted from the server's start; a vacuum
 * with nothing to do skips its all-frozen pages and costs next to nothing).
 *
 * Every statement runs on the server's one thread and cannot be interrupted, so the work is cut into steps —
 * one table's VACUUM or ANALYZE each — and each step runs as one unit of work that handheld calls go between
 * (`runUnit`: the admission gate). A vacuum always freezes (`FREEZE`): a page once frozen is skipped by every
 * later vacuum, so a vacuum's work is the pages written since the one before — small when done often — and
 * no anti-wraparound vacuum ever has to read a whole large table at once. What a step costs is estimated
 * from the table's pages and rows (rates measured on the large seed, decision 29); a step estimated above
 * `STEP_BUDGET_MS` — an analyse of a table of many thousand rows, a vacuum that must clean large indexes —
 * waits until the floor is quiet (no API call for a few seconds), and after a day of waiting runs anyway,
 * with a warning.
 *
 * Never on PostgreSQL: its autovacuum does all this in processes of its own.
 */

/** autovacuum's defaults (postgresql.conf): the thresholds above. */
const VACUUM_THRESHOLD = 50;
const VACUUM_SCALE = 0.2;
const INSERT_THRESHOLD = 1000;
const INSERT_SCALE = 0.2;
const ANALYZE_THRESHOLD = 50;
const ANALYZE_SCALE = 0.1;
/** Every table is vacuumed at least this often (ms), whatever the counters say. */
export const EVERY_TABLE_MS = 24 * 60 * 60 * 1000;
/** A step estimated longer than this (ms) waits for a quiet floor (see `PgliteMaintenance`). */
export const STEP_BUDGET_MS = 50;
/** …but no longer than this (ms): then it runs anyway. */
const LONGEST_DEFERRAL_MS = 24 * 60 * 60 * 1000;
/**
 * What a step costs (ms), measured on the large seed on this project's 2-core machines and rounded up
 * (decision 29): a vacuum per heap page it reads (those not all-visible, and one per dead row at most) and
 * per index page when it must clean the indexes; an analyse per row of its sample (up to 30,000 rows: 129 to
 * 687 ms for the large seed's tables of 50,000 rows and more, more columns costing more).
 */
const VACUUM_MS_PER_HEAP_PAGE = 0.05;
const VACUUM_MS_PER_INDEX_PAGE = 0.02;
const ANALYZE_MS_PER_ROW = 0.025;
/** ANALYZE samples 300 × default_statistics_target (100) rows. */
const ANALYZE_SAMPLE_ROWS = 30_000;

export interface TableUse {
  table: string;
  /** The heap's 8 KiB pages now, and those its statistics were taken at (0: never). */
  pages: number;
  statisticsPages: number;
  /** Pages the last vacuum found all-visible. */
  allVisiblePages: number;
  indexPages: number;
  /** The planner's row count; -1 before the first vacuum or analyse. */
  rows: number;
  deadRows: number;
  insertedSinceVacuum: number;
  changedSinceAnalyze: number;
  /** ms since the epoch, null when not since this process started. */
  lastVacuum: number | null;
}

export type Step =
  | { kind: 'vacuum' | 'analyze'; table: string; estimateMs: number }
  /** datfrozenxid from the tables' own, which the table steps skip (SKIP_DATABASE_STATS). */
  | { kind: 'database'; estimateMs: number };

/** The application's tables and what PostgreSQL counted of their use since its last start. */
export async function tableUse(db: Kysely<Database>): Promise<TableUse[]> {
  const { rows } = await sql<{
    table: string;
    pages: number;
    statistics_pages: number;
    all_visible: number;
    index_pages: number;
    rows: number;
    dead: number;
    inserted: number;
    changed: number;
    last_vacuum: Date | null;
  }>`select s.relname as table,
        (pg_relation_size(c.oid) / 8192)::int as pages, c.relpages as statistics_pages,
        c.relallvisible as all_visible, s.n_dead_tup as dead, s.n_ins_since_vacuum as inserted,
        s.n_mod_since_analyze as changed, greatest(s.last_vacuum, s.last_autovacuum) as last_vacuum,
        c.reltuples::int8 as rows,
        -- the indexes' size as of their last vacuum: asking the files (pg_indexes_size) took 130 ms
        coalesce((select sum(i.relpages) from pg_index x join pg_class i on i.oid = x.indexrelid
          where x.indrelid = c.oid), 0)::int as index_pages
      from pg_stat_user_tables s join pg_class c on c.oid = s.relid
      where s.schemaname = current_schema()
      order by s.relname`.execute(db);
  return rows.map((r) => ({
    table: r.table,
    pages: r.pages,
    statisticsPages: r.statistics_pages,
    allVisiblePages: Math.min(r.all_visible, r.pages),
    indexPages: r.index_pages,
    rows: r.rows,
    deadRows: r.dead,
    insertedSinceVacuum: r.inserted,
    changedSinceAnalyze: r.changed,
    lastVacuum: r.last_vacuum ? new Date(r.last_vacuum).getTime() : null,
  }));
}

/**
 * What a vacuum of this table is expected to take (ms): the heap pages not all-visible (and each dead row's
 * page), and the indexes when it will have to clean them — PostgreSQL skips that while dead rows sit on under
 * 2 % of the pages (INDEX_CLEANUP AUTO), here taken as dead rows under 2 % of the pages.
 */
export function vacuumEstimateMs(use: TableUse): number {
  const heapPages = Math.min(use.pages, use.pages - use.allVisiblePages + use.deadRows);
  const indexes = use.deadRows > 0.02 * use.pages ? use.indexPages * VACUUM_MS_PER_INDEX_PAGE : 0;
  return heapPages * VACUUM_MS_PER_HEAP_PAGE + indexes;
}

/** What an analyse of this table is expected to take (ms): its sample's rows. */
export function analyzeEstimateMs(use: TableUse): number {
  return Math.min(Math.max(use.rows, use.pages * 50), ANALYZE_SAMPLE_ROWS) * ANALYZE_MS_PER_ROW;
}

/** Whether the table's size moved more than 10 % (and 8 pages) from the one its statistics were taken at. */
function sizeMoved(use: TableUse): boolean {
  return Math.abs(use.pages - use.statisticsPages) > 0.1 * use.statisticsPages + 8;
}

/**
 * The steps due now (`now`: ms since the epoch), by autovacuum's rules, the catalog and the daily round;
 * `since`: when counting began (the server's start), for a table not vacuumed since.
 */
export function dueSteps(uses: readonly TableUse[], now: number, since: number): Step[] {
  const steps: Step[] = [];
  for (const use of uses) {
    const rows = Math.max(use.rows, 0);
    if (
      use.deadRows > VACUUM_THRESHOLD + VACUUM_SCALE * rows ||
      use.insertedSinceVacuum > INSERT_THRESHOLD + INSERT_SCALE * rows ||
      use.pages - use.allVisiblePages > VACUUM_SCALE * use.pages + 8 ||
      now - (use.lastVacuum ?? since) >= EVERY_TABLE_MS
    )
      steps.push({ kind: 'vacuum', table: use.table, estimateMs: vacuumEstimateMs(use) });
    // Never one that is empty and was never analysed: analysed empty, it would be planned as empty (a
    // prepared lookup's kept plan reading the whole table) — unanalysed, the planner goes by its pages.
    const neverAnalysed = use.rows < 0 && use.pages > 0;
    if (use.changedSinceAnalyze > ANALYZE_THRESHOLD + ANALYZE_SCALE * rows || neverAnalysed || sizeMoved(use))
      steps.push({ kind: 'analyze', table: use.table, estimateMs: analyzeEstimateMs(use) });
  }
  if (steps.some((s) => s.kind === 'vacuum')) steps.push({ kind: 'database', estimateMs: 1 });
  return steps;
}

/**
 * Runs one step: one statement, on the database itself, never in a transaction (VACUUM cannot run in one).
 */
export async function runStep(db: Kysely<Database>, step: Step): Promise<void> {
  if (step.kind === 'database') await sql`vacuum (only_database_stats)`.execute(db);
  else if (step.kind === 'vacuum')
    await sql`vacuum (freeze, skip_database_stats, index_cleanup auto) ${sql.table(step.table)}`.execute(db);
  else await sql`analyze ${sql.table(step.table)}`.execute(db);
}

function stepKey(step: Step): string {
  return step.kind === 'database' ? step.kind : `${step.kind} ${step.table}`;
}

export interface StepDone {
  step: Step;
  ms: number;
}

export interface MaintenanceOptions {
  db: Kysely<Database>;
  /**
   * Runs one step as one unit of work that other requests go between: the admission gate's `run` (the API
   * calls wait in the same line, so a handheld waits for one step at most, never for a round).
   */
  runUnit: <T>(work: () => Promise<T>) => Promise<T>;
  /** ms since the epoch (tests move it). */
  clock?: () => number;
  /** Whether no handheld is waiting for the server now and none came for a while (the long steps wait for it). */
  floorQuiet?: () => boolean;
  /** A step that took longer than its budget, for the operator's log. */
  warn?: (fields: Record<string, unknown>, message: string) => void;
  /** Each step done and each put off (the log's debug level). */
  debug?: (fields: Record<string, unknown>, message: string) => void;
}

/** The embedded database's autovacuum: `round()` on a timer, and soon after housekeeping or an import. */
export class PgliteMaintenance {
  private readonly clock: () => number;
  private running: Promise<StepDone[]> | null = null;
  private timer: NodeJS.Timeout | null = null;
  /** When each long step was first found due and put off (`kind table` → ms). */
  private readonly deferredSince = new Map<string, number>();
  /** The last round's steps, and the longest step since start (ms), for the log and tests. */
  longestStep: StepDone | null = null;

  /** When this process began counting (the daily vacuum of a table not vacuumed since). */
  private readonly since: number;

  constructor(private readonly options: MaintenanceOptions) {
    this.clock = options.clock ?? Date.now;
    this.since = this.clock();
  }

  /**
   * Looks up what is due and runs it, step by step, each as one unit of work with a turn of the event loop
   * between. A round already running is joined, not doubled.
   */
  round(): Promise<StepDone[]> {
    this.running ??= this.work().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async work(): Promise<StepDone[]> {
    const { db, runUnit } = this.options;
    const uses = await runUnit(() => tableUse(db));
    const now = this.clock();
    const done: StepDone[] = [];
    const due = dueSteps(uses, now, this.since);
    // A step put off stays due even when the counters no longer say so (a vacuum moved the size an analyse
    // was due for); the 'database' step goes last.
    for (const key of this.deferredSince.keys()) {
      const [kind, table] = key.split(' ') as ['vacuum' | 'analyze', string];
      const use = uses.find((u) => u.table === table);
      if (!use || due.some((s) => stepKey(s) === key)) continue;
      const estimateMs = kind === 'vacuum' ? vacuumEstimateMs(use) : analyzeEstimateMs(use);
      due.splice(due.length - (due.at(-1)?.kind === 'database' ? 1 : 0), 0, { kind, table, estimateMs });
    }
    for (const step of due) {
      const key = stepKey(step);
      if (step.estimateMs > STEP_BUDGET_MS) {
        const since = this.deferredSince.get(key) ?? now;
        this.deferredSince.set(key, since);
        const quiet = this.options.floorQuiet?.() ?? false;
        if (!quiet && now - since < LONGEST_DEFERRAL_MS) {
          this.options.debug?.(
            { step: key, estimateMs: Math.round(step.estimateMs) },
            'database maintenance: a long step waits for a quiet floor',
          );
          continue;
        }
      }
      this.deferredSince.delete(key);
      await nextTurn();
      const ms = await runUnit(async () => {
        const started = performance.now();
        await runStep(db, step);
        return performance.now() - started;
      });
      const stepDone = { step, ms };
      done.push(stepDone);
      this.options.debug?.(
        { step: key, ms: Math.round(ms * 10) / 10, estimateMs: Math.round(step.estimateMs) },
        'database maintenance: step done',
      );
      if (!this.longestStep || ms > this.longestStep.ms) this.longestStep = stepDone;
      if (ms > STEP_BUDGET_MS)
        this.options.warn?.(
          { step: key, ms: Math.round(ms), estimateMs: Math.round(step.estimateMs) },
          'database maintenance: a step took longer than its budget',
        );
    }
    return done;
  }

  /**
   * Runs a round every `everyMs` (default a minute: the check itself is one small query), the first after
   * `everyMs` too: at a start the tables' first reads are cold, and a restarted server's first calls come
   * first (after a crash the scanners' retries are waiting).
   */
  start(everyMs = 60_000): void {
    this.timer ??= setInterval(() => {
      void this.round().catch((error) => this.options.warn?.({ err: error }, 'database maintenance failed'));
    }, everyMs);
    this.timer.unref();
  }

  /** Stops the timer and waits for a round under way. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running?.catch(() => undefined);
  }
}
