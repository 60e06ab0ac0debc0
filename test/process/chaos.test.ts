import { describe, expect, inject, it } from 'vitest';
import { runChaos } from '../chaos/run.ts';
import { emptyPostgresDatabase } from '../support/db.ts';

/**
 * The short conservation run (issue 6): 20 scanners with the web app's client book through a fault proxy
 * for 30 s while the server is SIGKILLed 5 times; then the books must balance. `npm run chaos -- --minutes N`
 * is the long version.
 */
const short = {
  durationMs: 30_000,
  scanners: 20,
  kills: 5,
  seed: 7,
  log: (line: string) => console.log(line),
};

function expectBalancedBooks(report: Awaited<ReturnType<typeof runChaos>>) {
  expect(report.violations).toEqual([]);
  expect(report.kills).toBeGreaterThanOrEqual(5);
  for (const fault of ['reset', 'cut', 'drop', 'delay'] as const)
    expect(report.faults[fault]).toBeGreaterThan(0);
  // The run did real work: bookings went through, at least one per two scanners. (Not a speed check: the
  // embedded database is down for each of its five restarts, 4–8 s on a busy 2-core machine; 49 went
  // through once, 20 and 23 on 2026-12-07 beside a CI's end-to-end tests.)
  expect(report.actions.acked).toBeGreaterThanOrEqual(10);
  expect(report.actions.acked + report.actions.refused).toBe(report.actions.sent);
}

describe('chaos: nothing lost, nothing twice', () => {
  it('on the embedded database, one server instance killed 5 times', async () => {
    expectBalancedBooks(await runChaos({ database: 'pglite', instances: 1, ...short }));
  }, 240_000);

  it('on PostgreSQL, two server instances killed alternately', async (context) => {
    const adminUrl = inject('pgAdminUrl');
    if (!adminUrl) return context.skip();
    const databaseUrl = await emptyPostgresDatabase(adminUrl, 'chaos');
    expectBalancedBooks(await runChaos({ database: 'postgres', databaseUrl, instances: 2, ...short }));
  }, 240_000);
});
