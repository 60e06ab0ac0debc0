import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../src/server/db/schema.ts';
import { type CallOutcome, type OpenLoopResult, type PlannedCall, runOpenLoop } from './open-loop.ts';
import type { Workload } from './workloads.ts';

/**
 * How many scanners one server carries, and what it does with twice as many (issue 23).
 *
 * Scanners in the open loop (open-loop.ts): one scan every 3 s each, in the Umbuchung's order — look up the
 * location, look up the article, book the rebooking (own idempotency key) — so 2 lookups : 1 booking. The
 * capacity is the most scanners whose p99 (answers 2xx) stays within 4 × the unloaded p99 (30 scanners),
 * with no timeout, no error and no 503 (at capacity nothing should be turned away): geometric steps up from a
 * quarter of what the database floor would carry, then bisection. Then 2 × that for a while, the bench
 * acting as the handheld (503 → retry after Retry-After with the same key, within the call's 5 s): accepted
 * requests must still be answered within 1 s (p99), the excess answered at once with 503, no timeouts, and
 * afterwards every rebooking answered 200 must be in the books exactly once (checkBookedOnce).
 */
/** Selected by `--only` like a workload's name: no word of it may be in another's ('scan' is the scan timing). */
export const CAPACITY_NAME = 'capacity and overload (open loop)';
export const SCAN_INTERVAL_MS = 3000;
export const UNLOADED_SCANNERS = 30;
export const P99_FACTOR = 4;
export const FLOOR_SHARE_GOAL = 0.7;
export const OVERLOAD_FACTOR = 2;
export const ACCEPTED_P99_MS = 1000;
export const SHED_P99_MS = 50;
/** The handheld's budget for a call with its retries, and its retries (SPEC §7, src/web/api/client.ts). */
export const BUDGET_MS = 5000;
export const HANDHELD_RETRIES = 4;

export interface CapacityPlan {
  warmUpSeconds: number;
  unloadedSeconds: number;
  stepSeconds: number;
  settleMinMs: number;
  settleMaxMs: number;
  /** The search ends when the failing step is at most this factor above the passing one. */
  precision: number;
  overloadSeconds: number;
}

export const fullPlan: CapacityPlan = {
  warmUpSeconds: 3,
  // 450 calls: in 15 s (150) the p99 was the second slowest call, and the limit it sets (4 ×) came out
  // 31 ms in one PostgreSQL run and 61 ms in the next, the capacity with it 5,168 and 7,052 scanners.
  unloadedSeconds: 45,
  stepSeconds: 8,
  settleMinMs: 1000,
  settleMaxMs: 20_000,
  precision: 1.1,
  overloadSeconds: 15,
};

export const quickPlan: CapacityPlan = {
  warmUpSeconds: 1,
  unloadedSeconds: 4,
  stepSeconds: 2,
  settleMinMs: 300,
  settleMaxMs: 5000,
  precision: 1.3,
  overloadSeconds: 4,
};

/** Why a step fails ('' when it passes): the first of timeouts, errors, 503s, a p99 over the limit. */
export function stepVerdict(result: OpenLoopResult, limitMs: number): string {
  if (result.timeouts > 0) return `${result.timeouts} timeouts`;
  if (result.errors > 0) return `errors: ${result.errorKinds}`;
  if (result.shed.count > 0) return `${result.shed.count} × 503`;
  if (result.ok.count === 0) return 'no answer';
  if (result.ok.p99 > limitMs) return `p99 ${ms(result.ok.p99)} ms`;
  if (result.stoppedEarly) return 'p99 over the limit'; // more than 1 % were already slower
  return '';
}

export interface SearchStep {
  scanners: number;
  /** '' passed; else why not. */
  verdict: string;
  p99: number;
}

export interface CapacitySearch {
  unloaded: OpenLoopResult;
  limitMs: number;
  steps: SearchStep[];
  /** The largest passing step (the unloaded run if no step passed); null if even that failed. */
  capacity: OpenLoopResult | null;
  /** The search stopped at `max` without a failing step: the capacity is at least this. */
  atMax: boolean;
}

/**
 * The search over any step runner: `measure(scanners, limitMs)` runs one step (limitMs: Infinity for the
 * unloaded run). Steps go up by `factor` from `start` until one fails, then bisect (geometric middle) until
 * failing / passing ≤ `precision`.
 */
export async function findCapacity(options: {
  measure: (scanners: number, limitMs: number) => Promise<OpenLoopResult>;
  unloadedScanners: number;
  start: number;
  max: number;
  precision: number;
  factor?: number;
  /** Runs after the unloaded measurement, right before the first step (not counted): its scanners, the p99 limit. */
  warmUp?: (scanners: number, limitMs: number) => Promise<void>;
  log?: (line: string) => void;
}): Promise<CapacitySearch> {
  const factor = options.factor ?? 2;
  const unloaded = await options.measure(options.unloadedScanners, Number.POSITIVE_INFINITY);
  const steps: SearchStep[] = [];
  if (stepVerdict(unloaded, Number.POSITIVE_INFINITY) !== '')
    return { unloaded, limitMs: 0, steps, capacity: null, atMax: false };
  const limitMs = P99_FACTOR * unloaded.ok.p99;
  options.log?.(
    `  unloaded (${options.unloadedScanners} scanners): p50 ${ms(unloaded.ok.p50)} ms, p99 ${ms(unloaded.ok.p99)} ms → limit ${ms(limitMs)} ms (sent late: max ${ms(unloaded.late.max)} ms)`,
  );
  let best = unloaded;
  let lo = options.unloadedScanners;
  let hi: number | null = null;
  const step = async (scanners: number) => {
    const result = await options.measure(scanners, limitMs);
    const verdict = stepVerdict(result, limitMs);
    steps.push({ scanners, verdict, p99: result.ok.p99 });
    options.log?.(
      `  ${scanners} scanners: ${Math.round(result.rps)} req/s, p50 ${ms(result.ok.p50)} ms, p99 ${ms(result.ok.p99)} ms → ${verdict || 'pass'} (sent late: p99 ${ms(result.late.p99)} ms, max ${ms(result.late.max)} ms)`,
    );
    if (verdict === '') {
      lo = scanners;
      best = result;
    } else hi = scanners;
    return verdict === '';
  };
  let n = Math.min(options.max, Math.max(options.start, Math.ceil(lo * factor)));
  await options.warmUp?.(n, limitMs);
  while (await step(n)) {
    if (n >= options.max) return { unloaded, limitMs, steps, capacity: best, atMax: true };
    n = Math.min(options.max, Math.ceil(n * factor));
  }
  while (hi !== null && hi / lo > options.precision) {
    const mid = Math.round(Math.sqrt(lo * hi));
    if (mid <= lo || mid >= hi) break;
    await step(mid);
  }
  return { unloaded, limitMs, steps, capacity: best, atMax: false };
}

export interface CapacityReport {
  search: CapacitySearch;
  /** The run at OVERLOAD_FACTOR × capacity; null when there was no capacity to double. */
  overload: OpenLoopResult | null;
  /** When the overload run began (its rebookings are journalled after this). */
  overloadSince: Date;
  floorBookingsPerSecond: number;
  plan: CapacityPlan;
  seconds: number;
  /** What the server counted during the overload run (its /metrics, after − before); null unread. */
  serverCounts: ServerCounts | null;
}

/**
 * From the server's /metrics: requests turned away by reason (`lagerscanner_requests_shed_total`), and its
 * 503 answers by how long each took from Fastify reading the request to the answer — summed over routes, by
 * the duration histogram's bucket (`le`, seconds, cumulative; `+Inf` is all of them).
 */
export interface ServerCounts {
  reasons: Record<string, number>;
  answered503: Record<string, number>;
}

export function parseServerCounts(metrics: string): ServerCounts {
  const reasons: Record<string, number> = {};
  for (const m of metrics.matchAll(/^lagerscanner_requests_shed_total\{reason="(\w+)"\} (\d+)/gm))
    reasons[m[1] as string] = Number(m[2]);
  const answered503: Record<string, number> = {};
  for (const m of metrics.matchAll(/^lagerscanner_http_request_duration_seconds_bucket\{([^}]*)\} (\d+)/gm)) {
    const labels = m[1] as string;
    const le = /(?:^|,)le="([^"]+)"/.exec(labels)?.[1];
    if (le === undefined || !/(?:^|,)status="503"/.test(labels)) continue;
    answered503[le] = (answered503[le] ?? 0) + Number(m[2]);
  }
  return { reasons, answered503 };
}

export async function readServerCounts(base: string, token: string): Promise<ServerCounts> {
  const res = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${token}` } });
  if (!res.ok) throw new Error(`GET /metrics: ${res.status}`);
  return parseServerCounts(await res.text());
}

/** What the server counted between two readings. */
export function countsSince(before: ServerCounts, after: ServerCounts): ServerCounts {
  const minus = (a: Record<string, number>, b: Record<string, number>) =>
    Object.fromEntries(Object.entries(a).map(([key, n]) => [key, n - (b[key] ?? 0)]));
  return {
    reasons: minus(after.reasons, before.reasons),
    answered503: minus(after.answered503, before.answered503),
  };
}

/** The Umbuchung flow's three calls from the bench's workloads: location, article, rebooking. */
export function umbuchungMix(workloads: Workload[]): (scanner: number, m: number) => PlannedCall {
  const pick = (prefix: string) => {
    const found = workloads.find((w) => w.name.startsWith(prefix));
    if (!found) throw new Error(`bench workload '${prefix}' not found`);
    return found;
  };
  const flow = [
    pick('GET inventur/findlp'),
    pick('GET inventur/findarticle'),
    pick('POST umbuchung/artikel'),
  ];
  return (scanner, m) => {
    const request = (flow[(scanner + m) % flow.length] as Workload).next();
    return {
      method: request.method,
      path: request.path,
      ...(request.body === undefined ? {} : { body: request.body, key: randomUUID() }),
    };
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The connections the generator opens before a run: as many as its calls are expected to hold open at once
 * — a call a second per 3 scanners, each open for up to 0.6 s (the gate's longest line) — so a step's first
 * second measures the load, not the opening of hundreds of connections (`connectFirst`).
 */
export function connectionsFor(scanners: number): number {
  return Math.ceil(scanners / 5);
}

/** The generator's connections at most (see socketsFor). */
const MAX_SOCKETS = 4000;

/**
 * The most connections the generator may hold: one per scanner, as each handheld's browser keeps its own, up
 * to 4,000 — and not more than the open files this process may have (less 1,000 for everything else), never
 * fewer than 1,000. PostgreSQL at 2 × capacity (14,000–15,000 scanners, 15 s each, interleaved over two
 * sessions): with 1,000 the accepted calls waiting in the server's line held nearly all of them, the rest
 * waited here for one — 503s' p99 0.9–1.3 s, 18 timeouts; with 2,000 275–318 ms, with 4,000 125–504 ms, no
 * timeouts; with one per scanner 88 ms in one run and 779 ms with 1,436 timeouts in the next: the generator
 * opened thousands of connections in the run and fell behind (calls sent up to 340 ms late).
 */
export function socketsFor(scanners: number, openFiles = openFileLimit()): number {
  return Math.min(scanners, MAX_SOCKETS, Math.max(1000, openFiles - 1000));
}

/** This process's soft limit of open files (Linux: /proc/self/limits; Node raises it to the hard limit). */
export function openFileLimit(limits = readLimits()): number {
  const soft = /^Max open files\s+(\d+|unlimited)/m.exec(limits)?.[1];
  if (soft === undefined) return 2000; // unknown: 1,000 connections, as before
  return soft === 'unlimited' ? Number.MAX_SAFE_INTEGER : Number(soft);
}

function readLimits(): string {
  try {
    return fs.readFileSync('/proc/self/limits', 'utf8');
  } catch {
    return '';
  }
}

/**
 * Waits until the server is quiet again after a step (what a failed step queued may still be running):
 * at least `minMs`, then until three lookups in a row are answered within `quietMs` (or `maxMs` passed).
 */
export async function settle(options: {
  base: string;
  token: string;
  probe: () => PlannedCall;
  quietMs: number;
  minMs: number;
  maxMs: number;
}): Promise<boolean> {
  await sleep(options.minMs);
  const until = performance.now() + options.maxMs;
  let quiet = 0;
  while (performance.now() < until) {
    const call = options.probe();
    const started = performance.now();
    try {
      const response = await fetch(`${options.base}${call.path}`, {
        headers: { authorization: `Bearer ${options.token}` },
        signal: AbortSignal.timeout(BUDGET_MS),
      });
      await response.arrayBuffer();
      quiet = response.ok && performance.now() - started <= options.quietMs ? quiet + 1 : 0;
    } catch {
      quiet = 0;
    }
    if (quiet >= 3) return true;
    await sleep(50);
  }
  return false;
}

/** The whole measurement against a running server. */
export async function measureCapacity(options: {
  base: string;
  tokens: string[];
  /** The bench's HTTP workloads (the mix takes its three calls from them). */
  workloads: Workload[];
  /** The rebooking's database floor (bookings/s), for where to start and for the goal. */
  floorBookingsPerSecond: number;
  plan: CapacityPlan;
  log: (line: string) => void;
  /** An integration token for the server's /metrics: the overload row then says why it turned calls away. */
  metricsToken?: string;
}): Promise<CapacityReport> {
  const started = performance.now();
  const { plan, log } = options;
  const next = umbuchungMix(options.workloads);
  const lookup = () => next(0, 0); // scanner 0's first call: a location
  const calm = (quietMs: number) =>
    settle({
      base: options.base,
      token: options.tokens[0] as string,
      probe: lookup,
      quietMs,
      minMs: plan.settleMinMs,
      maxMs: plan.settleMaxMs,
    }).then((quiet) => quiet || log('  (the server was still busy when the next step began)'));
  const run = (scanners: number, seconds: number, extra: Partial<Parameters<typeof runOpenLoop>[0]> = {}) =>
    runOpenLoop({
      base: options.base,
      tokens: options.tokens,
      scanners,
      seconds,
      next,
      intervalMs: SCAN_INTERVAL_MS,
      budgetMs: BUDGET_MS,
      connectFirst: connectionsFor(scanners),
      maxSockets: socketsFor(scanners),
      ...extra,
    });

  // What the database alone would carry, as scanners: bookings/s × 3 calls × 3 s.
  const floorScanners = (options.floorBookingsPerSecond * 3 * SCAN_INTERVAL_MS) / 1000;
  await run(5 * UNLOADED_SCANNERS, plan.warmUpSeconds); // JIT and caches, not counted
  await calm(100);
  const search = await findCapacity({
    unloadedScanners: UNLOADED_SCANNERS,
    start: Math.max(2 * UNLOADED_SCANNERS, Math.round(floorScanners / 4)),
    // Between the quiet unloaded run and the first step: that step's load, not counted. Straight after the
    // quiet run the first step met a server not yet up to speed (V8 still optimising code that had run a few
    // hundred times; the machine idle for 15 s): on PostgreSQL its first 0.7–1.5 s answered in 100–200 ms,
    // and it failed at a load that passed a minute later — the search then ended below half of what it carries.
    warmUp: async (scanners, limitMs) => {
      await run(scanners, plan.warmUpSeconds);
      await calm(Math.max(limitMs, 20));
    },
    max: Math.max(4 * UNLOADED_SCANNERS, Math.round(floorScanners * 4)),
    precision: plan.precision,
    log,
    measure: async (scanners, limitMs) => {
      const unloaded = limitMs === Number.POSITIVE_INFINITY;
      const planned = (scanners / SCAN_INTERVAL_MS) * 1000 * plan.stepSeconds;
      const result = await run(scanners, unloaded ? plan.unloadedSeconds : plan.stepSeconds, {
        retries: 0,
        slowMs: limitMs,
        // A step that has already failed ends at once: a timeout, an error, a 503, or more than 1 % slow.
        stopWhen: unloaded
          ? undefined
          : (live) => live.timeouts + live.errors + live.shed > 0 || live.slow > 0.01 * planned,
      });
      await calm(unloaded ? 100 : Math.max(limitMs, 20));
      return result;
    },
  });
  const overloadSince = new Date();
  let overload: OpenLoopResult | null = null;
  let serverCounts: ServerCounts | null = null;
  if (search.capacity) {
    const countsBefore = options.metricsToken
      ? await readServerCounts(options.base, options.metricsToken)
      : null;
    const scanners = OVERLOAD_FACTOR * search.capacity.scanners;
    log(
      `  overload: ${scanners} scanners for ${plan.overloadSeconds} s, retrying 503s as the handheld does …`,
    );
    overload = await run(scanners, plan.overloadSeconds, { retries: HANDHELD_RETRIES });
    if (countsBefore && options.metricsToken) {
      serverCounts = countsSince(countsBefore, await readServerCounts(options.base, options.metricsToken));
    }
    log(
      `  overload: ${Math.round(overload.rps)} req/s accepted, p99 ${ms(overload.ok.p99)} ms; ${overload.shed.count} × 503 (p99 ${ms(overload.shed.p99)} ms); ${overload.timeouts} timeouts, ${overload.errors} errors`,
    );
    await calm(Math.max(search.limitMs, 20));
  }
  return {
    search,
    overload,
    overloadSince,
    floorBookingsPerSecond: options.floorBookingsPerSecond,
    plan,
    seconds: (performance.now() - started) / 1000,
    serverCounts,
  };
}

export interface CapacityRow {
  what: string;
  figure: string;
  goal: string;
  pass: boolean;
}

const ms = (x: number) => x.toFixed(x < 10 ? 1 : 0);
const count = (x: number) => Math.round(x).toLocaleString('en');

/** The table's rows: the capacity beside the database floor, and the overload run against its goals. */
export function capacityRows(report: CapacityReport): CapacityRow[] {
  const { search, overload, plan } = report;
  const floorRps = report.floorBookingsPerSecond * 3;
  const rows: CapacityRow[] = [];
  const cap = search.capacity;
  const trace = search.steps.map(
    (s) => `${count(s.scanners)} ${s.verdict === '' ? '✓' : `✗ (${s.verdict})`}`,
  );
  if (!cap) {
    rows.push({
      what: `capacity: scanners one server carries (open loop, 1 scan / 3 s each, 2 lookups : 1 rebooking)`,
      figure: `the unloaded run (${UNLOADED_SCANNERS} scanners) failed: ${stepVerdict(search.unloaded, Number.POSITIVE_INFINITY)}`,
      goal: `≥ ${FLOOR_SHARE_GOAL * 100} % of the rebooking DB floor × 3`,
      pass: false,
    });
    return rows;
  }
  const share = cap.rps / floorRps;
  rows.push({
    what:
      `capacity: scanners one server carries (open loop, 1 scan / 3 s each, 2 lookups : 1 rebooking; ` +
      `largest with p99 ≤ ${P99_FACTOR} × unloaded, no timeout, error or 503; ${plan.stepSeconds} s steps)`,
    figure:
      `**${search.atMax ? '≥ ' : ''}${count(cap.scanners)} scanners**, ${count(cap.rps)} req/s, p50 ${ms(cap.ok.p50)} ms, ` +
      `p99 ${ms(cap.ok.p99)} ms (unloaded, ${UNLOADED_SCANNERS} scanners, ${count(search.unloaded.ok.count)} calls: p50 ${ms(search.unloaded.ok.p50)} ms, ` +
      `p99 ${ms(search.unloaded.ok.p99)} ms → limit ${ms(search.limitMs)} ms); rebooking DB floor ` +
      `${count(report.floorBookingsPerSecond)} bookings/s × 3 = ${count(floorRps)} req/s → ${(share * 100).toFixed(0)} % of it; ` +
      `steps: ${trace.join(', ')}; the generator sent calls up to ${ms(cap.late.max)} ms late at that step (counted in the latency)`,
    goal: `≥ ${FLOOR_SHARE_GOAL * 100} % of the rebooking DB floor × 3`,
    pass: share >= FLOOR_SHARE_GOAL,
  });
  if (!overload) return rows;
  const over = `overload: ${OVERLOAD_FACTOR} × capacity (${count(overload.scanners)} scanners, ${plan.overloadSeconds} s, 503s retried after Retry-After as the handheld does)`;
  const attempts = overload.ok.count + overload.shed.count + overload.timeouts + overload.errors;
  rows.push({
    what: `${over}: accepted requests`,
    // With calls turned away the server was full: what it answered then is the most this machine carries of
    // the mix (server, database and generator on the same cores), the ceiling the capacity's share can reach.
    figure:
      `${count(overload.ok.count)} answered, ${count(overload.rps)} req/s, p50 ${ms(overload.ok.p50)} ms, p99 ${ms(overload.ok.p99)} ms` +
      (overload.shed.count > 0
        ? ` — the server full: ${((overload.rps / floorRps) * 100).toFixed(0)} % of the rebooking DB floor × 3`
        : ''),
    goal: `p99 ≤ ${count(ACCEPTED_P99_MS)} ms`,
    pass: overload.ok.count > 0 && overload.ok.p99 <= ACCEPTED_P99_MS,
  });
  const malformed =
    overload.shedMalformed > 0 ? `; ${overload.shedMalformed} without Retry-After or message` : '';
  // The server's reasons: on arrival (at once), or after waiting past the longest wait (late: the slow 503s).
  // Then how fast it answered them once it had read them, and how late the generator's own loop ran: the
  // rest of a 503's time at the generator is the way there and back on these shared cores.
  const counts = report.serverCounts;
  const shed = counts?.reasons;
  const answered = counts?.answered503;
  const all = answered?.['+Inf'] ?? 0;
  const within = (le: string) => `${(((answered?.[le] ?? 0) / all) * 100).toFixed(1)} %`;
  const serverSaid = shed
    ? `; the server: ${count(shed.estimate ?? 0)} on arrival, ${count(shed.waited ?? 0)} after waiting, ${count(shed.gone ?? 0)} whose client had left` +
      (all > 0
        ? `; from reading the request to the answer ${within('0.005')} within 5 ms, ${within('0.05')} within 50 ms`
        : '')
    : '';
  const generator = `; the generator's own event loop ran up to ${ms(overload.loopLag.max)} ms late (p99 ${ms(overload.loopLag.p99)} ms)`;
  rows.push({
    what: `${over}: turned away (503)`,
    figure:
      overload.shed.count === 0
        ? 'none (nothing turned away)'
        : `${count(overload.shed.count)} × 503 (${((overload.shed.count / attempts) * 100).toFixed(0)} % of attempts), ` +
          `p50 ${ms(overload.shed.p50)} ms, p99 ${ms(overload.shed.p99)} ms; ${count(overload.okAfterRetry)} calls answered ` +
          `on a retry, ${count(overload.calls.shed)} still 503 when their ${BUDGET_MS / 1000} s ran out${malformed}${serverSaid}${generator}`,
    goal: `p99 < ${SHED_P99_MS} ms, with Retry-After and a message`,
    pass: overload.shed.count === 0 || (overload.shed.p99 < SHED_P99_MS && overload.shedMalformed === 0),
  });
  rows.push({
    what: `${over}: timeouts (no answer within ${BUDGET_MS / 1000} s) and other errors`,
    figure: `${count(overload.timeouts)} timeouts, ${count(overload.errors)} errors${overload.errorKinds ? ` (${overload.errorKinds})` : ''}`,
    goal: '0 and 0',
    pass: overload.timeouts === 0 && overload.errors === 0,
  });
  return rows;
}

/**
 * Nothing lost: each rebooking of the overload run answered 200 is in the journal exactly once (one piece)
 * with its key stored as answered 200; no rebooking is in it twice. One not answered 200 (503 until its
 * 5 s ran out, timed out) may have been booked once — the handheld's outbox would send it again with the
 * same key and get the stored answer. Run after the server stopped.
 */
export async function checkBookedOnce(
  db: Kysely<Database>,
  writes: Map<string, CallOutcome>,
  since: Date,
): Promise<CapacityRow> {
  const from = new Date(since.getTime() - 60_000).toISOString();
  const journal = await sql<{ key: string; n: number; amount: number }>`
    select request_key::text as key, count(*)::int as n, sum(amount)::int as amount from movements
    where at >= ${from}::timestamptz and request_key is not null group by 1`.execute(db);
  const stored = await sql<{ key: string; status: number }>`
    select key::text as key, status_code as status from idempotency where created_at >= ${from}::timestamptz`.execute(
    db,
  );
  const booked = new Map(journal.rows.map((r) => [r.key, r]));
  const statuses = new Map(stored.rows.map((r) => [r.key, r.status]));
  let answered = 0;
  let answeredOnce = 0;
  let unanswered = 0;
  let unansweredBooked = 0;
  let twice = 0;
  for (const [key, outcome] of writes) {
    const row = booked.get(key);
    const once = row?.n === 1 && row.amount === 1;
    if (row && !once) twice++;
    if (outcome === 'ok') {
      answered++;
      if (once && statuses.get(key) === 200) answeredOnce++;
    } else {
      unanswered++;
      if (once) unansweredBooked++;
    }
  }
  return {
    what: 'overload: nothing lost — each rebooking answered 200 is in the journal once, with its key stored',
    figure:
      `${count(answeredOnce)} of ${count(answered)} answered rebookings booked exactly once (journal row and ` +
      `idempotency row 200); ${count(unanswered)} not answered 200, ${count(unansweredBooked)} of them booked once ` +
      `(the outbox's next try gets the stored answer); ${twice} booked more than once`,
    goal: 'all answered booked once, none twice',
    pass: answered > 0 && answeredOnce === answered && twice === 0,
  };
}
