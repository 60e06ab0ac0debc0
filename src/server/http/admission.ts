// Longer than 400 lines on purpose: one class whose lines, estimate and refusals share one state, and most
// of its length is the why of decisions 26 and 31 beside the code it explains.
import { setImmediate as nextTurn, setTimeout as pause } from 'node:timers/promises';
import { type Deferred, deferred, deferringDurability } from '../db/durability.ts';

/**
 * The admission gate (decision 26): at most `concurrency` API requests work at once, the rest wait in line
 * (first come, first served) — but only as long as the line is short enough to be worth it. A request that
 * arrives to a line whose estimated wait is above `maxWaitMs` is refused at once (`Overloaded`, answered 503
 * with Retry-After), instead of waiting until the handheld's 5 s timeout and its retries pile more load on
 * the server. The estimate: what the requests ahead and the arrival itself usually hold a place for — each
 * by the moving average of its own kind of call (its route): a login's 30 ms of password hashing is not a
 * lookup's half millisecond — ÷ the places, refused above 60 % of `maxWaitMs` (the rest is room for the
 * estimate's error). A request that still waited past `maxWaitMs` when its turn comes (the estimate was
 * wrong: a slow request ahead) is refused then, before it does any work. One whose client left while it
 * waited is dropped then too.
 *
 * Work starts on the event loop's next turn, never in the turn that read the request, and the place passes
 * on a turn later again: between two admitted requests the loop reads whatever arrived meanwhile, so the
 * line is here where it is seen, not unread in the sockets. PGlite's work runs without ever yielding (its
 * database is WebAssembly on this thread): admitted at once, each request read would run to its end before
 * the next is read, and a backlog of seconds would build up where no gate can see it.
 *
 * Two lanes (DESIGN §10, the floor comes first): the handhelds' calls (`floor`) and the back office's — the
 * Leitstand, admin, exports, labels, imports (`backOffice`). A freed place goes to the floor's line first;
 * the back office's line moves while no handheld call waits, or once its first has waited
 * `BACK_OFFICE_TURN_MS` (a busy floor slows the back office down, it does not stop it). A back-office arrival is estimated against
 * both lines and may wait `BACK_OFFICE_WAIT_FACTOR` times as long (a page that loads a second later is fine;
 * a scan that does is not). Long back-office work takes a place per step (`step`): a short piece of work
 * that waits behind the floor and is never refused once the work has begun, so a download is never cut
 * half-way by an overload answer; between two steps every handheld call that arrived goes first.
 *
 * Cheap on purpose: per request a comparison, two clock readings and one turn of the loop; a waiting one
 * also a promise. No timer.
 */

/** Why a request was not admitted: the line was too long on arrival, it waited too long, its client left. */
export type ShedReason = 'estimate' | 'waited' | 'gone';
export const SHED_REASONS: readonly ShedReason[] = ['estimate', 'waited', 'gone'];

/** Whose call it is: a handheld's (the floor) or the back office's (Leitstand, admin, exports, labels). */
export type Lane = 'floor' | 'backOffice';
export const LANES: readonly Lane[] = ['floor', 'backOffice'];

/**
 * How much longer than a handheld call a back-office call may wait for its place (× `maxWaitMs`, and × the
 * arrival limit): 500 ms for a scan, 5 s for a Leitstand page — under load the Leitstand waits, not the scanner.
 */
export const BACK_OFFICE_WAIT_FACTOR = 10;

/**
 * A back-office call or step that has waited this long gets the next place even while handheld calls wait
 * (ms), one such place per this time: without it a floor that never pauses (the power-cut test's ten booking
 * loops) let a two-line import finish once in 12 s. With 5 ms steps the back office then takes about 5 % of a
 * saturated server.
 */
export const BACK_OFFICE_TURN_MS = 100;

/**
 * On PostgreSQL, while handhelds call (one arrived within `FLOOR_ACTIVE_MS`), a step of long back-office work
 * is followed by a pause of this share of the time it took, with no place held (`backOfficePauseShare`). The
 * line lets the floor go first on the server's thread, but PostgreSQL's own work for a step — its pages, its
 * writes and their WAL flushes, which a booking's commit then waits behind — runs in other processes, on the
 * cores and the disk the handhelds' sessions need. On the bench's two cores the floor's p99 during the whole
 * journal's CSV was 2.2–5 × the quiet windows'; with the pause 1.8 × (the CSV: 40 → 49 s; the import of
 * 100,000 articles 8.8 → 9.5 s, its floor 1.8 ×). PGlite's work is all on the server's thread, in the line:
 * no pause there. A floor at rest costs the back office nothing.
 */
export const BACK_OFFICE_PAUSE_SHARE_POSTGRES = 0.5;
/** How recent a handheld call must be for the floor to count as at work (ms). */
export const FLOOR_ACTIVE_MS = 1000;

/**
 * Seconds a refused caller is asked to wait before it tries again (the Retry-After header): 1 while the gate
 * refuses no more calls than it serves; more while it refuses more (`retryAfterSeconds`), at most
 * `MAX_RETRY_AFTER_SECONDS` — one more try, with a second for its answer, still fits in the handheld's 5 s.
 */
export const RETRY_AFTER_SECONDS = 1;
export const MAX_RETRY_AFTER_SECONDS = 3;
/** The window the refused and served calls are counted in for the Retry-After (ms). */
const RETRY_WINDOW_MS = 1000;

/** The service time assumed for a kind of call before the first one finished (ms): a lookup's, about. */
const INITIAL_SERVICE_MS = 1;
/**
 * Weight of the newest request in its kind's moving average: the last ~50 count most. One long pause (a
 * garbage collection, a cold query) moves it by 2 % of the pause: with 0.1 a single 100 ms pause at PGlite
 * made 64 scanners' ordinary line look 0.7 s long.
 */
const SMOOTHING = 0.02;
/**
 * An arrival is refused when its estimated wait is above this share of the longest wait. The rest is room
 * for the estimate's error, so that an admitted request rarely still waits past the longest wait and is
 * refused late — after waiting, not at once (that late 503 is what a handheld should not get).
 */
const ARRIVAL_SHARE = 0.6;
/** At most one warning line per this many ms, however many requests are refused. */
const WARN_EVERY_MS = 1000;

export class Overloaded extends Error {
  constructor(
    readonly reason: ShedReason,
    /** What the refused caller is asked to wait before its next try (s): the Retry-After header. */
    readonly retryAfterSeconds: number = RETRY_AFTER_SECONDS,
  ) {
    super(`overloaded: ${reason}`);
    this.name = 'Overloaded';
  }
}

/**
 * One refusal per reason and Retry-After, made once: refusing thousands a second must not take a stack trace
 * each.
 */
const REFUSALS = new Map<string, Overloaded>();
function refusalOf(reason: ShedReason, retryAfterSeconds: number): Overloaded {
  const key = `${reason} ${retryAfterSeconds}`;
  let refusal = REFUSALS.get(key);
  if (!refusal) {
    refusal = new Overloaded(reason, retryAfterSeconds);
    REFUSALS.set(key, refusal);
  }
  return refusal;
}

/** One kind of call (a route): how long one of them held its place, on average (ms). */
export interface CallKind {
  readonly name: string;
  averageMs: number;
}

interface Waiter {
  since: number;
  /** What it is expected to hold its place for: its kind's average when it joined the line. */
  expectedMs: number;
  client: { readonly destroyed: boolean } | undefined;
  /** The longest it may wait for its place (ms); Infinity for a step of work already begun. */
  maxWaitMs: number;
  /** Gives it the place, with the time it got it. */
  admit: (placed: number) => void;
  refuse: (error: Overloaded) => void;
}

/** One lane's line: waiters from `head` on; the slots before it are spent. */
class Line {
  private waiters: (Waiter | undefined)[] = [];
  private head = 0;
  /** The sum of the waiters' expected times (ms). */
  expectedMs = 0;

  get length(): number {
    return this.waiters.length - this.head;
  }

  push(waiter: Waiter): void {
    this.expectedMs += waiter.expectedMs;
    this.waiters.push(waiter);
  }

  /** The first in line, left in it. */
  peek(): Waiter | undefined {
    return this.waiters[this.head];
  }

  shift(): Waiter | undefined {
    if (this.head >= this.waiters.length) return undefined;
    const next = this.waiters[this.head] as Waiter;
    this.waiters[this.head] = undefined;
    this.head++;
    this.expectedMs -= next.expectedMs;
    this.compact();
    return next;
  }

  /** Drops the spent slots: all of them once the line is empty, else now and then in one go. */
  private compact(): void {
    if (this.head === this.waiters.length) {
      this.waiters = [];
      this.head = 0;
      this.expectedMs = 0; // no rounding left over from the sums
    } else if (this.head >= 1024 && this.head * 2 >= this.waiters.length) {
      this.waiters = this.waiters.slice(this.head);
      this.head = 0;
    }
  }
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
  /** Hears how long each call or step held its place (ms), with its lane and kind (GET /metrics, the log). */
  held?: (lane: Lane, kind: CallKind, ms: number) => void;
  /** The pause after a back-office step while handhelds call, as a share of the step's time (default 0). */
  backOfficePauseShare?: number;
}

export class AdmissionGate {
  readonly concurrency: number;
  readonly maxWaitMs: number;
  /** Requests refused since start, by reason (GET /metrics). */
  readonly shed: Record<ShedReason, number> = { estimate: 0, waited: 0, gone: 0 };
  private readonly now: () => number;
  private readonly warn: AdmissionOptions['warn'];
  private readonly held: AdmissionOptions['held'];
  private working = 0;
  /** When a back-office call last went ahead of waiting handheld calls (BACK_OFFICE_TURN_MS). */
  private officeTurnAt = Number.NEGATIVE_INFINITY;
  /** When a handheld call last arrived (`backOfficePauseShare`). */
  private floorSeenAt = Number.NEGATIVE_INFINITY;
  private readonly pauseShare: number;
  private readonly lines: Record<Lane, Line> = { floor: new Line(), backOffice: new Line() };
  private readonly kinds = new Map<string, CallKind>();
  /** Calls run without a kind of their own (tests, tools). */
  private readonly anyKind: CallKind;
  private shedSinceWarning = 0;
  private lastWarning = Number.NEGATIVE_INFINITY;
  /** Calls served and refused in the current window and the one before (for the Retry-After). */
  private window = { start: Number.NEGATIVE_INFINITY, served: 0, refused: 0, lastServed: 0, lastRefused: 0 };

  constructor(options: AdmissionOptions) {
    if (!(options.concurrency >= 1)) throw new Error('admission: concurrency must be at least 1');
    this.concurrency = options.concurrency;
    this.maxWaitMs = options.maxWaitMs;
    this.now = options.now ?? (() => performance.now());
    this.warn = options.warn;
    this.held = options.held;
    this.pauseShare = options.backOfficePauseShare ?? 0;
    this.anyKind = this.kind('');
  }

  /** The kind of call named so (a route: its method and path pattern), the same object each time. */
  kind(name: string): CallKind {
    let kind = this.kinds.get(name);
    if (!kind) {
      kind = { name, averageMs: INITIAL_SERVICE_MS };
      this.kinds.set(name, kind);
    }
    return kind;
  }

  /** Requests in work now. */
  get inWork(): number {
    return this.working;
  }

  /** Requests waiting for a place now (in one lane, or in both). */
  waitingIn(lane?: Lane): number {
    return lane ? this.lines[lane].length : this.lines.floor.length + this.lines.backOffice.length;
  }

  /** Requests waiting for a place now, in both lanes. */
  get waiting(): number {
    return this.waitingIn();
  }

  /** The sum of the waiters' expected times (ms), both lanes. */
  private get lineMs(): number {
    return this.lines.floor.expectedMs + this.lines.backOffice.expectedMs;
  }

  /** The moving average of how long a call of this kind held its place (ms), the turn it waited included. */
  serviceMs(kind: CallKind = this.anyKind): number {
    return kind.averageMs;
  }

  /** How long the line would take to move through the places (s): its waiters' expected times ÷ places. */
  get lineSeconds(): number {
    return this.lineMs / this.concurrency / 1000;
  }

  /**
   * The Retry-After for a refusal now (s). While the gate refuses no more calls than it serves, 1 s; when it
   * refuses more, the refused ones coming back all a second later (and each second again, while the
   * handheld's 5 s last) would be more than the server serves — answering them alone then kept its one
   * thread busy (bench, PGlite at 2 × its capacity: four refusals for each call served, the 503s' p99 50 ms).
   * So the wait grows with the share refused in the last full second: refused ÷ served, rounded up, at most
   * `MAX_RETRY_AFTER_SECONDS`.
   */
  retryAfterSeconds(now: number = this.now()): number {
    this.roll(now);
    const { lastServed, lastRefused } = this.window;
    if (lastRefused <= lastServed) return RETRY_AFTER_SECONDS;
    return Math.min(MAX_RETRY_AFTER_SECONDS, Math.ceil(lastRefused / Math.max(1, lastServed)));
  }

  /** Moves the counting window on when its second is over (a window with nothing in it counts as quiet). */
  private roll(now: number): void {
    const w = this.window;
    if (now - w.start < RETRY_WINDOW_MS) return;
    const stale = now - w.start >= 2 * RETRY_WINDOW_MS;
    w.lastServed = stale ? 0 : w.served;
    w.lastRefused = stale ? 0 : w.refused;
    w.served = 0;
    w.refused = 0;
    w.start = now;
  }

  /** An arrival whose estimated wait is above this is refused at once (ms): a share of its longest wait. */
  arrivalLimitMs(lane: Lane = 'floor'): number {
    return this.longestWaitMs(lane) * ARRIVAL_SHARE;
  }

  /** The longest a call of the lane may wait for its place (ms). */
  longestWaitMs(lane: Lane = 'floor'): number {
    return lane === 'floor' ? this.maxWaitMs : this.maxWaitMs * BACK_OFFICE_WAIT_FACTOR;
  }

  /**
   * The estimated wait of a request of this kind arriving now (ms): 0 while a place is free; else what the
   * line ahead and the request itself are expected to hold a place for, shared by the places (with every
   * place taken, one frees every (time held ÷ places) on average — Little's law). Ahead of a handheld call is
   * only the floor's line; ahead of a back-office call, both.
   */
  estimatedWaitMs(kind: CallKind = this.anyKind, lane: Lane = 'floor'): number {
    if (this.working < this.concurrency) return 0;
    const ahead = lane === 'floor' ? this.lines.floor.expectedMs : this.lineMs;
    return (ahead + kind.averageMs) / this.concurrency;
  }

  /**
   * Runs `work` once it has a place, and gives the place on when it settles (also when it throws). Throws
   * `Overloaded` instead when the request is not admitted. `client`: the request's connection, to drop a
   * request whose client left while it waited (`destroyed`). `kind`: what kind of call it is (`kind()`).
   */
  async run<T>(
    work: () => Promise<T>,
    client?: { readonly destroyed: boolean },
    kind: CallKind = this.anyKind,
    lane: Lane = 'floor',
    durability?: Deferred,
  ): Promise<T> {
    return this.admitted(work, client, kind, lane, true, durability);
  }

  /**
   * One step of long back-office work (a page of an export, a chunk of an import): waits for a place behind
   * every handheld call, like any back-office call, but is never refused for the line's length or its wait —
   * the work it belongs to has begun, and cutting it off half-way would waste what was done. Refused only
   * when its client left (`gone`).
   */
  async step<T>(
    work: () => Promise<T>,
    kind: CallKind,
    client?: { readonly destroyed: boolean },
  ): Promise<T> {
    if (this.pauseShare <= 0) return this.admitted(work, client, kind, 'backOffice', false);
    let began = 0;
    const result = await this.admitted(
      () => {
        began = this.now();
        return work();
      },
      client,
      kind,
      'backOffice',
      false,
    );
    const now = this.now();
    if (now - this.floorSeenAt < FLOOR_ACTIVE_MS) await pause((now - began) * this.pauseShare);
    return result;
  }

  /**
   * `durability`: where the work's waits for the disk are noted (decision 28). Given, its owner waits (a
   * call's answer, in app.ts's onSend hook); not given, the gate waits after giving the place on, before the
   * caller goes on. Either way no place is held while the disk syncs (durability.ts).
   */
  private async admitted<T>(
    work: () => Promise<T>,
    client: Waiter['client'],
    kind: CallKind,
    lane: Lane,
    mayRefuse: boolean,
    durability?: Deferred,
  ): Promise<T> {
    if (lane === 'floor') this.floorSeenAt = this.now();
    let placed: number;
    if (this.working < this.concurrency) {
      this.working++; // the place is taken now; the work waits for the loop's next turn
      placed = this.now();
      await nextTurn();
    } else placed = await this.enqueue(client, kind, lane, mayRefuse);
    const waits = durability ?? deferred();
    let result: T;
    try {
      result = await deferringDurability(waits, work);
    } finally {
      this.release(placed, kind, lane);
      if (!durability && waits.pending) await waits.pending;
    }
    return result;
  }

  private enqueue(client: Waiter['client'], kind: CallKind, lane: Lane, mayRefuse: boolean): Promise<number> {
    if (mayRefuse && this.estimatedWaitMs(kind, lane) > this.arrivalLimitMs(lane))
      throw this.refusal('estimate');
    const expectedMs = kind.averageMs;
    const maxWaitMs = mayRefuse ? this.longestWaitMs(lane) : Number.POSITIVE_INFINITY;
    return new Promise<number>((admit, refuse) => {
      this.lines[lane].push({ since: this.now(), expectedMs, client, maxWaitMs, admit, refuse });
    });
  }

  /**
   * A request's work is done: measure how long it held its place — from getting it to now, the loop's turn
   * before it started included, so the average is the time the line moves by per place — and hand the
   * place to the next in line that still wants it: the floor's first, the back office's only when no
   * handheld call waits.
   */
  private release(placed: number, kind: CallKind, lane: Lane): void {
    const now = this.now();
    kind.averageMs += (now - placed - kind.averageMs) * SMOOTHING;
    this.held?.(lane, kind, now - placed);
    this.roll(now);
    this.window.served++;
    for (;;) {
      // The floor first — but a back-office call or step that has waited BACK_OFFICE_TURN_MS goes next, so
      // a floor that never pauses cannot starve an import or a download (their share: one step a while).
      // One such turn per BACK_OFFICE_TURN_MS: a burst of Leitstand calls that all waited that long (twenty
      // live desks refetching at once) must not go ahead of the floor one after another.
      const office = this.lines.backOffice.peek();
      const officeTurn =
        office !== undefined &&
        now - office.since >= BACK_OFFICE_TURN_MS &&
        now - this.officeTurnAt >= BACK_OFFICE_TURN_MS;
      if (officeTurn) this.officeTurnAt = now;
      const next = officeTurn
        ? this.lines.backOffice.shift()
        : (this.lines.floor.shift() ?? this.lines.backOffice.shift());
      if (!next) break;
      if (next.client?.destroyed) next.refuse(this.refusal('gone'));
      else if (now - next.since > next.maxWaitMs) next.refuse(this.refusal('waited'));
      else {
        setImmediate(next.admit, now); // the place passes on (`working` stays), its work on the next turn
        return;
      }
    }
    this.working--;
  }

  private refusal(reason: ShedReason): Overloaded {
    this.shed[reason]++;
    const now = this.now();
    const retryAfter = this.retryAfterSeconds(now);
    if (reason !== 'gone') {
      this.window.refused++;
      this.shedSinceWarning++;
      if (now - this.lastWarning >= WARN_EVERY_MS) {
        this.warn?.(
          {
            shed: this.shedSinceWarning,
            waiting: this.waiting,
            inWork: this.working,
            lineMs: Math.round(this.lineMs),
            maxWaitMs: this.maxWaitMs,
            retryAfterSeconds: retryAfter,
          },
          'overloaded: requests answered 503 (Retry-After) instead of waiting in line',
        );
        this.lastWarning = now;
        this.shedSinceWarning = 0;
      }
    }
    return refusalOf(reason, retryAfter);
  }
}
