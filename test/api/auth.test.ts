import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loginCard, loginPassword, logout } from '../../src/contract/auth.ts';
import { inventurHistory } from '../../src/contract/inventur.ts';
import { texts } from '../../src/contract/texts.ts';
import { hashToken } from '../../src/server/auth/secrets.ts';
import { demo } from '../../src/server/seed/demo.ts';
import { authHeaders, loginDemo, startTestApp, type TestApp } from '../support/app.ts';
import { databaseKinds } from '../support/db.ts';
import { caller } from '../support/endpoint-call.ts';

describe.each(databaseKinds())('login and sessions on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind, {
      loginMaxFailuresPerUser: 3,
      loginMaxFailuresPerIp: 8,
      sessionIdleMinutes: 30,
    });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.database.db.deleteFrom('attempt_counters').execute();
  });

  /** With exactly these headers: no login of the caller's own, the test is about the login header. */
  const history = (headers: Record<string, string>) => caller(t.app, null)(inventurHistory, { headers });
  const anonymous = () => caller(t.app, null);

  it('logs in with name and password and answers token, name, id and role', async () => {
    const res = await anonymous()(loginPassword, { body: { username: 'demo', password: 'demo' } });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: true, name: 'Demo Nutzer', role: 'mitarbeiter' });
    expect(body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(typeof body.id).toBe('number');
    for (const user of [demo.leadUser, demo.adminUser]) {
      const lead = await anonymous()(loginPassword, { body: user });
      expect(lead.json()).toMatchObject({ success: true, name: user.name, role: user.role });
    }
  });

  it('stores only a hash of the session token and of the password', async () => {
    const token = await loginDemo(t.app);
    const sessions = await t.database.db.selectFrom('sessions').select('token_hash').execute();
    expect(sessions.map((s) => s.token_hash)).not.toContain(token);
    const user = await t.database.db
      .selectFrom('users')
      .select('password_hash')
      .where('username', '=', 'demo')
      .executeTakeFirstOrThrow();
    expect(user.password_hash).toMatch(/^scrypt\$/);
  });

  it('logs in with the scanned employee card', async () => {
    const res = await anonymous()(loginCard, { body: { stechuhrdevice: demo.cardUser.card } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, name: 'Karten Nutzer', role: 'mitarbeiter' });
  });

  it('refuses a wrong password, an unknown name and an unknown card with the German message', async () => {
    // From a client address of its own (which the contract caller does not set): the path from the contract.
    for (const [endpoint, payload] of [
      [loginPassword, { username: 'demo', password: 'falsch' }],
      [loginPassword, { username: 'niemand', password: 'demo' }],
      [loginCard, { stechuhrdevice: 'KEINEKARTE' }],
    ] as const) {
      const res = await t.app.inject({
        method: 'POST',
        url: endpoint.path,
        payload,
        remoteAddress: '10.9.9.1',
      });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({
        success: false,
        message: texts.login.failed,
      });
    }
  });

  it('locks a user name after repeated failures with 429, even with the right password', async () => {
    const attempt = (password: string, ip: string) =>
      t.app.inject({
        method: 'POST',
        url: loginPassword.path,
        payload: { username: 'Demo', password },
        remoteAddress: ip,
      });
    for (let i = 0; i < 3; i++) expect((await attempt('falsch', `10.0.0.${i + 1}`)).statusCode).toBe(401);
    const locked = await attempt('demo', '10.0.0.99');
    expect(locked.statusCode).toBe(429);
    expect(locked.json().message).toBe(texts.login.tooMany);
    // The first lock lasts a minute: pretend it is over.
    await sql`update attempt_counters set locked_until = now() - interval '1 second'`.execute(t.database.db);
    expect((await attempt('demo', '10.0.0.99')).statusCode).toBe(200);
  });

  it('locks an IP address that tries many cards', async () => {
    const ip = '10.1.1.1';
    for (let i = 0; i < 8; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: loginCard.path,
        payload: { stechuhrdevice: `FALSCH${i}` },
        remoteAddress: ip,
      });
      expect(res.statusCode).toBe(401);
    }
    const res = await t.app.inject({
      method: 'POST',
      url: loginCard.path,
      payload: { stechuhrdevice: demo.cardUser.card },
      remoteAddress: ip,
    });
    expect(res.statusCode).toBe(429);
    const elsewhere = await t.app.inject({
      method: 'POST',
      url: loginCard.path,
      payload: { stechuhrdevice: demo.cardUser.card },
      remoteAddress: '10.1.1.2',
    });
    expect(elsewhere.statusCode).toBe(200);
  });

  it('refuses malformed login bodies with 400 and a German message', async () => {
    for (const [endpoint, body, message] of [
      [loginPassword, {}, texts.errors.input.missing(texts.login.username)],
      [loginPassword, { username: 'demo' }, texts.errors.input.missing(texts.login.password)],
      [loginPassword, { username: 5, password: 'x' }, texts.errors.input.invalid(texts.login.username)],
      [loginPassword, { username: '  ', password: 'x' }, texts.errors.input.missing(texts.login.username)],
      [loginCard, { stechuhrdevice: '' }, texts.errors.input.missing(texts.batch.employeeLabel)],
    ] as const) {
      const res = await anonymous()(endpoint, { body });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ success: false, message });
    }
  });

  it('needs a live token for every other call, in Authorization or Access-Token', async () => {
    expect((await history({})).statusCode).toBe(401);
    expect((await history({ authorization: 'Bearer unsinn' })).statusCode).toBe(401);
    expect((await history({ authorization: 'Basic ZGVtbzpkZW1v' })).statusCode).toBe(401);
    const token = await loginDemo(t.app);
    expect((await history(authHeaders(token))).statusCode).toBe(200);
    expect((await history({ 'access-token': token })).statusCode).toBe(200);
    const refused = await history({});
    expect(refused.json()).toMatchObject({
      success: false,
      message: texts.errors.unauthorized,
    });
  });

  it('ends the session at logout', async () => {
    const token = await loginDemo(t.app);
    const out = await caller(t.app, token)(logout);
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({ success: true });
    expect((await history(authHeaders(token))).statusCode).toBe(401);
  });

  it('ends a session that was idle longer than the configured time, and keeps an active one alive', async () => {
    const idle = await loginDemo(t.app);
    const active = await loginDemo(t.app);
    await sql`update sessions set last_seen_at = now() - interval '31 minutes'`.execute(t.database.db);
    await sql`update sessions set last_seen_at = now() - interval '29 minutes' where token_hash = ${hashToken(active)}`.execute(
      t.database.db,
    );
    expect((await history(authHeaders(idle))).statusCode).toBe(401);
    expect((await history(authHeaders(active))).statusCode).toBe(200);
    // That use moved its expiry: 29 more minutes later it is still alive.
    await sql`update sessions set last_seen_at = last_seen_at - interval '29 minutes' where last_seen_at > now() - interval '1 minute'`.execute(
      t.database.db,
    );
    expect((await history(authHeaders(active))).statusCode).toBe(200);
  });

  it('shuts out a deactivated user at once', async () => {
    const token = await loginDemo(t.app);
    await t.database.db.updateTable('users').set({ active: false }).where('username', '=', 'demo').execute();
    try {
      expect((await history(authHeaders(token))).statusCode).toBe(401);
      const again = await t.app.inject({
        method: 'POST',
        url: loginPassword.path,
        payload: { username: 'demo', password: 'demo' },
        remoteAddress: '10.7.7.7',
      });
      expect(again.statusCode).toBe(401);
    } finally {
      await t.database.db.updateTable('users').set({ active: true }).where('username', '=', 'demo').execute();
    }
  });
});

describe.each(databaseKinds())('the session cache (decision 7) on %s', (kind) => {
  let t: TestApp;
  let now = 0;
  beforeAll(async () => {
    t = await startTestApp(kind, { sessionCacheSeconds: 2 }, { clock: () => now });
  });
  afterAll(() => t.close());

  const history = (token: string) => caller(t.app, token)(inventurHistory);
  const endInDatabase = (token: string) =>
    sql`update sessions set revoked_at = now() where token_hash = ${hashToken(token)}`.execute(t.database.db);

  it('trusts a checked login for the cache time only: an end elsewhere takes effect within 2 s', async () => {
    const token = await loginDemo(t.app);
    expect((await history(token)).statusCode).toBe(200); // checked in the database, remembered
    await endInDatabase(token); // as a logout through another server instance does
    now += 1_900;
    expect((await history(token)).statusCode).toBe(200);
    now += 200;
    expect((await history(token)).statusCode).toBe(401);
    now += 60_000;
    expect((await history(token)).statusCode).toBe(401);
  });

  it('ends a session at once when it logs out through this instance, also while it is remembered', async () => {
    const token = await loginDemo(t.app);
    const other = await loginDemo(t.app); // the same user on a second device stays logged in
    expect((await history(token)).statusCode).toBe(200);
    expect((await history(other)).statusCode).toBe(200);
    const out = await caller(t.app, token)(logout);
    expect(out.statusCode).toBe(200);
    expect((await history(token)).statusCode).toBe(401);
    expect((await history(other)).statusCode).toBe(200);
  });

  it('never remembers a refused token', async () => {
    const token = await loginDemo(t.app);
    await endInDatabase(token);
    expect((await history(token)).statusCode).toBe(401);
    expect((await history(token)).statusCode).toBe(401);
  });
});
