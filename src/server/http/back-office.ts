import { performance } from 'node:perf_hooks';
import { deferred, deferringDurability } from '../db/durability.ts';
import type { AdmissionGate, CallKind } from './admission.ts';

const eventLoopUtilization = performance.eventLoopUtilization.bind(performance);

/**
 * Long back-office work without stalling the floor (DESIGN §10). On the embedded database the server's one
 * thread and the database's one session serve every request, and an awaited PGlite query resolves without
 * giving the event loop a turn: a loop of a thousand pages reads no socket until it ends. So long work —
 * the journal's CSV, label files, an import, a backup — is cut into steps, and each step takes a place in
 * the admission gate's back-office lane (`AdmissionGate.step`): it starts on a later turn of the loop, after
 * every handheld call that arrived meanwhile, and holds the thread and the session only for itself.
 *
 * And at most `max` heavy operations run at once per server (HEAVY_OPERATIONS_MAX): two leads exporting the
 * whole journal would hold twice the memory and take twice the back office's share; the next is answered 503
 * with a Retry-After and a German message instead.
 */

/**
 * How long one step of back-office work should hold the thread (ms): a scan that arrives meanwhile waits for
 * the rest of it, so well within a quiet floor's p99 (12–30 ms on the bench's machine). 10 ms steps let the
 * floor's p99 during a label run reach 70 ms against 12 quiet.
 */
export const STEP_TARGET_MS = 5;

/** A heavy operation refused because as many run already: 503, Retry-After, texts.errors.heavyBusy. */
export class HeavyBusy extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super('heavy operations: all places taken');
    this.name = 'HeavyBusy';
  }
}

/** What a refused heavy operation is asked to wait (s): a long export or label run takes about a minute. */
export const HEAVY_RETRY_AFTER_SECONDS = 60;

export class HeavyOperations {
  private running = 0;

  constructor(readonly max: number) {
    if (!(max >= 1)) throw new Error('heavy operations: max must be at least 1');
  }

  /** Heavy operations running now (GET /metrics). */
  get inWork(): number {
    return this.running;
  }

  /**
   * Takes a place for one heavy operation, or throws `HeavyBusy`. The answer gives it back; calling it twice
   * gives back one place.
   */
  enter(): () => void {
    if (this.running >= this.max) throw new HeavyBusy(HEAVY_RETRY_AFTER_SECONDS);
    this.running++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running--;
    };
  }
}

/**
 * How a step ends. `waitForDisk: false` — its commits are told to no one yet, so it may go on without waiting
 * for them to reach the disk (the embedded database's WAL sync, decision 28): an import's steps up to its
 * last, which waits and so covers every earlier one (the WAL is one sequence: on disk up to a commit is on
 * disk up to every commit before it). Honoured where no handheld is served (`directSteps`: the CLI's import
 * of 100,000 articles into the large warehouse, 33 s → 12 s). The gate's steps always wait: beside the floor,
 * an import running ahead of the disk made every handheld's answer wait for its WAL, and the pages it evicted
 * sync on the thread (issue 37: the upload 141 s → 302 s, floor p50 56 → 272 ms, on a busy machine).
 */
export interface StepOptions {
  waitForDisk?: boolean;
}

/** One operation's steps through the gate: `run` waits behind the floor, then does one short piece. */
export interface Steps {
  run<T>(work: () => Promise<T>, options?: StepOptions): Promise<T>;
}

/**
 * The steps of one operation, as kind `kind` in the gate's back-office lane. `client`: the request's socket —
 * a step whose client left is refused (`gone`), which ends the operation.
 */
export function stepsIn(
  gate: AdmissionGate,
  kind: CallKind,
  client?: { readonly destroyed: boolean },
): Steps {
  // Every step through the gate waits for the disk (StepOptions): a step that ran ahead of it made the
  // handhelds' answers wait for its WAL and its evicted pages sync on the thread (issue 37, measured).
  return { run: (work) => gate.step(work, kind, client) };
}

/**
 * How many rows a step reads so that it takes about `targetMs`: starts at `start`, then follows the time per
 * row the steps so far took, between `min` and `max`. A journal page of PGlite's costs what its rows cost,
 * and rows of another table or filter cost another amount: measured beats guessed. Wary on purpose: a step
 * slower than expected cuts the next at once, a faster one lets it grow by half at most — rows read from the
 * page cache cost a tenth of those read from disk, and a step sized by the cheap ones held the embedded
 * database 336–487 ms when the next pages were not in the cache.
 */
export class StepSize {
  private msPerRow: number | null = null;
  private last: number;
  private readonly targetMs: number;
  private readonly min: number;
  private readonly max: number;

  constructor(options: { targetMs?: number; min?: number; max: number; start?: number }) {
    this.targetMs = options.targetMs ?? STEP_TARGET_MS;
    this.min = options.min ?? 10;
    this.max = options.max;
    this.last = Math.min(options.start ?? 100, this.max);
  }

  /** Rows for the next step. */
  get rows(): number {
    if (this.msPerRow === null) return this.last;
    const fit = Math.floor(this.targetMs / Math.max(this.msPerRow, 1e-6));
    return Math.max(this.min, Math.min(this.max, fit, Math.ceil(this.last * 1.5)));
  }

  /** A step read `rows` rows in `ms`. */
  measured(rows: number, ms: number): void {
    if (rows <= 0) return;
    const perRow = ms / rows;
    // Slower: believed at once; faster: a third of the way.
    this.msPerRow =
      this.msPerRow === null || perRow > this.msPerRow
        ? perRow
        : this.msPerRow + (perRow - this.msPerRow) * 0.3;
    this.last = rows;
  }

  /**
   * Runs one step that reads up to `this.rows` rows and answers how many it read; measures the time it held
   * the thread (the event loop's active time meanwhile), not the time it took. On PGlite the two are nearly
   * the same: the database runs on the thread. On PostgreSQL a step spends most of its time waiting for the
   * database's answer and its commit's sync, while handheld calls run: sized by its wall time, a step of the
   * import wrote a few dozen rows per commit, and the 100,000-article import took 58 s instead of 6.
   */
  async timed<T extends { rows: number }>(read: (rows: number) => Promise<T>): Promise<T> {
    const before = eventLoopUtilization();
    const result = await read(this.rows);
    this.measured(result.rows, eventLoopUtilization(before).active);
    return result;
  }
}

/**
 * Steps without a gate, for a process of its own (a CLI, a test of a file's bytes): no floor to let go
 * first, but each step still starts on a later turn of the event loop, as behind the gate — streams (pdfkit's
 * pages, a socket) move their data on such turns.
 */
export const directSteps: Steps = {
  run: async (work, options) => {
    await new Promise((resolve) => setImmediate(resolve));
    return options?.waitForDisk === false ? deferringDurability(deferred(), work) : work();
  },
};
