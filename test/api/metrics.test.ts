import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginPassword } from '../../src/contract/auth.ts';
import { zollwagenList } from '../../src/contract/leitstand/zollwagen.ts';
import { findLp } from '../../src/contract/lookup.ts';
import { retourenerfassung } from '../../src/contract/retoure.ts';
import { createIntegrationToken } from '../../src/server/auth/integration-tokens.ts';
import { demo } from '../../src/server/seed/demo.ts';
import { authHeaders, loginAs, loginDemo, startTestApp, type TestApp } from '../support/app.ts';
import { databaseKinds } from '../support/db.ts';
import { caller } from '../support/endpoint-call.ts';

describe.each(databaseKinds())('GET /metrics on %s', (kind) => {
  let t: TestApp;
  let integration: string;
  let scanner: string;

  beforeAll(async () => {
    t = await startTestApp(kind);
    integration = await createIntegrationToken(t.database.db, 'prometheus');
    scanner = await loginDemo(t.app);
  });
  afterAll(() => t?.close());

  // GET /metrics is no call of the contract (a Prometheus scrape): requested as written.
  const metrics = async () => {
    const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: authHeaders(integration) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    return res.body;
  };
  /** The value of one series, 0 when it is not there yet. */
  const value = (body: string, series: string) => {
    const line = body.split('\n').find((l) => l.startsWith(`${series} `));
    return line ? Number(line.slice(series.length + 1)) : 0;
  };

  it('is only for an integration token: none 401, a scanner login 403', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
    const asScanner = await t.app.inject({ method: 'GET', url: '/metrics', headers: authHeaders(scanner) });
    expect(asScanner.statusCode).toBe(403);
  });

  it('counts requests by route pattern, bookings, refusals, replays and failed logins', async () => {
    const before = await metrics();
    const asScanner = caller(t.app, scanner);
    const lookup = await asScanner(findLp, { params: { code: 'A-01-01-01' } });
    expect(lookup.statusCode).toBe(200);
    const notFound = await asScanner(retourenerfassung, { body: { tracking: 'UNBEKANNT' } });
    expect(notFound.statusCode).toBe(404);
    const key = randomUUID();
    const capture = () => asScanner(retourenerfassung, { body: { tracking: '00340434161094042557' }, key });
    expect((await capture()).statusCode).toBe(200);
    expect((await capture()).statusCode).toBe(200); // the scanner's retry: answered from the store
    const wrong = await caller(t.app, null)(loginPassword, {
      body: { username: 'demo', password: 'falsch-4711' },
    });
    expect(wrong.statusCode).toBe(401);

    const after = await metrics();
    const grew = (series: string) => value(after, series) - value(before, series);
    expect(
      grew(
        'lagerscanner_http_request_duration_seconds_count{method="GET",route="/api/inventur/findlp/:code",status="200"}',
      ),
    ).toBe(1);
    expect(grew('lagerscanner_bookings_total{route="/api/retourenerfassung"}')).toBe(1);
    expect(grew('lagerscanner_idempotent_replays_total{route="/api/retourenerfassung"}')).toBe(1);
    expect(grew('lagerscanner_refusals_total{route="/api/retourenerfassung",status="404"}')).toBe(1);
    expect(grew('lagerscanner_login_failures_total{login="password",reason="wrong"}')).toBe(1);
    // The address as requested never becomes a label: the series stay few however many codes are scanned.
    expect(after).not.toContain('A-01-01-01');
  });

  it('shows the database connections and the process: event-loop lag, memory', async () => {
    const body = await metrics();
    expect(body).toMatch(/^lagerscanner_db_connections\{state="open"\} [1-9]/m);
    expect(body).toMatch(/^lagerscanner_db_connections\{state="waiting"\} 0$/m);
    expect(body).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
    expect(body).toMatch(/^process_resident_memory_bytes \d/m);
  });

  it('shows the admission gate by lane: the calls waiting, how long each held its place, the heavy operations', async () => {
    // A Leitstand call (back office) and a handheld lookup (the floor) each hold a place once.
    const lead = await loginAs(t.app, demo.leadUser);
    expect((await caller(t.app, lead)(zollwagenList)).statusCode).toBe(200);
    const body = await metrics();
    expect(body).toMatch(/^lagerscanner_admission_waiting\{lane="floor"\} 0$/m);
    expect(body).toMatch(/^lagerscanner_admission_waiting\{lane="backOffice"\} 0$/m);
    expect(body).toMatch(/^lagerscanner_admission_held_seconds_count\{lane="backOffice"\} [1-9]/m);
    expect(body).toMatch(/^lagerscanner_admission_held_seconds_count\{lane="floor"\} [1-9]/m);
    expect(body).toMatch(/^lagerscanner_heavy_operations 0$/m);
  });
});
