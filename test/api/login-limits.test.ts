// Raw HTTP on purpose: each login comes from a client address of its own; the contract caller sets none.
import { PassThrough } from 'node:stream';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loginCard, loginPassword } from '../../src/contract/auth.ts';
import { texts } from '../../src/contract/texts.ts';
import { buildApp } from '../../src/server/app.ts';
import { testConfig } from '../../src/server/config.ts';
import { demo } from '../../src/server/seed/demo.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { databaseKinds, freshDatabase } from '../support/db.ts';

const TOO_MANY = texts.login.tooMany;

describe.each(databaseKinds())('login limits under concurrency on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind, { loginMaxFailuresPerUser: 10, loginMaxFailuresPerIp: 100 });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.database.db.deleteFrom('attempt_counters').execute();
  });

  const login = (username: string, password: string, ip: string) =>
    t.app.inject({
      method: 'POST',
      url: loginPassword.path,
      payload: { username, password },
      remoteAddress: ip,
    });

  it('checks at most the per-user limit of 100 parallel wrong passwords for one user', async () => {
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => login('demo', `falsch${i}`, `10.20.${i >> 8}.${i & 255}`)),
    );
    const statuses = answers.map((a) => a.statusCode);
    const checked = statuses.filter((s) => s === 401).length;
    expect(checked).toBe(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(90);
    expect(answers.find((a) => a.statusCode === 429)?.json()).toMatchObject({
      success: false,
      message: TOO_MANY,
    });
  });

  it('lets 30 right logins of one name at once all in: a try waits for the checks under way, not refused', async () => {
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => login('demo', 'demo', `10.21.0.${i}`)),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(30).fill(200));
  });

  it('checks at most the per-address limit of 300 parallel wrong passwords from one address', async () => {
    const answers = await Promise.all(
      Array.from({ length: 300 }, (_, i) => login(`niemand${i % 150}`, `falsch${i}`, '10.30.0.1')),
    );
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 401)).toHaveLength(100);
    expect(statuses.filter((s) => s === 429)).toHaveLength(200);
    // 100 password checks (scrypt, 16 MB each, four at a time): 2–4 s alone, over 20 s on a loaded machine.
  }, 90_000);
});

describe.each(databaseKinds())('login limit rules (decision 14) on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind, {
      loginMaxFailuresPerUser: 3,
      loginMaxFailuresPerIp: 12,
      loginWindowMinutes: 15,
    });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.database.db.deleteFrom('attempt_counters').execute();
  });

  const login = (username: string, password: string, ip: string) =>
    t.app.inject({
      method: 'POST',
      url: loginPassword.path,
      payload: { username, password },
      remoteAddress: ip,
    });
  const card = (stechuhrdevice: string, ip: string) =>
    t.app.inject({
      method: 'POST',
      url: loginCard.path,
      payload: { stechuhrdevice },
      remoteAddress: ip,
    });
  /** Seconds until the lock of a budget ends (null: none). */
  const lockLeft = async (kindOfBudget: string, subject: string) => {
    const row = await sql<{
      left: number | null;
    }>`select round(extract(epoch from locked_until - now()))::int as left
      from attempt_counters where kind = ${kindOfBudget} and subject = ${subject}`.execute(t.database.db);
    return row.rows[0]?.left ?? null;
  };
  const endLocks = () =>
    sql`update attempt_counters set locked_until = now() - interval '1 second'`.execute(t.database.db);

  it('counts wrong passwords and wrong cards apart: an address out of password tries still logs in by card, and back', async () => {
    for (let i = 0; i < 12; i++)
      expect((await login(`niemand${i % 4}`, 'falsch', '10.40.0.1')).statusCode).toBe(401);
    expect((await login('demo', 'demo', '10.40.0.1')).statusCode).toBe(429);
    expect((await card(demo.cardUser.card, '10.40.0.1')).statusCode).toBe(200);

    for (let i = 0; i < 12; i++) expect((await card(`FALSCH${i}`, '10.40.0.2')).statusCode).toBe(401);
    expect((await card(demo.cardUser.card, '10.40.0.2')).statusCode).toBe(429);
    expect((await login('demo', 'demo', '10.40.0.2')).statusCode).toBe(200);
  });

  it('lets the rest of a site behind one address log in while a few names are locked', async () => {
    for (const name of ['anna', 'bernd', 'carla'])
      for (let i = 0; i < 3; i++) expect((await login(name, 'falsch', '10.41.0.1')).statusCode).toBe(401);
    expect((await login('anna', 'falsch', '10.41.0.1')).statusCode).toBe(429);
    expect((await login('demo', 'demo', '10.41.0.1')).statusCode).toBe(200);
    expect((await card(demo.cardUser.card, '10.41.0.1')).statusCode).toBe(200);
  });

  it('locks a name for one minute first, and each failure after a lock doubles it up to the window', async () => {
    for (let i = 0; i < 3; i++) expect((await login('demo', 'falsch', `10.42.0.${i}`)).statusCode).toBe(401);
    const locks: (number | null)[] = [await lockLeft('password-user', 'demo')];
    expect((await login('demo', 'demo', '10.42.1.1')).statusCode).toBe(429);
    for (let i = 0; i < 5; i++) {
      await endLocks();
      expect((await login('demo', 'falsch', `10.42.2.${i}`)).statusCode).toBe(401);
      expect((await login('demo', 'demo', `10.42.3.${i}`)).statusCode).toBe(429);
      locks.push(await lockLeft('password-user', 'demo'));
    }
    expect(locks).toEqual([60, 120, 240, 480, 900, 900]);
    // When the lock is over, the right password gets in and clears the name's count.
    await endLocks();
    expect((await login('demo', 'demo', '10.42.4.1')).statusCode).toBe(200);
    expect((await login('demo', 'falsch', '10.42.4.2')).statusCode).toBe(401);
    expect((await login('demo', 'falsch', '10.42.4.3')).statusCode).toBe(401);
    expect((await login('demo', 'demo', '10.42.4.4')).statusCode).toBe(200);
  });

  it("forgets an address's failures when its window is over", async () => {
    for (let i = 0; i < 12; i++) expect((await card(`FALSCH${i}`, '10.43.0.1')).statusCode).toBe(401);
    expect((await card(demo.cardUser.card, '10.43.0.1')).statusCode).toBe(429);
    expect(await lockLeft('card-address', '10.43.0.1')).toBe(60);
    await sql`update attempt_counters set window_start = now() - interval '16 minutes', locked_until = now() - interval '1 second'`.execute(
      t.database.db,
    );
    for (let i = 0; i < 11; i++) expect((await card(`FALSCH${i}`, '10.43.0.1')).statusCode).toBe(401);
    expect((await card(demo.cardUser.card, '10.43.0.1')).statusCode).toBe(200);
  });

  it("keeps a name's failures for a day, so that waiting out one window does not give a fresh ten", async () => {
    for (let i = 0; i < 3; i++) expect((await login('demo', 'falsch', `10.44.0.${i}`)).statusCode).toBe(401);
    await sql`update attempt_counters set window_start = now() - interval '16 minutes', locked_until = now() - interval '1 second'`.execute(
      t.database.db,
    );
    expect((await login('demo', 'falsch', '10.44.1.1')).statusCode).toBe(401);
    expect((await login('demo', 'demo', '10.44.1.2')).statusCode).toBe(429);
    expect(await lockLeft('password-user', 'demo')).toBe(120);
  });
});

describe.each(databaseKinds())('a lock the operator sees (decision 14) on %s', (kind) => {
  it('logs one warning per lock with the budget, the name or address, the failures and the lock, no secret', async () => {
    const database = await freshDatabase(kind);
    const lines: string[] = [];
    const logStream = new PassThrough();
    logStream.on('data', (chunk) => lines.push(...String(chunk).split('\n').filter(Boolean)));
    const config = testConfig({ logLevel: 'warn', loginMaxFailuresPerUser: 3, loginMaxFailuresPerIp: 5 });
    const app = await buildApp({ db: database.db, config, logStream });
    try {
      const login = (password: string, ip: string) =>
        app.inject({
          method: 'POST',
          url: loginPassword.path,
          payload: { username: 'demo', password },
          remoteAddress: ip,
        });
      const locks = () =>
        lines
          .map((line) => JSON.parse(line) as Record<string, unknown>)
          .filter((entry) => entry.msg === 'too many failed attempts: locked');
      for (let i = 0; i < 2; i++) expect((await login(`Geheim-${i}`, '10.45.0.1')).statusCode).toBe(401);
      expect(locks()).toEqual([]);
      expect((await login('Geheim-2', '10.45.0.1')).statusCode).toBe(401);
      expect(locks()).toEqual([
        expect.objectContaining({
          level: 40,
          kind: 'password-user',
          subject: 'demo',
          failures: 3,
          lockSeconds: 60,
        }),
      ]);
      // Refused while locked: no check, no second warning. An address's own lock names the address.
      expect((await login('Geheim-3', '10.45.0.1')).statusCode).toBe(429);
      for (let i = 0; i < 5; i++)
        await app.inject({
          method: 'POST',
          url: loginCard.path,
          payload: { stechuhrdevice: `FALSCH${i}` },
          remoteAddress: '10.45.0.2',
        });
      expect(locks().map((l) => [l.kind, l.subject, l.failures, l.lockSeconds])).toEqual([
        ['password-user', 'demo', 3, 60],
        ['card-address', '10.45.0.2', 5, 60],
      ]);
      expect(lines.join('\n')).not.toMatch(/Geheim-|FALSCH/);
    } finally {
      await app.close();
      await database.close();
    }
  });
});
