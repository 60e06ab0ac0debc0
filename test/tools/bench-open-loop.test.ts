import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type CapacityReport,
  capacityRows,
  countsSince,
  findCapacity,
  openFileLimit,
  parseServerCounts,
  quickPlan,
  socketsFor,
  stepVerdict,
} from '../../bench/capacity.ts';
import { barsFromMarkdown } from '../../bench/chart.ts';
import {
  type OpenLoopOptions,
  type OpenLoopResult,
  type PlannedCall,
  retryAfterMs,
  runOpenLoop,
} from '../../bench/open-loop.ts';

/** A node:http server for the generator to talk to; `handle` decides each answer. */
async function fakeServer(
  handle: (request: http.IncomingMessage, response: http.ServerResponse, body: string) => void,
) {
  const arrivals: { at: number; method: string; path: string; key?: string; auth?: string }[] = [];
  let closedEarly = 0;
  const server = http.createServer((request, response) => {
    arrivals.push({
      at: performance.now(),
      method: request.method ?? '',
      path: request.url ?? '',
      key: request.headers['x-idempotency-key'] as string | undefined,
      auth: request.headers.authorization,
    });
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => handle(request, response, body));
    response.on('close', () => {
      if (!response.writableFinished) closedEarly++;
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    arrivals,
    closedEarly: () => closedEarly,
  };
}

const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

const answer = (response: http.ServerResponse, status: number, body: unknown, headers = {}) => {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
};
const busy = { success: false, message: 'Der Server ist gerade ausgelastet. Bitte gleich noch einmal.' };
const lookup = (): PlannedCall => ({ method: 'GET', path: '/lookup' });
const booking = (): PlannedCall => ({
  method: 'POST',
  path: '/book',
  body: { amount: 1 },
  key: randomUUID(),
});

/** 10 scanners calling every 100 ms for one second, evenly spaced: 100 calls. */
const tenScannersForASecond = (base: string) => ({
  base,
  tokens: ['t'],
  scanners: 10,
  seconds: 1,
  intervalMs: 100,
  arrivals: 'even' as const,
});

describe('the open-loop generator', () => {
  it('sends every request at its time however slow the answers, and counts from that time', async () => {
    let held = 0;
    let mostHeld = 0;
    const fake = await fakeServer((_request, response) => {
      mostHeld = Math.max(mostHeld, ++held);
      setTimeout(() => {
        held--;
        answer(response, 200, { ok: true });
      }, 800);
    });
    // 20 scanners, one call each 200 ms: 100 requests a second, for one second.
    const result = await runOpenLoop({
      base: fake.base,
      tokens: ['t1', 't2'],
      scanners: 20,
      seconds: 1,
      intervalMs: 200,
      arrivals: 'even',
      next: lookup,
    });
    expect(result.scheduled).toBe(100);
    expect(result.ok.count).toBe(100);
    // Closed-loop, 20 callers would never have more than 20 requests at the server; open-loop sends on
    // (about 80 held at once; a stall of this busy machine only bunches them more).
    expect(mostHeld).toBeGreaterThanOrEqual(40);
    expect(result.ok.p50).toBeGreaterThanOrEqual(800);
    expect(result.rps).toBeGreaterThan(90);
    expect(result.timeouts + result.errors + result.shed.count).toBe(0);
  });

  it('counts the wait for a socket on its side too (no coordinated omission)', async () => {
    const fake = await fakeServer((_request, response) =>
      setTimeout(() => answer(response, 200, { ok: true }), 100),
    );
    // 5 sockets carry 50 answers a second; 100 a second are due: the wait grows, and it counts.
    const result = await runOpenLoop({ ...tenScannersForASecond(fake.base), maxSockets: 5, next: lookup });
    expect(result.ok.count).toBe(100);
    expect(result.ok.p50).toBeGreaterThan(300);
    expect(result.ok.p99).toBeGreaterThan(700); // the server itself took 100 ms for each
  });

  it('says how late its own event loop ran: an answer read late counts that in its latency', async () => {
    const fake = await fakeServer((_request, response) => answer(response, 200, { ok: true }));
    let calls = 0;
    const result = await runOpenLoop({
      ...tenScannersForASecond(fake.base),
      next: () => {
        // The generator's thread busy for 120 ms at its 50th call, as a starved generator would be.
        if (++calls === 50) {
          const until = performance.now() + 120;
          while (performance.now() < until);
        }
        return lookup();
      },
    });
    expect(result.ok.count).toBe(100);
    expect(result.loopLag.max).toBeGreaterThanOrEqual(100);
    expect(result.loopLag.max).toBeLessThan(1000);
    expect(result.loopLag.p99).toBeLessThanOrEqual(result.loopLag.max);
  });

  it('opens its connections before the clock starts, as a shift’s handhelds are connected', async () => {
    const fake = await fakeServer((request, response) =>
      request.url === '/healthz'
        ? answer(response, 200, { status: 'ok' })
        : setTimeout(() => answer(response, 200, { ok: true }), 50),
    );
    const server = servers.at(-1) as http.Server;
    let connections = 0;
    let connectionsAtFirstCall = -1;
    server.on('connection', () => connections++);
    server.on('request', (request: http.IncomingMessage) => {
      if (request.url !== '/healthz' && connectionsAtFirstCall < 0) connectionsAtFirstCall = connections;
    });
    // 40 calls a second held 50 ms each: about 2 at once, never more than the 8 opened first.
    const result = await runOpenLoop({
      base: fake.base,
      tokens: ['t'],
      scanners: 4,
      seconds: 1,
      intervalMs: 100,
      arrivals: 'even',
      connectFirst: 8,
      next: lookup,
    });
    expect(result.ok.count).toBe(40);
    expect(connectionsAtFirstCall).toBe(8);
    expect(connections).toBe(8);
    expect(fake.arrivals.filter((arrival) => arrival.path === '/healthz')).toHaveLength(8);
    // Not timed as calls: only the 40 lookups are counted.
    expect(result.scheduled).toBe(40);
  });

  it('spreads Poisson arrivals round robin over the scanners, each with its token', async () => {
    const fake = await fakeServer((request, response) =>
      answer(response, 200, { auth: request.headers.authorization }),
    );
    const calls: [number, number][] = [];
    const result = await runOpenLoop({
      base: fake.base,
      tokens: ['a', 'b', 'c'],
      scanners: 30,
      seconds: 1,
      intervalMs: 300, // 100 a second
      next: (scanner, m) => {
        calls.push([scanner, m]);
        return lookup();
      },
    });
    expect(result.scheduled).toBeGreaterThan(60);
    expect(result.scheduled).toBeLessThan(140);
    // Round robin over the scanners, each scanner's calls numbered 0, 1, 2, …
    calls.forEach(([scanner, m], k) => {
      expect(scanner).toBe(k % 30);
      expect(m).toBe(Math.floor(k / 30));
    });
    // Scanner j logs in as token j mod 3: the three tokens take turns.
    const perToken = ['a', 'b', 'c'].map((t) => fake.arrivals.filter((a) => a.auth === `Bearer ${t}`).length);
    expect(perToken.reduce((x, y) => x + y)).toBe(result.scheduled);
    expect(Math.max(...perToken) - Math.min(...perToken)).toBeLessThanOrEqual(1);
  });

  it('counts a call unanswered within its budget as a timeout, and aborts it', async () => {
    const fake = await fakeServer(() => undefined); // never answers
    const started = performance.now();
    const result = await runOpenLoop({
      base: fake.base,
      tokens: ['t'],
      scanners: 10,
      seconds: 0.5,
      intervalMs: 500,
      arrivals: 'even',
      budgetMs: 300,
      next: lookup,
    });
    expect(performance.now() - started).toBeLessThan(3000); // not the 5 s default
    expect(result.timeouts).toBe(10);
    expect(result.calls).toEqual({ ok: 0, shed: 0, timeout: 10, error: 0 });
    // The server saw each one given up.
    await expect.poll(() => fake.arrivals.length - fake.closedEarly()).toBe(0);
    expect(fake.arrivals.length).toBeGreaterThan(0);
  });

  it('retries a 503 after its Retry-After with the same key, and counts it apart from errors', async () => {
    const seen = new Set<string>();
    const fake = await fakeServer((request, response) => {
      const key = request.headers['x-idempotency-key'] as string | undefined;
      if (request.url === '/refused') return answer(response, 409, { success: false, message: 'Nein' });
      if (key && !seen.has(key)) {
        seen.add(key);
        return answer(response, 503, busy, { 'retry-after': '1' });
      }
      answer(response, 200, { success: true });
    });
    const result = await runOpenLoop({
      base: fake.base,
      tokens: ['t'],
      scanners: 12,
      seconds: 0.6,
      intervalMs: 600,
      arrivals: 'even',
      retries: 4,
      next: (scanner) =>
        scanner % 3 === 2 ? booking() : scanner === 0 ? { method: 'GET', path: '/refused' } : lookup(),
    });
    expect(result.scheduled).toBe(12);
    expect(result.shed.count).toBe(4); // each booking's first attempt
    expect(result.shedMalformed).toBe(0);
    expect(result.okAfterRetry).toBe(4);
    expect(result.calls).toEqual({ ok: 11, shed: 0, timeout: 0, error: 1 });
    expect(result.errorKinds).toBe('1 × 409');
    expect([...result.writes.values()]).toEqual(['ok', 'ok', 'ok', 'ok']);
    // Each booking twice under its one key, the second try a Retry-After later.
    for (const key of result.writes.keys()) {
      const tries = fake.arrivals.filter((a) => a.key === key);
      expect(tries).toHaveLength(2);
      expect((tries[1]?.at ?? 0) - (tries[0]?.at ?? 0)).toBeGreaterThanOrEqual(990);
    }
  });

  it('gives a call up as turned away when its budget ends before the next retry', async () => {
    const fake = await fakeServer((_request, response) =>
      answer(response, 503, busy, { 'retry-after': '1' }),
    );
    const result = await runOpenLoop({
      base: fake.base,
      tokens: ['t'],
      scanners: 2,
      seconds: 0.2,
      intervalMs: 200,
      arrivals: 'even',
      budgetMs: 2900,
      retries: 4,
      next: booking,
    });
    // Tries at 0 and 1 s; one at 2 s would leave less than a second of the 2.9 s budget for its answer (as
    // the handheld: RETRY_ANSWER_ROOM_MS).
    expect(result.shed.count).toBe(4);
    expect(result.calls).toEqual({ ok: 0, shed: 2, timeout: 0, error: 0 });
    expect([...result.writes.values()]).toEqual(['shed', 'shed']);
  });

  it('marks a 503 without Retry-After or message, and without retries takes the first 503 as final', async () => {
    const fake = await fakeServer((request, response) =>
      request.url === '/bare'
        ? answer(response, 503, {})
        : answer(response, 503, busy, { 'retry-after': '1' }),
    );
    const result = await runOpenLoop({
      base: fake.base,
      tokens: ['t'],
      scanners: 4,
      seconds: 0.4,
      intervalMs: 400,
      arrivals: 'even',
      next: (scanner) => ({ method: 'GET', path: scanner < 2 ? '/bare' : '/busy' }),
    });
    expect(result.calls).toEqual({ ok: 0, shed: 4, timeout: 0, error: 0 });
    expect(result.shedMalformed).toBe(2);
  });

  it('ends at once when told the step has failed, without counting what it cut off', async () => {
    const fake = await fakeServer(() => undefined);
    const started = performance.now();
    const result = await runOpenLoop({
      base: fake.base,
      tokens: ['t'],
      scanners: 50,
      seconds: 5,
      intervalMs: 500,
      slowMs: 100,
      stopWhen: (live) => live.slow > 5,
      next: lookup,
    });
    expect(performance.now() - started).toBeLessThan(3000); // not the 5 s window
    expect(result.stoppedEarly).toBe(true);
    expect(result.timeouts + result.errors + result.ok.count).toBe(0);
    await expect.poll(() => fake.arrivals.length - fake.closedEarly()).toBe(0);
  });

  it('reads Retry-After as seconds or a date, 1 s when missing', () => {
    expect(retryAfterMs('1')).toBe(1000);
    expect(retryAfterMs('0.5')).toBe(500);
    expect(retryAfterMs(undefined)).toBe(1000);
    expect(retryAfterMs('soon')).toBe(1000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 8000)).toBe(2000);
  });
});

/** A run's result with the given p99 (and anything else), for the search on a model server. */
function modelResult(scanners: number, p99: number, extra: Partial<OpenLoopResult> = {}): OpenLoopResult {
  return {
    scanners,
    seconds: 1,
    stoppedEarly: false,
    scheduled: scanners,
    ok: { count: scanners, p50: p99 / 2, p99 },
    shed: { count: 0, p50: 0, p99: 0 },
    late: { count: scanners, p50: 0, p99: 0, max: 0 },
    loopLag: { p99: 0, max: 0 },
    shedMalformed: 0,
    calls: { ok: scanners, shed: 0, timeout: 0, error: 0 },
    okAfterRetry: 0,
    timeouts: 0,
    errors: 0,
    errorKinds: '',
    rps: scanners / 3,
    writes: new Map(),
    ...extra,
  };
}

describe("the generator's connections", () => {
  it('lets each scanner hold a connection of its own, up to 4,000 and within the open files it may have', () => {
    expect(socketsFor(3_000, 20_000)).toBe(3_000);
    expect(socketsFor(15_000, 20_000)).toBe(4_000);
    expect(socketsFor(500, 20_000)).toBe(500);
    expect(socketsFor(15_000, 3_500)).toBe(2_500);
    // A low limit: 1,000 at most, as before this rule.
    expect(socketsFor(5_000, 1024)).toBe(1000);
    const limits = [
      'Limit                     Soft Limit           Hard Limit           Units',
      'Max processes             95431                95431                processes',
      'Max open files            20000                20000                files',
    ].join('\n');
    expect(openFileLimit(limits)).toBe(20_000);
    expect(
      openFileLimit(limits.replace('20000                20000', 'unlimited            unlimited')),
    ).toBe(Number.MAX_SAFE_INTEGER);
    // Not Linux: 1,000 connections at most, as before.
    expect(socketsFor(15_000, openFileLimit(''))).toBe(1000);
  });
});

describe('the capacity search', () => {
  it('steps up geometrically until a step fails, then bisects to the largest that passes', async () => {
    const measured: number[] = [];
    const search = await findCapacity({
      unloadedScanners: 30,
      start: 60,
      max: 10_000,
      precision: 1.1,
      measure: async (n) => {
        measured.push(n);
        return modelResult(n, n < 137 ? 10 : 100); // p99 jumps past 4 × 10 ms at 137 scanners
      },
    });
    expect(search.limitMs).toBe(40);
    expect(measured).toEqual([30, 60, 120, 240, 170, 143, 131]);
    expect(search.capacity?.scanners).toBe(131);
    expect(search.steps.map((s) => s.verdict)).toEqual([
      '',
      '',
      'p99 100 ms',
      'p99 100 ms',
      'p99 100 ms',
      '',
    ]);
  });

  it("warms up at the first step's load right before it, after the unloaded run and only once", async () => {
    const order: string[] = [];
    await findCapacity({
      unloadedScanners: 30,
      start: 60,
      max: 10_000,
      precision: 1.1,
      warmUp: async (scanners, limitMs) => {
        order.push(`warm-up ${scanners} (limit ${limitMs} ms)`);
      },
      measure: async (n) => {
        order.push(String(n));
        return modelResult(n, n < 100 ? 10 : 100);
      },
    });
    expect(order.slice(0, 4)).toEqual(['30', 'warm-up 60 (limit 40 ms)', '60', '120']);
    expect(order.filter((o) => o.startsWith('warm-up'))).toHaveLength(1);
  });

  it('fails a step for a single timeout, error or 503, whatever its p99', () => {
    const fine = modelResult(100, 10);
    expect(stepVerdict(fine, 40)).toBe('');
    expect(stepVerdict(modelResult(100, 10, { timeouts: 1 }), 40)).toBe('1 timeouts');
    expect(stepVerdict(modelResult(100, 10, { errors: 2, errorKinds: '2 × 409' }), 40)).toBe(
      'errors: 2 × 409',
    );
    expect(stepVerdict(modelResult(100, 10, { shed: { count: 1, p50: 1, p99: 1 } }), 40)).toBe('1 × 503');
    expect(stepVerdict(modelResult(100, 10, { stoppedEarly: true }), 40)).toBe('p99 over the limit');
  });

  it('goes below its start when the start fails, and reports the unloaded run failing as no capacity', async () => {
    const down = await findCapacity({
      unloadedScanners: 30,
      start: 1000,
      max: 10_000,
      precision: 1.1,
      measure: async (n) => modelResult(n, 10, n > 200 ? { shed: { count: 3, p50: 1, p99: 2 } } : {}),
    });
    expect(down.steps[0]).toMatchObject({ scanners: 1000, verdict: '3 × 503' });
    expect(down.capacity?.scanners).toBeGreaterThan(180);
    expect(down.capacity?.scanners).toBeLessThanOrEqual(200);

    const broken = await findCapacity({
      unloadedScanners: 30,
      start: 60,
      max: 10_000,
      precision: 1.1,
      measure: async (n) => modelResult(n, 10, { errors: 1, errorKinds: '1 × ECONNREFUSED' }),
    });
    expect(broken.capacity).toBeNull();
    expect(capacityRows(report(broken, null))[0]).toMatchObject({ pass: false });
  });

  it('stops at its ceiling and says the capacity is at least that', async () => {
    const search = await findCapacity({
      unloadedScanners: 30,
      start: 60,
      max: 200,
      precision: 1.1,
      measure: async (n) => modelResult(n, 10),
    });
    expect(search.steps.map((s) => s.scanners)).toEqual([60, 120, 200]);
    expect(search.atMax).toBe(true);
    expect(capacityRows(report(search, null))[0]?.figure).toContain('**≥ 200 scanners**');
  });
});

function report(search: CapacityReport['search'], overload: OpenLoopResult | null): CapacityReport {
  return {
    search,
    overload,
    overloadSince: new Date(),
    floorBookingsPerSecond: 100,
    plan: quickPlan,
    seconds: 1,
    serverCounts: null,
  };
}

/**
 * A server with 4 workers of 20 ms each (200 requests a second at most) and a queue of 40; past that it
 * answers 503 at once — as the admission gate is meant to.
 */
async function sheddingServer() {
  const queue: http.ServerResponse[] = [];
  let busyWorkers = 0;
  const work = (response: http.ServerResponse) => {
    busyWorkers++;
    setTimeout(() => {
      answer(response, 200, { success: true });
      busyWorkers--;
      const next = queue.shift();
      if (next) work(next);
    }, 20);
  };
  return fakeServer((_request, response) => {
    if (busyWorkers < 4) work(response);
    else if (queue.length < 40) queue.push(response);
    else answer(response, 503, busy, { 'retry-after': '1' });
  });
}

describe('capacity and overload against a server that sheds', () => {
  // About 10 s: steps of 1 s, then an overload second and its retries (the handheld's 5 s budget).
  it('finds a capacity near the saturation, and at twice that the overload rows pass', {
    timeout: 40_000,
  }, async () => {
    const fake = await sheddingServer();
    // One call per scanner every 100 ms: 20 scanners saturate the 4 workers; from 30 on, a 1 s step fills
    // the queue and is answered 503 whatever the p99 limit.
    const run = (scanners: number, seconds: number, extra: Partial<OpenLoopOptions> = {}) =>
      runOpenLoop({
        base: fake.base,
        tokens: ['t'],
        scanners,
        seconds,
        intervalMs: 100,
        next: (scanner, m) => ((scanner + m) % 3 === 2 ? booking() : lookup()),
        ...extra,
      });
    const search = await findCapacity({
      unloadedScanners: 2,
      start: 4,
      max: 100,
      precision: 1.5,
      measure: (n, limitMs) =>
        run(n, 1, { slowMs: limitMs, stopWhen: (live) => live.shed + live.timeouts + live.errors > 0 }),
    });
    const capacity = search.capacity?.scanners ?? 0;
    expect(capacity).toBeGreaterThanOrEqual(2);
    expect(capacity, JSON.stringify(search.steps)).toBeLessThan(30);
    expect(search.steps.some((s) => s.verdict !== '')).toBe(true);

    // At least 32 scanners (320 a second against 200): the queue fills within the second and the rest is shed.
    const overload = await run(2 * Math.max(capacity, 16), 1, { retries: 4 });
    const seen = JSON.stringify({ ...overload, writes: undefined });
    expect(overload.shed.count, seen).toBeGreaterThan(0);
    expect(overload.okAfterRetry, seen).toBeGreaterThan(0);
    expect(overload.errors, seen).toBe(0);
    // Each call ends once.
    const { ok, shed, timeout, error } = overload.calls;
    expect(ok + shed + timeout + error).toBe(overload.scheduled);
    // A booking turned away came again under its key, at most 4 times.
    const tries = new Map<string, number>();
    for (const a of fake.arrivals) if (a.key) tries.set(a.key, (tries.get(a.key) ?? 0) + 1);
    const triesOf = [...overload.writes.keys()].map((key) => tries.get(key) ?? 0);
    expect(triesOf.some((n) => n > 1)).toBe(true);
    expect(triesOf.every((n) => n <= 5)).toBe(true);
    // Which rows there are. Whether the timed ones pass depends on this machine's load: at load 7 on two
    // cores, this process sent calls up to 0.5 s late and some calls turned away four times timed out on the
    // fifth; the goals' arithmetic is checked on model results below.
    const rows = capacityRows(report(search, overload));
    expect(rows.map((r) => r.what.replace(/^.*: /, ''))).toEqual([
      expect.stringContaining('steps)'),
      'accepted requests',
      'turned away (503)',
      'timeouts (no answer within 5 s) and other errors',
    ]);
    expect(rows[2]?.figure).toMatch(/× 503 .* calls answered on a retry/);
    expect(rows[3]).toMatchObject({
      figure: `${overload.timeouts} timeouts, 0 errors`,
      pass: overload.timeouts === 0,
    });
  });

  it('passes the overload rows of a server that sheds: accepted within 1 s, 503s at once, no timeouts', () => {
    const shedding = (shed: Partial<OpenLoopResult>) =>
      capacityRows(
        report(
          { ...fakeSearch(), capacity: modelResult(200, 20) },
          modelResult(400, 350, { shed: { count: 900, p50: 1.5, p99: 9 }, okAfterRetry: 300, ...shed }),
        ),
      ).map((r) => r.pass);
    expect(shedding({})).toEqual([false, true, true, true]);
    expect(shedding({ shed: { count: 900, p50: 20, p99: 60 } })).toEqual([false, true, false, true]);
    expect(shedding({ shedMalformed: 1 })).toEqual([false, true, false, true]);
  });

  it('names what a full server answered as a share of the floor × 3: the most the capacity can reach there', () => {
    const accepted = (overload: OpenLoopResult) =>
      capacityRows(report({ ...fakeSearch(), capacity: modelResult(200, 20) }, overload))[1]?.figure;
    // 400 scanners answered at 133 req/s against a floor of 100 bookings/s × 3.
    const full = modelResult(400, 350, { shed: { count: 900, p50: 1.5, p99: 9 } });
    expect(accepted(full)).toContain('133 req/s');
    expect(accepted(full)).toContain('the server full: 44 % of the rebooking DB floor × 3');
    // Nothing turned away: the server was not shown full, so no ceiling is claimed.
    expect(accepted(modelResult(400, 350))).not.toContain('the server full');
  });

  it("reads the server's reasons and how fast it answered its 503s from /metrics, and says both", () => {
    const metrics = (shed: number, within5: number, within50: number, all: number) =>
      [
        `lagerscanner_requests_shed_total{reason="estimate"} ${shed}`,
        'lagerscanner_requests_shed_total{reason="waited"} 2',
        `lagerscanner_http_request_duration_seconds_bucket{le="0.005",method="GET",route="/api/inventur/findlp/:code",status="503"} ${within5}`,
        `lagerscanner_http_request_duration_seconds_bucket{le="0.05",method="GET",route="/api/inventur/findlp/:code",status="503"} ${within50}`,
        `lagerscanner_http_request_duration_seconds_bucket{le="+Inf",method="GET",route="/api/inventur/findlp/:code",status="503"} ${all}`,
        'lagerscanner_http_request_duration_seconds_bucket{le="0.005",method="POST",route="/api/umbuchung/artikel/",status="503"} 100',
        'lagerscanner_http_request_duration_seconds_bucket{le="0.05",method="POST",route="/api/umbuchung/artikel/",status="503"} 100',
        'lagerscanner_http_request_duration_seconds_bucket{le="+Inf",method="POST",route="/api/umbuchung/artikel/",status="503"} 100',
        'lagerscanner_http_request_duration_seconds_bucket{le="0.005",method="GET",route="/api/inventur/findlp/:code",status="200"} 5000',
        'lagerscanner_http_request_duration_seconds_bucket{le="+Inf",method="GET",route="/api/inventur/findlp/:code",status="200"} 9000',
      ].join('\n');
    const before = parseServerCounts(metrics(10, 50, 50, 50));
    expect(before).toEqual({
      reasons: { estimate: 10, waited: 2 },
      answered503: { '0.005': 150, '0.05': 150, '+Inf': 150 },
    });
    // During the run: 900 turned away on arrival; of 1,000 503s (+ 100 booking ones before) 890 within 5 ms.
    const during = countsSince(before, parseServerCounts(metrics(910, 840, 1040, 1050)));
    expect(during).toEqual({
      reasons: { estimate: 900, waited: 0 },
      answered503: { '0.005': 790, '0.05': 990, '+Inf': 1000 },
    });
    const overload = modelResult(400, 350, {
      shed: { count: 1000, p50: 1.5, p99: 70 },
      loopLag: { p99: 12, max: 180 },
    });
    const rows = capacityRows({
      ...report({ ...fakeSearch(), capacity: modelResult(200, 20) }, overload),
      serverCounts: during,
    });
    expect(rows[2]?.figure).toContain(
      'the server: 900 on arrival, 0 after waiting, 0 whose client had left; from reading the request to the answer 79.0 % within 5 ms, 99.0 % within 50 ms',
    );
    expect(rows[2]?.figure).toContain("the generator's own event loop ran up to 180 ms late (p99 12 ms)");
  });

  it('fails the overload rows of a server that queues: slow accepted answers and timeouts', () => {
    const queued = modelResult(400, 4200, {
      timeouts: 17,
      calls: { ok: 300, shed: 0, timeout: 17, error: 0 },
    });
    const rows = capacityRows(report({ ...fakeSearch(), capacity: modelResult(200, 20) }, queued));
    expect(rows.map((r) => r.pass)).toEqual([false, false, true, false]);
    expect(rows[2]?.figure).toBe('none (nothing turned away)');
    expect(rows[3]?.figure).toBe('17 timeouts, 0 errors');
  });

  it('adds no bar to the throughput chart', () => {
    const rows = capacityRows(
      report({ ...fakeSearch(), capacity: modelResult(200, 20) }, modelResult(400, 30)),
    );
    const table = rows.map((r) => `| ${r.what} | PGlite | ${r.figure} | ${r.goal} | PASS |`).join('\n');
    expect(barsFromMarkdown(table)).toEqual([]);
  });
});

function fakeSearch(): CapacityReport['search'] {
  return { unloaded: modelResult(30, 10), limitMs: 40, steps: [], capacity: null, atMax: false };
}
