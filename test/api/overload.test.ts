import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { loginPassword } from '../../src/contract/auth.ts';
import { bookInventur } from '../../src/contract/inventur.ts';
import { findLp } from '../../src/contract/lookup.ts';
import { texts } from '../../src/contract/texts.ts';
import { moveArticle } from '../../src/contract/umbuchung.ts';
import { createIntegrationToken } from '../../src/server/auth/integration-tokens.ts';
import { admissionKind } from '../../src/server/http/gate.ts';
import { demo } from '../../src/server/seed/demo.ts';
import { authHeaders, loginDemo, startTestApp, type TestApp } from '../support/app.ts';
import { databaseKinds } from '../support/db.ts';
import { caller } from '../support/endpoint-call.ts';
import { articleId, locationId, stockInvariantViolations, stockOf } from '../support/stock.ts';

/**
 * Graceful overload (decision 26), through the real routes and the real admission gate on both databases.
 * The test fills the gate's places with work it finishes by hand and runs the gate on a clock it moves, so
 * which request waits and which is refused follows from the rule alone, never from this machine's speed.
 */
const MAX_WAIT_MS = 100;
/** What the gate is taught an admitted request takes (ms of its clock). */
const SERVICE_MS = 30;
/** How long to wait for requests to reach the gate: they are parsed on a machine busy with other tests. */
const UNTIL = { timeout: 10_000, interval: 10 };

describe.each(databaseKinds())('graceful overload on %s', (kind) => {
  let t: TestApp;
  let now = 0;
  let token: string;
  let integration: string;
  let ids: { from: number; to: number; article: number };

  beforeAll(async () => {
    t = await startTestApp(kind, { overloadMaxWaitMs: MAX_WAIT_MS }, { admission: { now: () => now } });
    token = await loginDemo(t.app);
    integration = await createIntegrationToken(t.database.db, 'prometheus');
    const db = t.database.db;
    ids = {
      from: await locationId(db, 'A-01-01-01'),
      to: await locationId(db, 'A-01-01-02'),
      article: await articleId(db, '100001'),
    };
    // Enough to book from in every test (a count above the stock adds the difference).
    const count = await caller(t.app, token)(bookInventur, {
      body: { lp: ids.from, article: ids.article, amount: 1000 },
    });
    expect(count.statusCode, count.body).toBe(200);
  });
  afterAll(() => t?.close());

  /** The kinds of call this test sends: each has its own average in the gate's estimate. */
  const kinds = () => [moveArticle, findLp, loginPassword].map((e) => t.app.admission.kind(admissionKind(e)));

  /** Teaches the gate that each of them holds its place SERVICE_MS, so its estimate is known here. */
  beforeEach(async () => {
    for (const kind of kinds())
      for (let i = 0; i < 400; i++)
        await t.app.admission.run(
          async () => {
            now += SERVICE_MS;
          },
          undefined,
          kind,
        );
  });

  /** Takes every place of the gate with work that ends when `release` is called. */
  function fillPlaces() {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const holders = Array.from({ length: t.app.admission.concurrency }, () =>
      t.app.admission.run(() => held),
    );
    return {
      release: async () => {
        release();
        await Promise.all(holders);
      },
    };
  }

  /** How many wait in line before the estimate passes the arrival's limit: places × limit ÷ service time. */
  const lineLength = () => {
    const serviceMs = Math.max(...kinds().map((kind) => t.app.admission.serviceMs(kind)));
    return Math.floor((t.app.admission.arrivalLimitMs() * t.app.admission.concurrency) / serviceMs);
  };

  const book = (key?: string) =>
    caller(t.app, token)(moveArticle, {
      body: { from: ids.from, to: ids.to, article: ids.article, amount: 1 },
      key,
    });

  /** Starts requests and records each answer as it comes. */
  function fire(requests: (() => Promise<LightMyRequestResponse>)[]) {
    const answers: (LightMyRequestResponse | undefined)[] = requests.map(() => undefined);
    const all = Promise.all(
      requests.map((request, i) =>
        request().then((res) => {
          answers[i] = res;
          return res;
        }),
      ),
    );
    return { answers, all, answered: () => answers.filter((a) => a !== undefined) };
  }

  const expectOverloadAnswer = (res: LightMyRequestResponse) => {
    expect(res.statusCode).toBe(503);
    // 1 s, or up to 3 s when the gate refused more calls than it served in the second before (decision 26).
    expect(res.headers['retry-after']).toMatch(/^[1-3]$/);
    expect(res.json()).toMatchObject({ success: false, message: texts.errors.overloaded });
  };

  const movements = async () =>
    Number(
      (
        await t.database.db
          .selectFrom('movements')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('answers the excess 503 at once while the admitted wait their turn and book; nothing is half-written', async () => {
    const fromBefore = await stockOf(t.database.db, ids.from, ids.article);
    const movementsBefore = await movements();
    const shedBefore = t.app.admission.shed.estimate;
    const places = fillPlaces();
    const waiting = lineLength();
    expect(waiting).toBeGreaterThan(0);
    const keys = Array.from({ length: waiting + 8 }, () => randomUUID());
    const burst = fire(keys.map((key) => () => book(key)));

    // The excess is answered while every place is still taken: at once, not after the line moved.
    await vi.waitFor(() => expect(burst.answered()).toHaveLength(8), UNTIL);
    expect(t.app.admission.waiting).toBe(waiting);
    for (const res of burst.answered()) expectOverloadAnswer(res);
    expect(t.app.admission.shed.estimate - shedBefore).toBe(8);

    // The load balancer's checks are not in line: the instance stays in.
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    // The operator sees it in GET /metrics.
    const metrics = await t.app.inject({ method: 'GET', url: '/metrics', headers: authHeaders(integration) });
    expect(metrics.body).toContain(`lagerscanner_admission_requests{state="waiting"} ${waiting}`);
    expect(metrics.body).toMatch(/lagerscanner_requests_shed_total\{reason="estimate"\} [1-9]/);

    await places.release();
    const answers = await burst.all;
    const booked = answers.filter((res) => res.statusCode === 200);
    const refused = answers.filter((res) => res.statusCode === 503);
    expect(booked).toHaveLength(waiting);
    expect(refused).toHaveLength(8);
    // Exactly the admitted bookings moved stock, each with its journal row; the refused left no trace.
    expect(await stockOf(t.database.db, ids.from, ids.article)).toBe(fromBefore - waiting);
    expect((await movements()) - movementsBefore).toBe(waiting);
    expect(await stockInvariantViolations(t.database.db)).toBe(0);
    const refusedKeys = keys.filter((_, i) => answers[i]?.statusCode === 503);
    const stored = await t.database.db
      .selectFrom('idempotency')
      .select('key')
      .where('key', 'in', refusedKeys)
      .execute();
    expect(stored).toEqual([]);
    expect([t.app.admission.inWork, t.app.admission.waiting]).toEqual([0, 0]);
  });

  it('books once a booking whose first try got 503 and whose retry (same key) got through', async () => {
    const fromBefore = await stockOf(t.database.db, ids.from, ids.article);
    const places = fillPlaces();
    const waiting = lineLength();
    const line = fire(Array.from({ length: waiting }, () => () => book()));
    await vi.waitFor(() => expect(t.app.admission.waiting).toBe(waiting), UNTIL);
    const key = randomUUID();
    const first = await book(key);
    expectOverloadAnswer(first);
    await places.release();
    await line.all;
    const afterLine = await stockOf(t.database.db, ids.from, ids.article);
    expect(afterLine).toBe(fromBefore - waiting);

    const retry = await book(key);
    expect(retry.statusCode).toBe(200);
    expect(await stockOf(t.database.db, ids.from, ids.article)).toBe(afterLine - 1);
    const again = await book(key);
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await stockOf(t.database.db, ids.from, ids.article)).toBe(afterLine - 1);
  });

  it('refuses before its work one whose turn came after the longest wait (a slow request ahead)', async () => {
    const fromBefore = await stockOf(t.database.db, ids.from, ids.article);
    const shedBefore = t.app.admission.shed.waited;
    const places = fillPlaces();
    const late = fire([() => book(), () => book()]);
    await vi.waitFor(() => expect(t.app.admission.waiting).toBe(2), UNTIL);
    now += MAX_WAIT_MS + 1; // the work ahead took longer than the gate expected
    await places.release();
    const [a, b] = await late.all;
    if (!a || !b) throw new Error('two answers expected');
    expectOverloadAnswer(a);
    expectOverloadAnswer(b);
    expect(t.app.admission.shed.waited - shedBefore).toBe(2);
    expect(await stockOf(t.database.db, ids.from, ids.article)).toBe(fromBefore);
  });

  it('counts no login attempt for a login refused for overload (decision 14 stays as it was)', async () => {
    const places = fillPlaces();
    const waiting = lineLength();
    const line = fire(
      Array.from(
        { length: waiting },
        () => () => caller(t.app, token)(findLp, { params: { code: 'A-01-01-01' } }),
      ),
    );
    await vi.waitFor(() => expect(t.app.admission.waiting).toBe(waiting), UNTIL);
    // More wrong passwords than the name's limit (10): counted, they would lock it.
    const wrong = await Promise.all(
      Array.from({ length: 12 }, () =>
        caller(t.app, null)(loginPassword, {
          body: { username: demo.passwordUser.username, password: 'falsch-4711' },
        }),
      ),
    );
    for (const res of wrong) expectOverloadAnswer(res);
    await places.release();
    for (const res of await line.all) expect(res.statusCode).toBe(200);
    expect(await loginDemo(t.app)).toMatch(/.+/);
  });

  it('drops a request whose client left while it waited, serves the one whose client stayed, and loses no place', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as AddressInfo).port;
    const fromBefore = await stockOf(t.database.db, ids.from, ids.article);
    const goneBefore = t.app.admission.shed.gone;
    /**
     * A booking over real HTTP on a connection of its own (a client that leaves: no inject, so no contract
     * caller); resolves with the status it got, if any.
     */
    const sendBooking = () => {
      const body = JSON.stringify({ from: ids.from, to: ids.to, article: ids.article, amount: 1 });
      const request = http.request({
        port,
        host: '127.0.0.1',
        method: moveArticle.method,
        path: moveArticle.path,
        agent: false,
        headers: {
          ...authHeaders(token),
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'x-idempotency-key': randomUUID(),
        },
      });
      const status = new Promise<number | null>((resolve) => {
        request.on('response', (res) => {
          res.resume();
          resolve(res.statusCode ?? null);
        });
        request.on('error', () => resolve(null)); // the abandoned one is torn down on purpose
      });
      request.end(body);
      return { request, status };
    };
    const connections = () =>
      new Promise<number>((resolve, reject) =>
        t.app.server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
      );

    const places = fillPlaces();
    const abandoned = sendBooking();
    await vi.waitFor(() => expect(t.app.admission.waiting).toBe(1), UNTIL);
    const kept = sendBooking();
    await vi.waitFor(() => expect(t.app.admission.waiting).toBe(2), UNTIL);
    abandoned.request.destroy(); // the handheld's 5 s ran out
    await vi.waitFor(async () => expect(await connections()).toBe(1), UNTIL); // the server saw it go
    await places.release();
    expect(await kept.status).toBe(200); // its body was read long ago: still a live client
    expect(await abandoned.status).toBeNull();
    expect(t.app.admission.shed.gone - goneBefore).toBe(1);
    expect([t.app.admission.inWork, t.app.admission.waiting]).toEqual([0, 0]);
    expect(await stockOf(t.database.db, ids.from, ids.article)).toBe(fromBefore - 1);
    // The place the abandoned one had is free: the next request goes straight in.
    expect((await book()).statusCode).toBe(200);
  });
});
