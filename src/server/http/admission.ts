/**
 * The admission gate (decision 26): at most `concurrency` API requests work at once, the rest wait in line
 * (first come, first served) — but only as long as the line is short enough to be worth it. A request that
 * arrives to a line whose estimated wait is above `maxWaitMs` is refused at once (`Overloaded`, answered 503
 * with Retry-After), instead of waiting until the handheld's 5 s timeout and its retries pile more load on
 * the server. The estimate: places ahead × the moving average of how long an admitted request holds its
 * place ÷ the places. A request that still waited past `maxWaitMs` when its turn comes (the estimate was
 * wrong: a slow request ahead) is refused then, before it does any work. One whose client left while it
 * waited is dropped then too.
 *
 * Cheap on purpose: a request that finds a free place costs a comparison and one clock reading each way; only
 * a waiting one gets a promise. No timer anywhere.
 */

/** Why a request was not admitted: the line was too long on arrival, it waited too long, its client left. */
export type ShedReason = 'estimate' | 'waited' | 'gone';
export const SHED_REASONS: readonly ShedReason[] = ['estimate', 'waited', 'gone'];

/** Seconds a refused caller is asked to wait before it tries again (the Retry-After header). */
export const RETRY_AFTER_SECONDS = 1;

/** The service time assumed before the first request finished (ms): about a lookup's on an idle server. */
const INITIAL_SERVICE_MS = 5;
/** Weight of the newest request in the moving average: the last ~10 requests count most. */
const SMOOTHING = 0.1;
/** At most one warning line per this many ms, however many requests are refused. */
const WARN_EVERY_MS = 1000;

export class Overloaded extends Error {
  constructor(readonly reason: ShedReason) {
    super(`overloaded: ${reason}`);
    this.name = 'Overloaded';
  }
}

interface Waiter {
  since: number;
  client: { readonly destroyed: boolean } | undefined;
  admit: () => void;
  refuse: (error: Overloaded) => void;
}

export interface AdmissionOptions {
  /** Requests in work at once (the database's connections; PGlite: 2). */
  concurrency: number;
  /** The longest a request may wait for its place (OVERLOAD_MAX_WAIT_MS). */
  maxWaitMs: number;
  /** A monotonic clock in ms (tests move it by hand). */
  now?: () => number;
  /** The operator's warning, at most once a second while requests are refused. */
  warn?: (fields: Record<string, number>, message: string) => void;
}

export class AdmissionGate {
  readonly concurrency: number;
  readonly maxWaitMs: number;
  /** Requests refused since start, by reason (GET /metrics). */
  readonly shed: Record<ShedReason, number> = { estimate: 0, waited: 0, gone: 0 };
  private readonly now: () => number;
  private readonly warn: AdmissionOptions['warn'];
  private working = 0;
  /** The line: waiters from `head` on; the slots before it are spent. */
  private line: (Waiter | undefined)[] = [];
  private head = 0;
  private averageMs = INITIAL_SERVICE_MS;
  private shedSinceWarning = 0;
  private lastWarning = Number.NEGATIVE_INFINITY;

  constructor(options: AdmissionOptions) {
    if (!(options.concurrency >= 1)) throw new Error('admission: concurrency must be at least 1');
    this.concurrency = options.concurrency;
    this.maxWaitMs = options.maxWaitMs;
    this.now = options.now ?? (() => performance.now());
    this.warn = options.warn;
  }

  /** Requests in work now. */
  get inWork(): number {
    return this.working;
  }

  /** Requests waiting for a place now. */
  get waiting(): number {
    return this.line.length - this.head;
  }

  /** The moving average of how long an admitted request held its place (ms). */
  get serviceMs(): number {
    return this.averageMs;
  }

  /** The estimated wait of a request arriving now (ms): 0 while a place is free. */
  estimatedWaitMs(): number {
    if (this.working < this.concurrency) return 0;
    return ((this.waiting + 1) * this.averageMs) / this.concurrency;
  }

  /**
   * Runs `work` once it has a place, and gives the place on when it settles (also when it throws). Throws
   * `Overloaded` instead when the request is not admitted. `client`: the request's connection, to drop a
   * request whose client left while it waited (`destroyed`).
   */
  async run<T>(work: () => Promise<T>, client?: { readonly destroyed: boolean }): Promise<T> {
    if (this.working < this.concurrency) this.working++;
    else await this.enqueue(client);
    const started = this.now();
    try {
      return await work();
    } finally {
      this.release(started);
    }
  }

  private enqueue(client: Waiter['client']): Promise<void> {
    if (this.estimatedWaitMs() > this.maxWaitMs) throw this.refusal('estimate');
    return new Promise<void>((admit, refuse) => {
      this.line.push({ since: this.now(), client, admit, refuse });
    });
  }

  /** A request's work is done: measure it, and hand its place to the next in line that still wants it. */
  private release(started: number): void {
    const now = this.now();
    this.averageMs += (now - started - this.averageMs) * SMOOTHING;
    while (this.head < this.line.length) {
      const next = this.line[this.head] as Waiter;
      this.line[this.head] = undefined;
      this.head++;
      if (next.client?.destroyed) next.refuse(this.refusal('gone'));
      else if (now - next.since > this.maxWaitMs) next.refuse(this.refusal('waited'));
      else {
        this.compact();
        next.admit(); // the place passes on: `working` stays as it is
        return;
      }
    }
    this.compact();
    this.working--;
  }

  /** Drops the spent slots of the line: all of them once it is empty, else now and then in one go. */
  private compact(): void {
    if (this.head === this.line.length) {
      this.line = [];
      this.head = 0;
    } else if (this.head >= 1024 && this.head * 2 >= this.line.length) {
      this.line = this.line.slice(this.head);
      this.head = 0;
    }
  }

  private refusal(reason: ShedReason): Overloaded {
    this.shed[reason]++;
    if (reason !== 'gone') {
      this.shedSinceWarning++;
      const now = this.now();
      if (now - this.lastWarning >= WARN_EVERY_MS) {
        this.warn?.(
          {
            shed: this.shedSinceWarning,
            waiting: this.waiting,
            inWork: this.working,
            serviceMs: Math.round(this.averageMs * 10) / 10,
            maxWaitMs: this.maxWaitMs,
          },
          'overloaded: requests answered 503 (Retry-After) instead of waiting in line',
        );
        this.lastWarning = now;
        this.shedSinceWarning = 0;
      }
    }
    return new Overloaded(reason);
  }
}
