import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loginCard, logout } from '../../src/contract/auth.ts';
import { inventurHistory } from '../../src/contract/inventur.ts';
import { hashToken } from '../../src/server/auth/secrets.ts';
import { testConfig } from '../../src/server/config.ts';
import { housekeeping } from '../../src/server/housekeeping.ts';
import { loginDemo, startTestApp, type TestApp } from '../support/app.ts';
import { databaseKinds } from '../support/db.ts';
import { caller } from '../support/endpoint-call.ts';

describe.each(databaseKinds())('sessions: a cap per user and housekeeping on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind, { sessionMaxPerUser: 3, sessionIdleMinutes: 30 });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.database.db.deleteFrom('sessions').execute();
  });

  const history = (token: string) => caller(t.app, token)(inventurHistory);
  const lastSeen = (token: string, minutesAgo: number) =>
    sql`update sessions set last_seen_at = now() - make_interval(mins => ${minutesAgo})
      where token_hash = ${hashToken(token)}`.execute(t.database.db);

  it('ends the login a user has not used for longest when a new one passes the cap', async () => {
    const [a, b, c] = [await loginDemo(t.app), await loginDemo(t.app), await loginDemo(t.app)];
    await lastSeen(a, 1);
    await lastSeen(b, 5); // unused for longest, though not the first login
    await lastSeen(c, 3);
    const d = await loginDemo(t.app);
    expect((await history(b)).statusCode).toBe(401);
    for (const live of [a, c, d]) expect((await history(live)).statusCode).toBe(200);
    const open = await t.database.db
      .selectFrom('sessions')
      .select('id')
      .where('revoked_at', 'is', null)
      .execute();
    expect(open).toHaveLength(3);
  });

  it('holds the cap when one user logs in many times at once', async () => {
    await Promise.all(Array.from({ length: 12 }, () => loginDemo(t.app)));
    const open = await t.database.db
      .selectFrom('sessions')
      .select('id')
      .where('revoked_at', 'is', null)
      .execute();
    expect(open).toHaveLength(3);
  });

  it("purges ended and idle-expired logins, keeping each user's last one for 'last seen'", async () => {
    const [ended, idle, live] = [await loginDemo(t.app), await loginDemo(t.app), await loginDemo(t.app)];
    await caller(t.app, ended)(logout);
    await lastSeen(idle, 31);
    const card = await caller(t.app, null)(loginCard, { body: { stechuhrdevice: 'DEMOKARTE'.repeat(25) } });
    const cardToken: string = card.json().token;
    await lastSeen(cardToken, 60 * 24);
    await housekeeping(t.database.db, testConfig({ sessionIdleMinutes: 30 }));
    const left = await t.database.db.selectFrom('sessions').select('token_hash').execute();
    expect(left.map((s) => s.token_hash).sort()).toEqual([hashToken(live), hashToken(cardToken)].sort());
    expect((await history(live)).statusCode).toBe(200);
    expect((await history(cardToken)).statusCode).toBe(401);
  });

  it('purges attempt counters that count for nothing any more, and keeps running locks', async () => {
    await t.database.db.deleteFrom('attempt_counters').execute();
    await sql`insert into attempt_counters (kind, subject, failures, window_start, locked_until) values
      ('password-user', 'alt', 3, now() - interval '25 hours', null),
      ('password-user', 'gesperrt', 14, now() - interval '25 hours', now() + interval '10 minutes'),
      ('password-address', '10.0.0.1', 2, now() - interval '10 minutes', null)`.execute(t.database.db);
    await housekeeping(t.database.db, testConfig());
    const left = await t.database.db
      .selectFrom('attempt_counters')
      .select('subject')
      .orderBy('subject')
      .execute();
    expect(left.map((r) => r.subject)).toEqual(['10.0.0.1', 'gesperrt']);
  });
});

describe.each(databaseKinds())('the cap with the session cache on (decision 7) on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind, { sessionMaxPerUser: 1, sessionCacheSeconds: 2 }, { clock: () => 0 });
  });
  afterAll(() => t.close());

  it('refuses a login the cap ended at once on this instance, though it was remembered', async () => {
    const first = await loginDemo(t.app);
    const history = (token: string) => caller(t.app, token)(inventurHistory);
    expect((await history(first)).statusCode).toBe(200);
    const second = await loginDemo(t.app);
    expect((await history(first)).statusCode).toBe(401);
    expect((await history(second)).statusCode).toBe(200);
  });
});
