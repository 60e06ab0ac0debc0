import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginCard, logout } from '../../src/contract/auth.ts';
import { contract, extraContract } from '../../src/contract/index.ts';
import { bookInventur, inventurHistory } from '../../src/contract/inventur.ts';
import { texts } from '../../src/contract/texts.ts';
import { buildApp } from '../../src/server/app.ts';
import { hashToken } from '../../src/server/auth/secrets.ts';
import { testConfig } from '../../src/server/config.ts';
import { demo } from '../../src/server/seed/demo.ts';
import { loginDemo } from '../support/app.ts';
import { databaseKinds, freshDatabase, type TestDatabase } from '../support/db.ts';
import { caller } from '../support/endpoint-call.ts';

const protectedCalls = [...contract, ...extraContract].filter((e) => e.auth);
const UNAUTHORIZED = {
  success: false,
  message: texts.errors.unauthorized,
};

/** Every path parameter filled with something plausible; the login check comes before any validation. */
function paramsOf(path: string): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [, name] of path.matchAll(/:([A-Za-z_]+)/g)) if (name) params[name] = '1';
  return params;
}

describe.each(databaseKinds())('nobody in on %s', (kind) => {
  let database: TestDatabase;
  let app: FastifyInstance;
  let webDir: string;
  const logLines: string[] = [];

  beforeAll(async () => {
    database = await freshDatabase(kind);
    webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lagerscanner-web-'));
    fs.writeFileSync(
      path.join(webDir, 'index.html'),
      '<!doctype html><meta name="csrf-token" content="__CSRF_TOKEN__"><title>L</title>',
    );
    const logStream = new PassThrough();
    logStream.on('data', (chunk) => logLines.push(String(chunk)));
    app = await buildApp({
      db: database.db,
      config: testConfig({
        logLevel: 'trace',
        webDir,
        corsOrigins: ['https://scanner.example.com'],
        sessionIdleMinutes: 60,
      }),
      logStream,
    });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await database.close();
    fs.rmSync(webDir, { recursive: true, force: true });
  });

  /** A call with no login of the caller's own: `headers` carry the (broken, forged, …) one under test. */
  const call = (e: (typeof protectedCalls)[number], headers: Record<string, string>) =>
    caller(app, null)(e, { params: paramsOf(e.path), body: {}, headers });

  it('refuses every route but the logins without a live token: none, malformed, forged, revoked, expired', async () => {
    const revoked = await loginDemo(app);
    await caller(app, revoked)(logout);
    const expired = await loginDemo(app);
    await sql`update sessions set last_seen_at = now() - interval '61 minutes' where token_hash = ${hashToken(expired)}`.execute(
      database.db,
    );
    const variants: Record<string, Record<string, string>> = {
      none: {},
      malformed: { authorization: 'Bearer' },
      'two words': { authorization: 'Bearer a b' },
      basic: { authorization: `Basic ${Buffer.from('demo:demo').toString('base64')}` },
      'too long': { 'access-token': 'x'.repeat(5000) },
      forged: { authorization: `Bearer ${randomBytes(32).toString('base64url')}` },
      revoked: { authorization: `Bearer ${revoked}` },
      expired: { 'access-token': expired },
    };
    let tried = 0;
    for (const e of protectedCalls) {
      for (const [name, headers] of Object.entries(variants)) {
        const res = await call(e, headers);
        expect(res.statusCode, `${e.method} ${e.path} with ${name} token`).toBe(401);
        expect(res.json()).toMatchObject(UNAUTHORIZED);
        tried++;
      }
    }
    expect(tried).toBe(protectedCalls.length * Object.keys(variants).length);
    expect(protectedCalls.length).toBeGreaterThanOrEqual(31);
  });

  it('never writes a token, a password or a card text into the log', async () => {
    const token = await loginDemo(app);
    await caller(app, null)(loginCard, { body: { stechuhrdevice: demo.cardUser.card } });
    await caller(app, token)(inventurHistory);
    await caller(app, null)(inventurHistory, { headers: { 'access-token': token } });
    const log = logLines.join('');
    expect(log.length).toBeGreaterThan(1000); // the log is really being written (trace level)
    expect(log).not.toContain(token);
    expect(log).not.toContain(demo.cardUser.card.slice(0, 40));
    expect(log).not.toContain('"password"');
  });

  it('stores passwords salted with scrypt and sessions and cards only as hashes', async () => {
    const users = await database.db
      .selectFrom('users')
      .select(['password_hash', 'card_secret_hash'])
      .execute();
    const passwords = users.map((u) => u.password_hash).filter((h): h is string => h !== null);
    for (const h of passwords) expect(h).toMatch(/^scrypt\$\d+\$\d+\$\d+\$[\w-]{22}\$[\w-]{43}$/);
    expect(new Set(passwords).size).toBe(passwords.length);
    const sessions = await database.db.selectFrom('sessions').select('token_hash').execute();
    for (const s of sessions) expect(s.token_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('answers same-origin only, unless the other origin is on the allow-list', async () => {
    const foreign = await caller(app, null)(inventurHistory, { headers: { origin: 'https://evil.example' } });
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
    // A browser's preflight (OPTIONS): no call of the contract, sent as written.
    const preflight = await app.inject({
      method: 'OPTIONS',
      url: bookInventur.path,
      headers: { origin: 'https://scanner.example.com', 'access-control-request-method': 'POST' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('https://scanner.example.com');
    expect(preflight.headers['access-control-allow-headers']).toContain('x-idempotency-key');
    const evilPreflight = await app.inject({
      method: 'OPTIONS',
      url: bookInventur.path,
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(evilPreflight.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('sends the web app with a strict Content-Security-Policy and no framing', async () => {
    const res = await app.inject('/inventur');
    const csp = res.headers['content-security-policy'];
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval'"); // WebAssembly (camera), never eval
    expect(csp).not.toContain("'unsafe-eval'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
  });
});
