// Raw HTTP on purpose at the server's edges (unknown paths, errors, oversized, broken and form bodies, static
// files); whole calls of the contract go through its caller.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginPassword } from '../../src/contract/auth.ts';
import { inventurHistory } from '../../src/contract/inventur.ts';
import { texts } from '../../src/contract/texts.ts';
import { buildApp } from '../../src/server/app.ts';
import { testConfig } from '../../src/server/config.ts';
import { loginDemo } from '../support/app.ts';
import { databaseKinds, freshDatabase, type TestDatabase } from '../support/db.ts';
import { caller } from '../support/endpoint-call.ts';

// Mostly raw HTTP on purpose: the server's edges (health, unknown paths, oversized, broken or form bodies,
// static files, compression) are what no contract call sends; the calls of the contract go through its caller.

describe.each(databaseKinds())('the HTTP server on %s', (kind) => {
  let database: TestDatabase;
  let app: FastifyInstance;
  let webDir: string;

  beforeAll(async () => {
    database = await freshDatabase(kind);
    webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lagerscanner-web-'));
    fs.mkdirSync(path.join(webDir, 'assets'));
    fs.writeFileSync(
      path.join(webDir, 'index.html'),
      '<!doctype html><html lang="de"><head><meta name="csrf-token" content="__CSRF_TOKEN__"><title>Lagerscanner</title></head><body></body></html>',
    );
    fs.writeFileSync(path.join(webDir, 'assets', 'index-abc123.js'), 'console.log(1)');
    // What the build writes beside a script (scripts/vite-precompress.ts), and its chunk manifest.
    fs.writeFileSync(path.join(webDir, 'assets', 'index-abc123.js.br'), 'BROTLI');
    fs.writeFileSync(path.join(webDir, 'assets', 'index-abc123.js.gz'), 'GZIP');
    fs.writeFileSync(path.join(webDir, 'sw.js'), 'self.addEventListener("fetch", () => {})');
    fs.writeFileSync(path.join(webDir, 'manifest.webmanifest'), '{"name":"Lagerscanner"}');
    fs.mkdirSync(path.join(webDir, '.vite'));
    fs.writeFileSync(path.join(webDir, '.vite', 'manifest.json'), '{}');
    app = await buildApp({ db: database.db, config: testConfig({ webDir, bodyLimitBytes: 4096 }) });
    app.get('/api/test-failure', async () => {
      throw new Error('secret internal detail');
    });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await database.close();
    fs.rmSync(webDir, { recursive: true, force: true });
  });

  it.runIf(kind === 'pglite')(
    'keeps the embedded buffer pool at 32 MB (it lives in the server process)',
    async () => {
      const { rows } = await sql<{ shared_buffers: string }>`show shared_buffers`.execute(database.db);
      expect(rows[0]?.shared_buffers).toBe('32MB');
    },
  );

  it('answers /healthz and /readyz', async () => {
    expect((await app.inject('/healthz')).json()).toEqual({ status: 'ok' });
    const ready = await app.inject('/readyz');
    expect(ready.statusCode).toBe(200);
  });

  it('gives every answer a request id, keeping a sane one from a proxy', async () => {
    const own = await app.inject('/healthz');
    expect(own.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const passed = await app.inject({ url: '/healthz', headers: { 'x-request-id': 'proxy-42' } });
    expect(passed.headers['x-request-id']).toBe('proxy-42');
    const hostile = await app.inject({ url: '/healthz', headers: { 'x-request-id': '<script>' } });
    expect(hostile.headers['x-request-id']).not.toBe('<script>');
  });

  it('answers an unknown API path with 404 JSON in German', async () => {
    const res = await app.inject('/api/gibtsnicht');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ success: false, message: texts.errors.routeNotFound });
  });

  it('hides internal errors behind the German 500 message', async () => {
    const res = await app.inject('/api/test-failure');
    expect(res.statusCode).toBe(500);
    expect(res.json()).toMatchObject({
      success: false,
      message: texts.errors.system500,
    });
    expect(res.body).not.toContain('secret');
  });

  it('refuses a body over the limit with 413, broken JSON with 400 and other media types with 415', async () => {
    const big = await app.inject({
      method: 'POST',
      url: '/api/user/login',
      payload: { username: 'x'.repeat(5000), password: 'y' },
    });
    expect(big.statusCode).toBe(413);
    expect(big.json()).toMatchObject({ success: false, message: texts.errors.bodyTooLarge });

    const broken = await app.inject({
      method: 'POST',
      url: '/api/user/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"username": "demo",',
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toMatchObject({ success: false, message: texts.errors.invalidJson });

    const form = await app.inject({
      method: 'POST',
      url: '/api/user/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'username=demo&password=demo',
    });
    expect(form.statusCode).toBe(415);
    expect(form.json()).toMatchObject({ success: false, message: texts.errors.unsupportedMediaType });
  });

  it('answers the web app for every screen path (deep links and reloads work)', async () => {
    for (const url of ['/', '/inventur', '/beta', '/paketinhalt?x=1']) {
      const res = await app.inject(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.headers['cache-control']).toContain('no-cache');
      expect(res.body).toContain('<title>Lagerscanner</title>');
    }
  });

  it('caches hashed assets for a year', async () => {
    const res = await app.inject('/assets/index-abc123.js');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('serves the service worker and the web manifest unhashed and revalidated, so a new version is found', async () => {
    const sw = await app.inject('/sw.js');
    expect(sw.statusCode).toBe(200);
    expect(sw.headers['content-type']).toContain('javascript');
    expect(sw.headers['cache-control']).toBe('no-cache');
    const manifest = await app.inject('/manifest.webmanifest');
    expect(manifest.statusCode).toBe(200);
    expect(manifest.headers['content-type']).toContain('application/manifest+json');
    expect(manifest.headers['cache-control']).toBe('no-cache');
  });

  it('sends the compressed copy made at build to a browser that takes it, the plain file otherwise', async () => {
    const br = await app.inject({
      url: '/assets/index-abc123.js',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.body).toBe('BROTLI');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const gz = await app.inject({ url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.body).toBe('GZIP');
    const plain = await app.inject({
      url: '/assets/index-abc123.js',
      headers: { 'accept-encoding': 'identity' },
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe('console.log(1)');
  });

  it('does not serve the build manifest', async () => {
    const res = await app.inject('/.vite/manifest.json');
    expect(res.body).not.toBe('{}');
  });

  it('renders a CSRF token into index.html and checks it when a client sends one', async () => {
    const html = (await app.inject('/')).body;
    const token = /<meta name="csrf-token" content="([^"]+)">/.exec(html)?.[1];
    expect(token).toBeDefined();
    expect(token).not.toBe('__CSRF_TOKEN__');
    const login = (csrf: string) =>
      caller(app, null)(loginPassword, {
        body: { username: 'demo', password: 'demo' },
        headers: { 'x-csrf-token': csrf },
      });
    expect((await login(token as string)).statusCode).toBe(200);
    const forged = await login('abc.def');
    expect(forged.statusCode).toBe(403);
    expect(forged.json()).toMatchObject({
      success: false,
      message: texts.errors.csrf,
    });
  });

  it('never lets API answers be cached', async () => {
    const token = await loginDemo(app);
    const res = await caller(app, token)(inventurHistory);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('reports not ready with 503 when the database is gone', async () => {
    const other = await freshDatabase(kind);
    const lonely = await buildApp({ db: other.db, config: testConfig({ webDir }) });
    await other.close();
    const res = await lonely.inject('/readyz');
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({
      success: false,
      message: texts.errors.unavailable,
    });
    expect((await lonely.inject('/healthz')).statusCode).toBe(200);
    await lonely.close();
  });
});
