import http from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { RETRY_ANSWER_ROOM_MS } from '../src/web/api/client.ts';

/**
 * An open-loop load generator: N scanners, each sending one request every `intervalMs` (3 s: one scan), the
 * arrivals of all scanners together a Poisson stream (or evenly spread), each request sent at its time
 * whether or not the earlier ones were answered. autocannon is closed-loop: a slow answer delays the next
 * request, so a queueing server is offered less and its queue never shows. Here every latency counts from
 * the request's scheduled send time (no coordinated omission): time spent waiting for a socket on this side
 * counts too, as it would on a handheld.
 *
 * Like the handheld (src/web/api/client.ts): one budget (5 s) for a call with its retries; an attempt not
 * answered within it is a timeout and is aborted; a 503 is retried after its Retry-After (same idempotency
 * key) while retries last and a second of the budget is left for the retry's answer — when `retries` is
 * above 0. A 503 is its own category, not an error.
 */
export interface PlannedCall {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  /** X-Idempotency-Key of a write: one per call, the same for each of its attempts. */
  key?: string;
}

/** What became of a call: answered 2xx, still 503 when budget or retries ran out, no answer in time, or else. */
export type CallOutcome = 'ok' | 'shed' | 'timeout' | 'error';

export interface OpenLoopOptions {
  base: string;
  /** Bearer tokens; scanner j uses token j mod count. */
  tokens: string[];
  scanners: number;
  seconds: number;
  /** Scanner j's m-th call (m = 0, 1, …). */
  next: (scanner: number, m: number) => PlannedCall;
  /** One call per scanner every … ms (3000: one scan every 3 s). */
  intervalMs?: number;
  /** poisson: exponential gaps between the arrivals of all scanners together; even: equal gaps. */
  arrivals?: 'poisson' | 'even';
  /** The handheld's budget for a call with its retries (5000 ms). */
  budgetMs?: number;
  /** Retries after a 503 (the handheld: 4); 0: a 503 is final. */
  retries?: number;
  /** Answers slower than this count in `LiveCounts.slow` (to stop a step that has already failed). */
  slowMs?: number;
  /** Checked every 100 ms; true ends the run at once and aborts what is still open (not counted). */
  stopWhen?: (live: LiveCounts) => boolean;
  random?: () => number;
  /** Hears each call's outcome: when it was due (its first try, performance.now()) and its latency (ms). */
  onCall?: (call: {
    dueAt: number;
    latency: number;
    outcome: CallOutcome;
    method: PlannedCall['method'];
  }) => void;
  /** Sockets at most (more requests wait on this side, and that wait counts in their latency). */
  maxSockets?: number;
  /**
   * Connections opened (GET /healthz) before the clock starts, at most `maxSockets`: a shift's handhelds are
   * connected when a rush begins — each browser keeps its connection between scans. A fresh agent would
   * instead open hundreds within the rush's first second, which the server pays for as a connection storm
   * (measured: PGlite at 2 × capacity, the first second's 503s up to 270 ms, after it 17 ms).
   */
  connectFirst?: number;
}

export interface LiveCounts {
  elapsedMs: number;
  scheduled: number;
  ok: number;
  /** 503 answers (attempts). */
  shed: number;
  errors: number;
  timeouts: number;
  /** ok answers slower than slowMs, plus calls still open for longer than that. */
  slow: number;
}

export interface LatencySummary {
  count: number;
  p50: number;
  p99: number;
}

export interface OpenLoopResult {
  scanners: number;
  /** The sending window (shorter when stopped). */
  seconds: number;
  stoppedEarly: boolean;
  /** Calls scheduled in the window (first attempts). */
  scheduled: number;
  /** Answers 2xx, each attempt's latency from its own scheduled send. */
  ok: LatencySummary;
  /** 503 answers (attempts): how fast the server said no. */
  shed: LatencySummary;
  /** How late the calls were sent after their time (the generator's own delay; it counts in the latencies). */
  late: LatencySummary & { max: number };
  /**
   * How late the generator's own event loop ran (ms, sampled every 10 ms from the first call to the last
   * answer): an answer that came meanwhile was read that much later, and that counts in its latency too.
   */
  loopLag: { p99: number; max: number };
  /** 503s without a Retry-After or without a message in the body. */
  shedMalformed: number;
  /** Calls by outcome (a call retried after 503 counts once, by its last attempt). */
  calls: Record<CallOutcome, number>;
  /** Calls answered 2xx after one or more 503s. */
  okAfterRetry: number;
  timeouts: number;
  errors: number;
  /** e.g. '3 × 409, 1 × ECONNRESET'. */
  errorKinds: string;
  /** ok answers per second of the window. */
  rps: number;
  /** Outcome of every call with an idempotency key, by key. */
  writes: Map<string, CallOutcome>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

export function summarize(latencies: number[]): LatencySummary {
  const sorted = Float64Array.from(latencies).sort();
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
  return { count: sorted.length, p50: at(0.5), p99: at(0.99) };
}

/** Retry-After in seconds (RFC 9110: delay-seconds or an HTTP date); 1 s when missing or unreadable. */
export function retryAfterMs(header: string | string[] | undefined, now = Date.now()): number {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined) return 1000;
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? 1000 : Math.max(0, date - now);
}

export async function runOpenLoop(options: OpenLoopOptions): Promise<OpenLoopResult> {
  const intervalMs = options.intervalMs ?? 3000;
  const budgetMs = options.budgetMs ?? 5000;
  const retries = options.retries ?? 0;
  const slowMs = options.slowMs ?? Number.POSITIVE_INFINITY;
  const random = options.random ?? Math.random;
  const url = new URL(options.base);
  const agent = new http.Agent({
    keepAlive: true,
    maxSockets: options.maxSockets ?? 1000,
    maxFreeSockets: options.maxSockets ?? 1000,
  });
  const gapMs = intervalMs / options.scanners;
  await connect(agent, url, Math.min(options.connectFirst ?? 0, options.maxSockets ?? 1000));

  const okLatencies: number[] = [];
  const shedLatencies: number[] = [];
  const calls: Record<CallOutcome, number> = { ok: 0, shed: 0, timeout: 0, error: 0 };
  const kinds = new Map<string, number>();
  const writes = new Map<string, CallOutcome>();
  let shedMalformed = 0;
  let okAfterRetry = 0;
  let slowAnswers = 0;
  let scheduled = 0;
  let stopped = false;
  /** Open calls: when their current attempt was due, and how to abort it. */
  const open = new Map<number, { dueAt: number; abort: () => void }>();
  let openId = 0;
  let settle!: () => void;
  let sending = true;
  const allDone = new Promise<void>((resolve) => {
    settle = resolve;
  });
  const maybeDone = () => {
    if (!sending && open.size === 0) settle();
  };

  /** When each open call was first due, for `onCall`. */
  const firstDue = new Map<number, number>();
  const finish = (id: number, call: PlannedCall, outcome: CallOutcome) => {
    const dueAt = firstDue.get(id);
    firstDue.delete(id);
    if (options.onCall && dueAt !== undefined)
      options.onCall({ dueAt, latency: performance.now() - dueAt, outcome, method: call.method });
    open.delete(id);
    calls[outcome]++;
    if (call.key) writes.set(call.key, outcome);
    maybeDone();
  };
  const fail = (kind: string) => kinds.set(kind, (kinds.get(kind) ?? 0) + 1);

  /** One attempt of a call, due at `dueAt` (performance.now()); the call's budget ends at `deadline`. */
  const attempt = (
    id: number,
    call: PlannedCall,
    token: string,
    dueAt: number,
    deadline: number,
    n: number,
  ) => {
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    const body = call.body === undefined ? undefined : JSON.stringify(call.body);
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(Buffer.byteLength(body));
    }
    if (call.key) headers['x-idempotency-key'] = call.key;
    const request = http.request({
      agent,
      host: url.hostname,
      port: url.port,
      method: call.method,
      path: call.path,
      headers,
    });
    /** This attempt has its outcome (answer, timeout, error, or the run was stopped). */
    let concluded = false;
    const timer = setTimeout(
      () => {
        if (conclude()) finish(id, call, 'timeout');
        request.destroy();
      },
      Math.max(0, deadline - performance.now()),
    );
    function conclude(): boolean {
      if (concluded || stopped) return false;
      concluded = true;
      clearTimeout(timer);
      return true;
    }
    open.set(id, {
      dueAt,
      abort: () => {
        concluded = true;
        clearTimeout(timer);
        request.destroy();
        open.delete(id);
      },
    });
    const broken = (kind: string) => {
      if (!conclude()) return;
      fail(kind);
      finish(id, call, 'error');
    };
    request.on('error', (error: NodeJS.ErrnoException) => broken(error.code ?? error.message.slice(0, 40)));
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', (error: NodeJS.ErrnoException) => broken(error.code ?? 'answer cut'));
      response.on('close', () => broken('answer cut')); // after 'end' this finds the attempt concluded
      response.on('end', () => {
        if (!conclude()) return;
        const latency = performance.now() - dueAt;
        const status = response.statusCode ?? 0;
        if (status >= 200 && status < 300) {
          okLatencies.push(latency);
          if (latency > slowMs) slowAnswers++;
          if (n > 0) okAfterRetry++;
          finish(id, call, 'ok');
          return;
        }
        if (status === 503) {
          shedLatencies.push(latency);
          if (!response.headers['retry-after'] || !hasMessage(Buffer.concat(chunks))) shedMalformed++;
          const retryAt = performance.now() + retryAfterMs(response.headers['retry-after']);
          // As the handheld: a retry only with a second of the budget left for its answer.
          if (n >= retries || retryAt + RETRY_ANSWER_ROOM_MS > deadline) {
            finish(id, call, 'shed');
            return;
          }
          const wait = setTimeout(() => {
            if (!stopped) attempt(id, call, token, retryAt, deadline, n + 1);
          }, retryAt - performance.now());
          open.set(id, {
            dueAt: retryAt,
            abort: () => {
              clearTimeout(wait);
              open.delete(id);
            },
          });
          return;
        }
        fail(`${status}`);
        finish(id, call, 'error');
      });
    });
    request.end(body);
  };

  const lag = monitorEventLoopDelay({ resolution: 10 });
  lag.enable();
  const start = performance.now();
  const end = start + options.seconds * 1000;
  const perScanner = new Array<number>(options.scanners).fill(0);
  const live = (): LiveCounts => {
    const now = performance.now();
    let slowOpen = 0;
    for (const { dueAt } of open.values()) if (now - dueAt > slowMs) slowOpen++;
    return {
      elapsedMs: now - start,
      scheduled,
      ok: okLatencies.length,
      shed: shedLatencies.length,
      errors: calls.error,
      timeouts: calls.timeout,
      slow: slowAnswers + slowOpen,
    };
  };

  /** How late each call left (this process busy: its latency counts from its time all the same). */
  const lateness: number[] = [];
  let due = start + (options.arrivals === 'even' ? 0 : -Math.log(1 - random()) * gapMs);
  let lastCheck = start;
  while (!stopped) {
    const now = performance.now();
    while (due <= now && due < end) {
      const scanner = scheduled % options.scanners;
      const m = perScanner[scanner] ?? 0;
      perScanner[scanner] = m + 1;
      const token = options.tokens[scanner % options.tokens.length] as string;
      const id = openId++;
      firstDue.set(id, due);
      attempt(id, options.next(scanner, m), token, due, due + budgetMs, 0);
      lateness.push(now - due);
      scheduled++;
      due += options.arrivals === 'even' ? gapMs : -Math.log(1 - random()) * gapMs;
    }
    if (now - lastCheck >= 100) {
      lastCheck = now;
      if (options.stopWhen?.(live())) stopped = true;
    }
    if (stopped || due >= end) break;
    await sleep(Math.min(due - performance.now(), 20));
  }
  const windowSeconds = stopped ? (performance.now() - start) / 1000 : options.seconds;
  sending = false;
  if (stopped) {
    for (const entry of [...open.values()]) entry.abort();
  } else {
    maybeDone();
    // What is still open ends within its budget; keep checking whether the step has failed meanwhile.
    while (open.size > 0) {
      const done = await Promise.race([allDone.then(() => true), sleep(100).then(() => false)]);
      if (done) break;
      if (options.stopWhen?.(live())) {
        stopped = true;
        for (const entry of [...open.values()]) entry.abort();
      }
    }
  }
  lag.disable();
  agent.destroy();
  const ok = summarize(okLatencies);
  return {
    scanners: options.scanners,
    seconds: windowSeconds,
    stoppedEarly: stopped,
    scheduled,
    ok,
    shed: summarize(shedLatencies),
    late: { ...summarize(lateness), max: lateness.reduce((a, b) => Math.max(a, b), 0) },
    // The histogram counts the timer's own 10 ms in each sample (nanoseconds).
    loopLag: {
      p99: Math.max(0, lag.percentile(99) / 1e6 - 10),
      max: Math.max(0, lag.max / 1e6 - 10),
    },
    shedMalformed,
    calls,
    okAfterRetry,
    timeouts: calls.timeout,
    errors: calls.error,
    errorKinds: [...kinds].map(([kind, n]) => `${n} × ${kind}`).join(', '),
    rps: windowSeconds > 0 ? ok.count / windowSeconds : 0,
    writes,
  };
}

/** Opens `count` keep-alive connections in `agent` at once (each with one GET /healthz, its answer read). */
async function connect(agent: http.Agent, url: URL, count: number): Promise<void> {
  await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<void>((resolve) => {
          const request = http.request(
            { agent, host: url.hostname, port: url.port, path: '/healthz' },
            (response) => response.resume().on('end', resolve).on('error', resolve),
          );
          request.on('error', () => resolve());
          request.end();
        }),
    ),
  );
}

/** The server's refusal body: `{ success: false, message }` with a message to show. */
function hasMessage(body: Buffer): boolean {
  try {
    const parsed = JSON.parse(body.toString('utf8')) as { message?: unknown };
    return typeof parsed.message === 'string' && parsed.message.length > 0;
  } catch {
    return false;
  }
}
