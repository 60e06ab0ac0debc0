import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkBookedOnce } from '../../bench/capacity.ts';
import { type CallOutcome, runOpenLoop } from '../../bench/open-loop.ts';
import { loginDemo, startTestApp, type TestApp } from '../support/app.ts';
import { databaseKinds } from '../support/db.ts';
import { articleId, locationId } from '../support/stock.ts';

/** The bench's "nothing lost" check on real rebookings booked through the real server by the open loop. */
describe.each(databaseKinds())('the bench’s booked-once check on %s', (kind) => {
  let t: TestApp;
  let writes: Map<string, CallOutcome>;
  let since: Date;

  beforeAll(async () => {
    t = await startTestApp(kind);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const token = await loginDemo(t.app);
    const db = t.database.db;
    const body = {
      from: await locationId(db, 'A-01-01-01'),
      to: await locationId(db, 'A-01-01-02'),
      article: await articleId(db, '100001'),
      amount: 1,
    };
    since = new Date();
    const result = await runOpenLoop({
      base,
      tokens: [token],
      scanners: 10,
      seconds: 0.5,
      intervalMs: 500,
      arrivals: 'even',
      next: () => ({ method: 'POST', path: '/api/umbuchung/artikel/', body, key: randomUUID() }),
    });
    expect(result.calls).toEqual({ ok: 10, shed: 0, timeout: 0, error: 0 });
    writes = result.writes;
  });
  afterAll(() => t.close());

  it('passes when every rebooking answered 200 is in the journal once with its key stored', async () => {
    const row = await checkBookedOnce(t.database.db, writes, since);
    expect(row.pass).toBe(true);
    expect(row.figure).toMatch(
      /^10 of 10 answered rebookings booked exactly once .*; 0 not answered 200, 0 of them/,
    );
  });

  it('counts one not answered but booked as harmless, and fails one answered but not booked', async () => {
    const [first] = writes.keys();
    const unanswered = new Map(writes).set(first as string, 'timeout');
    const harmless = await checkBookedOnce(t.database.db, unanswered, since);
    expect(harmless.pass).toBe(true);
    expect(harmless.figure).toContain('1 not answered 200, 1 of them booked once');

    const lost = new Map(writes).set(randomUUID(), 'ok');
    const row = await checkBookedOnce(t.database.db, lost, since);
    expect(row.pass).toBe(false);
    expect(row.figure).toMatch(/^10 of 11 answered/);
  });

  it('fails a rebooking that is in the journal twice', async () => {
    const [first] = writes.keys();
    await sql`
      insert into movements (kind, article_id, from_location_id, to_location_id, amount, user_id, request_key)
      select kind, article_id, from_location_id, to_location_id, amount, user_id, request_key
      from movements where request_key = ${first}::uuid`.execute(t.database.db);
    const row = await checkBookedOnce(t.database.db, writes, since);
    expect(row.pass).toBe(false);
    expect(row.figure).toMatch(/^9 of 10 answered.*; 1 booked more than once$/);
  });
});
