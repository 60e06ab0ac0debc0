import { setImmediate as nextTurn } from 'node:timers/promises';

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
 * Work starts on the event loop's next turn, never in the turn that read the request, and the place passes
 * on a turn later again: between two admitted requests the loop reads whatever arrived meanwhile, so the
 * line is here where it is seen, not unread in the sockets. PGlite's work runs without ever yielding (its
 * database is WebAssembly on this thread): admitted at once, each request read would run to its end before
 * the next is read, and a backlog of seconds would build up where no gate can see it.
 *
 * Cheap on purpose: per request a comparison, two clock readings and one turn of the loop; a waiting one
 * also a promise. No timer.
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

/** One refusal per reason, made once: refusing thousands a second must not take a stack trace each. */
const REFUSALS: Record<ShedReason, Overloaded> = {
  estimate: new Overloaded('estimate'),
  waited: new Overloaded('waited'),
  gone: new Overloaded('gone'),
};

interface Waiter {
  since: number;
  client: { readonly destroyed: boolean } | undefined;
  /** Gives it the place, with the time it got it. */
  admit: (placed: number) => void;
  refuse: (error: Overloaded) => void;
}

export interface AdmissionOptions {
  /** Requests in work at once (the database's connections; PGlite: 1). */
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

  /** The moving average of how long an admitted request held its place (ms), the turn it waited included. */
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
    let placed: number;
    if (this.working < this.concurrency) {
      this.working++; // the place is taken now; the work waits for the loop's next turn
      placed = this.now();
      await nextTurn();
    } else placed = await this.enqueue(client);
    try {
      return await work();
    } finally {
      this.release(placed);
    }
  }

  private enqueue(client: Waiter['client']): Promise<number> {
    if (this.estimatedWaitMs() > this.maxWaitMs) throw this.refusal('estimate');
    return new Promise<number>((admit, refuse) => {
      this.line.push({ since: this.now(), client, admit, refuse });
    });
  }

  /**
   * A request's work is done: measure how long it held its place — from getting it to now, the loop's turn
   * before it started included, so the average is the time the line moves by per place — and hand the
   * place to the next in line that still wants it.
   */
  private release(placed: number): void {
    const now = this.now();
    this.averageMs += (now - placed - this.averageMs) * SMOOTHING;
    while (this.head < this.line.length) {
      const next = this.line[this.head] as Waiter;
      this.line[this.head] = undefined;
      this.head++;
      if (next.client?.destroyed) next.refuse(this.refusal('gone'));
      else if (now - next.since > this.maxWaitMs) next.refuse(this.refusal('waited'));
      else {
        this.compact();
        setImmediate(next.admit, now); // the place passes on (`working` stays), its work on the next turn
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
    return REFUSALS[reason];
  }
}
