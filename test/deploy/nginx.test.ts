import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it, onTestFinished } from 'vitest';
import { chromiumArgs, chromiumExecutable } from '../../e2e/support/chromium.ts';
import { buildServer } from '../../src/server/build-server.ts';
import { emptyPostgresDatabase, freePort } from '../support/pg-cluster.ts';

/**
 * The production setup of deploy/ run for real (issue 24): Debian's nginx with the very site file
 * deploy/nginx-lagerscanner.conf (only ports, certificate, log and include paths swapped) in front of two
 * server instances started as deploy/lagerscanner@.service starts them (its ExecStart, Environment and
 * ExecStartPost, %i = port), on one throwaway PostgreSQL, and the upstream's health check run as
 * deploy/lagerscanner-upstream.service runs it. A worker logs in and counts in Chromium over https; one
 * instance is SIGKILLed and the next bookings still go through; one loses its database, and the health check
 * marks it down before nginx sends it anything, then lists it again; then both are restarted one after the
 * other while two scanners keep booking, and the books in PostgreSQL must hold every acknowledged booking
 * exactly once. Needs nginx, PostgreSQL and Chromium: without them it is skipped loudly, with CI=true it fails.
 */
const root = path.resolve(import.meta.dirname, '../..');
const deployDir = path.join(root, 'deploy');
const nginxBin = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => fs.existsSync(p)) ?? null;
const pgAdminUrl = inject('pgAdminUrl');
const missing = [
  nginxBin ? null : 'nginx (apt-get install nginx)',
  pgAdminUrl ? null : 'PostgreSQL server binaries (apt-get install postgresql)',
  fs.existsSync(chromiumExecutable) ? null : `Chromium at ${chromiumExecutable} (apt-get install chromium)`,
].filter((m): m is string => m !== null);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function waitFor(condition: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !condition(); await sleep(50)) {
    if (Date.now() > deadline) throw new Error(`waited ${timeoutMs} ms in vain for: ${what}`);
  }
}
/** A connection of its own per request: a kept-alive one would stay with an old nginx worker. */
const fresh = () => new https.Agent({ keepAlive: false });

// ── The systemd unit, read as systemd reads the lines we use ──────────────────────────────────────────

const unit = fs.readFileSync(path.join(deployDir, 'lagerscanner@.service'), 'utf8');
const upstreamUnit = fs.readFileSync(path.join(deployDir, 'lagerscanner-upstream.service'), 'utf8');
function unitLine(key: string, port: number): string[] {
  const value = unit.match(new RegExp(`^${key}=(.+)$`, 'm'))?.[1];
  if (!value) throw new Error(`lagerscanner@.service has no ${key}=`);
  return value.trim().replaceAll('%i', String(port)).split(/\s+/);
}
/** `/usr/bin/node …` runs with the node running this test (the same program where node lives elsewhere). */
const withThisNode = ([program, ...args]: string[]): [string, string[]] => [
  program === '/usr/bin/node' ? process.execPath : (program ?? ''),
  args,
];

interface Instance {
  port: number;
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

async function startInstance(port: number, env: Record<string, string>): Promise<Instance> {
  const [command, args] = withThisNode(unitLine('ExecStart', port));
  const unitEnv = Object.fromEntries(unitLine('Environment', port).map((pair) => pair.split('=', 2)));
  const child = spawn(command, args, {
    cwd: root, // WorkingDirectory=/opt/lagerscanner
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env, ...unitEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-1_000_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  // ExecStartPost: the unit counts as started once /readyz answers.
  const [postCommand, postArgs] = withThisNode(unitLine('ExecStartPost', port));
  const post = spawn(postCommand, postArgs, { cwd: root, stdio: 'ignore' });
  const postCode = await new Promise<number | null>((resolve) => post.once('exit', resolve));
  if (postCode !== 0) {
    child.kill('SIGKILL');
    throw new Error(`instance ${port} not ready (ExecStartPost exit ${postCode}): ${output}`);
  }
  return { port, child, output: () => output, exited };
}

/** `systemctl stop`: SIGTERM (KillSignal), and the server must end cleanly within TimeoutStopSec. */
async function stopInstance(instance: Instance): Promise<number | null> {
  instance.child.kill('SIGTERM');
  const code = await Promise.race([instance.exited, sleep(20_000).then(() => 'timeout' as const)]);
  if (code === 'timeout') {
    instance.child.kill('SIGKILL');
    throw new Error(`instance ${instance.port} did not stop within 20 s`);
  }
  return code;
}

/**
 * lagerscanner-upstream.service's ExecStart with this run's ports for its 3001 3002, and the include file and
 * nginx pid file of this run instead of Debian's (`extra`: more options, such as --once).
 */
function upstreamCommand(ports: [number, number], dir: string, extra: string[] = []): [string, string[]] {
  const line = upstreamUnit.match(/^ExecStart=(.+)$/m)?.[1];
  if (!line) throw new Error('lagerscanner-upstream.service has no ExecStart=');
  const [program, args] = withThisNode(line.trim().split(/\s+/));
  expect(args.slice(-2), 'the unit lists the ports 3001 3002 last').toEqual(['3001', '3002']);
  return [
    program,
    [
      ...args.slice(0, -2),
      ...extra,
      ...['--file', path.join(dir, 'upstream.conf'), '--pid', path.join(dir, 'nginx.pid')],
      ...ports.map(String),
    ],
  ];
}

/**
 * A TCP relay to PostgreSQL for one instance: `cut()` drops its connections and every new one at once, as
 * a broken network between that instance and the database would; `restore()` lets them through again.
 */
async function startTcpRelay(targetPort: number) {
  let open = true;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    if (!open) return client.destroy();
    const upstream = net.connect(targetPort, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => {});
      socket.on('close', () => {
        sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    cut() {
      open = false;
      for (const socket of sockets) socket.destroy();
    },
    restore() {
      open = true;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

// ── nginx with the site file of deploy/ ───────────────────────────────────────────────────────────────

function nginxConfig(dir: string, ports: { https: number; http: number }) {
  let site = fs.readFileSync(path.join(deployDir, 'nginx-lagerscanner.conf'), 'utf8');
  // Each swap must match exactly as often as expected, so a changed site file fails here instead of the
  // test silently running something else.
  const swap = (from: string, to: string, times: number) => {
    expect(site.split(from).length - 1, `"${from}" in nginx-lagerscanner.conf`).toBe(times);
    site = site.replaceAll(from, to);
  };
  swap('/etc/nginx/lagerscanner-upstream.conf', path.join(dir, 'upstream.conf'), 1);
  swap('listen 443 ssl http2;', `listen 127.0.0.1:${ports.https} ssl http2;`, 1);
  swap('listen [::]:443 ssl http2;', '', 1);
  swap('listen 80;', `listen 127.0.0.1:${ports.http};`, 1);
  swap('listen [::]:80;', '', 1);
  swap('/etc/ssl/certs/lagerscanner.pem', path.join(dir, 'cert.pem'), 1);
  swap('/etc/ssl/private/lagerscanner.key', path.join(dir, 'key.pem'), 1);
  swap('/var/log/nginx/', `${dir}/logs/`, 2);
  const temp = (name: string) => `${name}_temp_path ${dir}/temp/${name};`;
  // What Debian's /etc/nginx/nginx.conf puts around sites-enabled/ that matters here (gzip on: the site
  // must switch it off), with this run's pid file, logs and temp folders instead of the system's. Its log at
  // `notice` (Debian: `error`) names each reload and who sent it.
  return `pid ${dir}/nginx.pid;
error_log ${dir}/logs/error.log notice;
worker_processes 1;
events { worker_connections 512; }
http {
  default_type application/octet-stream;
  gzip on;
  ${['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(temp).join('\n  ')}
${site}
}
`;
}

// ── https from Node, as a handheld talks to nginx (self-signed certificate: not verified) ───────────

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function request(
  url: string,
  options: {
    method?: string;
    headers?: Record<string, string>;
    body?: unknown;
    agent?: https.Agent;
    localAddress?: string;
    timeoutMs?: number;
  } = {},
): Promise<Answer> {
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const req = https.request(
      url,
      {
        method: options.method ?? 'GET',
        rejectUnauthorized: false,
        agent: options.agent,
        localAddress: options.localAddress,
        headers: {
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...options.headers,
        },
        timeout: options.timeoutMs ?? 5000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString(),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(body);
  });
}

describe.skipIf(missing.length > 0 && process.env.CI !== 'true')(
  'deploy/: nginx in front of two instances on PostgreSQL',
  () => {
    let dir = '';
    let databaseUrl = '';
    let db: pg.Client;
    let nginx: ChildProcess | null = null;
    let nginxExited: Promise<unknown> = Promise.resolve();
    let browser: Browser | null = null;
    let page: Page;
    const ports = { https: 0, http: 0, upstream: [0, 0] as [number, number] };
    const instances: (Instance | null)[] = [null, null];
    let base = '';
    // The first instance reaches PostgreSQL through a relay the test can cut; the second directly.
    let relay: Awaited<ReturnType<typeof startTcpRelay>> | null = null;
    const env = (index: 0 | 1) => {
      const url = new URL(databaseUrl);
      if (index === 0) url.port = String(relay?.port);
      return { DATABASE_URL: url.toString(), LOG_LEVEL: 'info' };
    };

    beforeAll(async () => {
      if (missing.length > 0) throw new Error(`CI=true: the deploy test needs ${missing.join(', ')}`);
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lagerscanner-deploy-'));
      fs.chmodSync(dir, 0o755); // nginx's workers (user nobody when run as root) use the temp folders
      fs.mkdirSync(path.join(dir, 'logs'));
      fs.mkdirSync(path.join(dir, 'temp'));
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'ec',
          '-pkeyopt',
          'ec_paramgen_curve:prime256v1',
          '-nodes',
          '-keyout',
          path.join(dir, 'key.pem'),
          '-out',
          path.join(dir, 'cert.pem'),
          '-days',
          '1',
          '-subj',
          '/CN=scanner.example.com',
          '-addext',
          'subjectAltName=DNS:scanner.example.com,IP:127.0.0.1',
        ],
        { stdio: 'pipe' },
      );
      databaseUrl = await emptyPostgresDatabase(pgAdminUrl ?? '', 'deploy');
      relay = await startTcpRelay(Number(new URL(databaseUrl).port));
      db = new pg.Client({ connectionString: databaseUrl });
      ports.upstream = [await freePort(), await freePort()];
      ports.https = await freePort();
      ports.http = await freePort();
      base = `https://127.0.0.1:${ports.https}`;

      await buildServer(); // npm run build; the web app is built by the global setup
      // One instance seeds the empty database with the demo warehouse; the second starts on a full one.
      instances[0] = await startInstance(ports.upstream[0], env(0));
      instances[1] = await startInstance(ports.upstream[1], env(1));
      await db.connect();

      // docs/operating.md "Operating it" step 6: the upstream's include file, written once before nginx first reads it.
      // Not spawnSync: the relay to PostgreSQL lives in this process and must keep running meanwhile.
      const [program, args] = upstreamCommand(ports.upstream, dir, ['--once']);
      const once = spawn(program, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
      let onceOutput = '';
      once.stdout?.on('data', (chunk: Buffer) => {
        onceOutput += chunk.toString();
      });
      expect(await new Promise((resolve) => once.once('exit', resolve))).toBe(0);
      expect(onceOutput).toBe(
        `${ports.upstream[0]} ready, ${ports.upstream[1]} ready: ${dir}/upstream.conf written, ` +
          'nginx is not running; it reads the file when it starts\n',
      );

      const conf = path.join(dir, 'nginx.conf');
      fs.writeFileSync(conf, nginxConfig(dir, ports));
      const check = spawnSync(
        nginxBin ?? 'nginx',
        ['-t', '-q', '-p', dir, '-e', `${dir}/logs/error.log`, '-c', conf],
        {
          encoding: 'utf8',
        },
      );
      expect(check.status, `nginx -t: ${check.stderr}`).toBe(0);
      nginx = spawn(
        nginxBin ?? 'nginx',
        ['-p', dir, '-e', `${dir}/logs/error.log`, '-c', conf, '-g', 'daemon off;'],
        {
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      const child = nginx;
      nginxExited = new Promise((resolve) => child.once('exit', resolve));
      for (let i = 0; ; i++) {
        if (child.exitCode !== null) throw new Error(`nginx exited: ${nginxErrors()}`);
        if ((await request(`${base}/healthz`).catch(() => null))?.status === 200) break;
        if (i > 100) throw new Error(`nginx not answering: ${nginxErrors()}`);
        await sleep(100);
      }
      browser = await chromium.launch({ executablePath: chromiumExecutable, args: chromiumArgs });
      const context = await browser.newContext({ ignoreHTTPSErrors: true, baseURL: base });
      page = await context.newPage();
    }, 180_000);

    afterAll(async () => {
      await browser?.close().catch(() => {});
      if (nginx && nginx.exitCode === null) {
        nginx.kill('SIGQUIT'); // graceful: finish, then exit
        await Promise.race([nginxExited, sleep(5000)]);
        if (nginx.exitCode === null) nginx.kill('SIGKILL');
      }
      for (const instance of instances) if (instance?.child.exitCode === null) instance.child.kill('SIGKILL');
      await Promise.all(instances.map((i) => i?.exited));
      await relay?.close();
      await db?.end().catch(() => {});
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    }, 60_000);

    function nginxErrors(last = 4000): string {
      try {
        const text = fs.readFileSync(path.join(dir, 'logs', 'error.log'), 'utf8');
        return Number.isFinite(last) ? text.slice(-last) : text;
      } catch {
        return '(no error log)';
      }
    }

    /** The site's own error log (failed attempts on an instance: refused, timed out, moved on). */
    function siteErrors(): string {
      return fs.readFileSync(path.join(dir, 'logs', 'lagerscanner.error.log'), 'utf8');
    }

    /**
     * Waits for nginx's `times`-th reload by process `sender`, until its new worker is the only one: before
     * the old worker has exited, a new connection could still reach it and its old list of instances.
     */
    async function nginxReloaded(sender: number | undefined, times: number): Promise<void> {
      const master = nginx?.pid;
      const newWorker = () => {
        const log = nginxErrors(Number.POSITIVE_INFINITY);
        const reloads = log.split(`signal 1 (SIGHUP) received from ${sender},`);
        return reloads.length > times ? reloads[times]?.match(/start worker process (\d+)/)?.[1] : undefined;
      };
      const workers = () => fs.readFileSync(`/proc/${master}/task/${master}/children`, 'utf8').trim();
      await waitFor(() => newWorker() !== undefined && workers() === newWorker(), `nginx reload ${times}`);
    }

    /** Requests an instance logged since `since` (ms), for /readyz or for anything else. */
    function requestsTo(
      instance: Instance,
      since: number,
      which: '/readyz' | 'other than /readyz',
    ): string[] {
      return instance
        .output()
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { time: number; req?: { method: string; url: string } })
        .filter((entry) => entry.time >= since && entry.req)
        .map((entry) => `${entry.req?.method} ${entry.req?.url}`)
        .filter((r) => (r === 'GET /readyz') === (which === '/readyz'));
    }

    it('serves the app over TLS with HSTS, redirects http, passes precompressed assets, names the client', async () => {
      const index = await request(`${base}/`);
      expect(index.status).toBe(200);
      expect(index.headers['strict-transport-security']).toBe('max-age=31536000');
      expect(index.headers['content-security-policy']).toContain("default-src 'self'");
      expect(index.headers['content-encoding']).toBeUndefined(); // gzip off: nginx does not compress
      const script = index.body.match(/src="(\/assets\/[^"]+\.js)"/)?.[1];
      expect(script).toBeDefined();
      const asset = await request(`${base}${script}`, { headers: { 'accept-encoding': 'br, gzip' } });
      expect(asset.status).toBe(200);
      expect(asset.headers['content-encoding']).toBe('br'); // the build's .br file, sent by the app
      expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');

      const redirect = await new Promise<{ status: number; location: string }>((resolve, reject) => {
        const req = http.get(`http://127.0.0.1:${ports.http}/inventur?x=1`, (res) => {
          res.resume();
          resolve({ status: res.statusCode ?? 0, location: String(res.headers.location) });
        });
        req.on('error', reject);
      });
      expect(redirect).toEqual({ status: 301, location: 'https://127.0.0.1/inventur?x=1' });

      // A client on 127.0.0.2 that writes its own X-Forwarded-For: the server sees 127.0.0.2, the address
      // nginx appended, not the forged one and not nginx's own 127.0.0.1.
      const forged = await request(`${base}/api/user/login`, {
        method: 'POST',
        localAddress: '127.0.0.2',
        headers: { 'x-forwarded-for': '6.6.6.6' },
        body: { username: 'nobody-here', password: 'wrong-password' },
      });
      expect(forged.status).toBe(401);
      const requestId = String(forged.headers['x-request-id']);
      const logged = instances
        .flatMap((i) => (i?.output() ?? '').split('\n'))
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { reqId?: string; req?: { remoteAddress?: string } })
        .find((entry) => entry.reqId === requestId && entry.req);
      expect(logged?.req?.remoteAddress).toBe('127.0.0.2');
    });

    it('a worker logs in and counts stock in Chromium over https', async () => {
      await loginInChromium(page);
      await countInChromium(page, { location: 'A-01-01-01', article: '4006381333931', amount: 48 });
      const rows = await db.query(
        `select c.counted from inventory_counts c join locations l on l.id = c.location_id
         join articles a on a.id = c.article_id where l.code = 'A-01-01-01' and a.nummer = '100001'`,
      );
      expect(rows.rows.map((r) => r.counted)).toEqual([48]);
    });

    it('an instance killed with SIGKILL: the next bookings go through the other at the first try', async () => {
      const first = instances[0];
      if (!first) throw new Error('no first instance');
      const token = await login();
      const lp = await lookup(token, '/api/inventur/findlp/A-01-01-02');
      const article = await lookup(token, '/api/inventur/findarticle/100001');
      first.child.kill('SIGKILL');
      await first.exited;
      instances[0] = null;

      // Ten bookings through the API, each answered 200 the first time: nginx moved them on, no retry. One of
      // the first two meets the dead instance (round robin), before any read could have marked it failed.
      const keys: string[] = [];
      for (let amount = 1; amount <= 10; amount++) {
        const key = randomUUID();
        keys.push(key);
        const answer = await request(`${base}/api/inventur/`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'x-idempotency-key': key },
          body: { lp, article, amount },
        });
        expect(answer.status, answer.body).toBe(200);
      }
      // In the browser: the next count on the open Inventur screen.
      await scanWhenFocused(page, 'Artikel', '100003');
      await typeAmountAndBook(page, 41);
      // nginx did meet the dead instance with a write and moved that write on (proxy_next_upstream … non_idempotent).
      const siteErrors = fs.readFileSync(path.join(dir, 'logs', 'lagerscanner.error.log'), 'utf8');
      expect(siteErrors).toMatch(
        new RegExp(
          `Connection refused.*request: "POST /api/inventur/ .*upstream: "http://127\\.0\\.0\\.1:${first.port}/`,
        ),
      );
      const rows = await db.query('select request_key from inventory_counts where request_key = any($1)', [
        keys,
      ]);
      expect(rows.rowCount).toBe(10);
      const counted = await db.query(
        `select c.counted from inventory_counts c join locations l on l.id = c.location_id
         join articles a on a.id = c.article_id where l.code = 'A-01-01-01' and a.nummer = '100003'`,
      );
      expect(counted.rows.map((r) => r.counted)).toEqual([41]);

      instances[0] = await startInstance(ports.upstream[0], env(0)); // systemd's Restart=always
    }, 60_000);

    it('an instance without its database is taken out by the /readyz health check before nginx sends it a request, and put back', async () => {
      const [sick, healthy] = instances;
      if (!sick || !healthy || !relay || !nginx?.pid) throw new Error('not set up');
      const token = await login();
      const articleUrl = `${base}/api/inventur/findarticle/100001`;
      const started = Date.now();
      // lagerscanner-upstream.service as systemd runs it: its ExecStart, its own interval (2 s).
      const [program, args] = upstreamCommand(ports.upstream, dir);
      const service = spawn(program, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
      onTestFinished(() => {
        relay?.restore();
        if (service.exitCode === null) service.kill('SIGTERM');
      });
      let journal = '';
      service.stdout?.on('data', (chunk: Buffer) => {
        journal += chunk.toString();
      });
      service.stderr?.on('data', (chunk: Buffer) => {
        journal += chunk.toString();
      });
      const serviceExited = new Promise((resolve) => service.once('exit', resolve));
      const upstreamFile = () => fs.readFileSync(path.join(dir, 'upstream.conf'), 'utf8');
      const server = (port: number, down: boolean) =>
        `server 127.0.0.1:${port} max_fails=1 fail_timeout=5s${down ? ' down' : ''};`;
      const reloadsByService = () =>
        nginxErrors(Number.POSITIVE_INFINITY).split(`signal 1 (SIGHUP) received from ${service.pid},`)
          .length - 1;

      // Both ready, as the file written at setup says: rounds go by without a reload.
      await waitFor(() => requestsTo(healthy, started, '/readyz').length >= 2, 'two rounds of the check');
      expect(upstreamFile()).toContain(`${server(sick.port, false)}\n${server(healthy.port, false)}\n`);
      expect(reloadsByService()).toBe(0);

      // The database goes away for the first instance only: it still answers HTTP, but /readyz says 503.
      relay.cut();
      await waitFor(() => journal.includes(`${sick.port} not ready (/readyz answered 503)`), 'marked down');
      expect(upstreamFile()).toContain(`${server(sick.port, true)}\n${server(healthy.port, false)}\n`);
      await nginxReloaded(service.pid, 1);
      const downSince = Date.now();
      const siteErrorsBefore = siteErrors().length;
      for (let i = 0; i < 10; i++) {
        const answer = await request(articleUrl, {
          headers: { authorization: `Bearer ${token}` },
          agent: fresh(),
        });
        expect(answer.status, answer.body).toBe(200);
      }
      // Not one attempt on it: it logged no request but the check's /readyz, and nginx logged no failure.
      // (Each instance's log arrives through a pipe, a moment after the answer: wait for the healthy one's.)
      await waitFor(() => requestsTo(healthy, downSince, 'other than /readyz').length >= 10, 'the log');
      expect(requestsTo(healthy, downSince, 'other than /readyz')).toHaveLength(10);
      expect(requestsTo(sick, downSince, 'other than /readyz')).toEqual([]);
      expect(siteErrors().slice(siteErrorsBefore)).toBe('');

      // The database is back: the pool reconnects by itself, the check lists the instance again.
      relay.restore();
      await waitFor(() => journal.includes(`${sick.port} ready, ${healthy.port} ready:`), 'listed again');
      expect(upstreamFile()).toContain(`${server(sick.port, false)}\n${server(healthy.port, false)}\n`);
      await nginxReloaded(service.pid, 2);
      const upSince = Date.now();
      for (let i = 0; i < 10; i++) {
        const answer = await request(articleUrl, {
          headers: { authorization: `Bearer ${token}` },
          agent: fresh(),
        });
        expect(answer.status, answer.body).toBe(200);
      }
      await waitFor(
        () => requestsTo(sick, upSince, 'other than /readyz').length >= 3,
        'a share of the requests for the instance back in the list',
      );

      // Two changes, two reloads — though the check asked every 2 s all along.
      expect(requestsTo(healthy, started, '/readyz').length).toBeGreaterThanOrEqual(4);
      expect(reloadsByService()).toBe(2);
      expect(journal.trim().split('\n'), journal).toHaveLength(2);
      service.kill('SIGTERM');
      await serviceExited;
    }, 60_000);

    it('a rolling restart under two booking scanners: nothing lost, nothing twice', async () => {
      const token = await login();
      const from = await lookup(token, '/api/inventur/findlp/C-05-04-04');
      const to = await lookup(token, '/api/inventur/findlp/C-05-04-03');
      const article = await lookup(token, '/api/inventur/findarticle/100001');
      const start = await request(`${base}/api/inventur/`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'x-idempotency-key': randomUUID() },
        body: { lp: from, article, amount: 100_000 },
      });
      expect(start.status).toBe(200);
      const stockOf = async (location: number) =>
        Number(
          (
            await db.query(
              'select coalesce(sum(amount), 0)::int as amount from stock where location_id = $1 and article_id = $2',
              [location, article],
            )
          ).rows[0]?.amount,
        );
      const before = { from: await stockOf(from), to: await stockOf(to) };

      let stopping = false;
      const acked: string[] = [];
      const retries: string[] = [];
      // A handheld: one key per booking, the same key again after a failed try (no answer or 5xx).
      const scanner = async (name: string) => {
        const agent = new https.Agent({ keepAlive: true, maxSockets: 1 });
        const scannerToken = await login();
        try {
          for (let n = 0; !stopping && n < 2000; n++) {
            const key = randomUUID();
            for (let attempt = 1; ; attempt++) {
              const answer = await request(`${base}/api/umbuchung/artikel/`, {
                method: 'POST',
                agent,
                headers: { authorization: `Bearer ${scannerToken}`, 'x-idempotency-key': key },
                body: { from, article, to, amount: 1 },
              }).catch((error: Error) => ({ status: 0, body: error.message, headers: {} }));
              if (answer.status === 200) break;
              expect(answer.status === 0 || answer.status >= 500, `${answer.status} ${answer.body}`).toBe(
                true,
              );
              retries.push(`${name}: ${answer.status} ${answer.body.slice(0, 100)}`);
              if (attempt >= 20) throw new Error(`${name}: booking ${key} not acknowledged after 20 tries`);
              await sleep(250);
            }
            acked.push(key);
            await sleep(20);
          }
        } finally {
          agent.destroy();
        }
      };
      const scanners = Promise.all([scanner('scanner 1'), scanner('scanner 2')]);

      await sleep(1000);
      const ackedBefore = acked.length;
      for (const index of [0, 1] as const) {
        const instance = instances[index];
        if (!instance) throw new Error(`instance ${index} not running`);
        // `systemctl restart lagerscanner@<port>`: SIGTERM, a clean exit, start, ready (ExecStartPost).
        expect(await stopInstance(instance)).toBe(0);
        instances[index] = null;
        instances[index] = await startInstance(ports.upstream[index], env(index));
        // nginx tries a failed instance again after fail_timeout (5 s): only then restart the next one.
        await sleep(6000);
      }
      const ackedDuring = acked.length - ackedBefore;
      await sleep(1000);
      stopping = true;
      await scanners;

      const movements = await db.query(
        `select request_key, count(*)::int as n, sum(amount)::int as amount from movements
         where request_key = any($1) group by request_key`,
        [acked],
      );
      expect(new Set(acked).size).toBe(acked.length);
      expect(movements.rowCount, 'every acknowledged booking is in the journal').toBe(acked.length);
      expect(movements.rows.filter((r) => r.n !== 1 || r.amount !== 1)).toEqual([]);
      const runMovements = await db.query(
        'select count(*)::int as n from movements where from_location_id = $1 and to_location_id = $2',
        [from, to],
      );
      expect(runMovements.rows[0]?.n, 'no booking the scanners did not get an answer for').toBe(acked.length);
      expect(await stockOf(from)).toBe(before.from - acked.length);
      expect(await stockOf(to)).toBe(before.to + acked.length);
      expect(ackedDuring).toBeGreaterThan(50);
      const movedOn = fs
        .readFileSync(path.join(dir, 'logs', 'lagerscanner.error.log'), 'utf8')
        .split('\n')
        .filter((line) => line.includes('request: "POST /api/umbuchung/artikel/')).length;
      console.log(
        `rolling restart: ${acked.length} bookings acknowledged (${ackedDuring} during the restarts), ` +
          `${movedOn} moved on by nginx from a stopping instance, ` +
          `${retries.length} tries repeated by a scanner${retries.length ? `: ${retries.slice(0, 5).join('; ')}` : ''}`,
      );
    }, 120_000);

    it('the backup unit writes a PostgreSQL dump while the instances run', () => {
      const service = fs.readFileSync(path.join(deployDir, 'lagerscanner-backup.service'), 'utf8');
      const script = service.match(/^ExecStart=\/bin\/sh -c '(.+)'$/m)?.[1];
      expect(script).toBeDefined();
      const backups = path.join(dir, 'backups');
      fs.mkdirSync(backups);
      // systemd turns %% into % and $$ into $ before the shell sees the line.
      const command = (script ?? '')
        .replaceAll('%%', '%')
        .replaceAll('$$', '$')
        .replaceAll('/var/backups/lagerscanner', backups);
      const result = spawnSync('/bin/sh', ['-c', command], {
        cwd: root,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DATABASE_URL: databaseUrl },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(result.status, result.stderr).toBe(0);
      const files = fs.readdirSync(backups);
      expect(files).toEqual([expect.stringMatching(/^lager-\d{4}-\d{2}-\d{2}-\d{4}\.bak$/)]);
      const dump = fs.readFileSync(path.join(backups, files[0] ?? ''));
      expect(dump.subarray(0, 5).toString()).toBe('PGDMP'); // pg_dump's custom format
    }, 60_000);

    // ── helpers that need this run's address ──

    async function login(): Promise<string> {
      const answer = await request(`${base}/api/user/login`, {
        method: 'POST',
        body: { username: 'demo', password: 'demo' },
      });
      expect(answer.status, answer.body).toBe(200);
      return (JSON.parse(answer.body) as { token: string }).token;
    }

    async function lookup(token: string, url: string): Promise<number> {
      const answer = await request(`${base}${url}`, { headers: { authorization: `Bearer ${token}` } });
      expect(answer.status, answer.body).toBe(200);
      return (JSON.parse(answer.body) as { id: number }).id;
    }
  },
);

describe('deploy/nginx-upstream.mjs on its own', () => {
  it('lists every instance when none is ready, leaves a stale pid file alone, and rewrites nothing unchanged', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lagerscanner-upstream-'));
    // A pid file left by an nginx that crashed, naming a process that is not nginx (SIGHUP would end it).
    const other = spawn('sleep', ['60'], { stdio: 'ignore' });
    try {
      fs.writeFileSync(path.join(dir, 'nginx.pid'), `${other.pid}\n`);
      const ports: [number, number] = [await freePort(), await freePort()]; // nothing listens there
      const [program, args] = upstreamCommand(ports, dir, ['--once']);
      const run = () => spawnSync(program, args, { cwd: root, encoding: 'utf8' });

      const first = run();
      expect(first.status, first.stderr).toBe(0);
      expect(first.stdout).toBe(
        `${ports[0]} not ready (ECONNREFUSED), ${ports[1]} not ready (ECONNREFUSED), none ready, so all listed: ` +
          `${dir}/upstream.conf written, nginx is not running (${dir}/nginx.pid is stale)\n`,
      );
      // All `down` would have nginx answer 502 without trying; listed, each is tried and one may answer.
      expect(fs.readFileSync(path.join(dir, 'upstream.conf'), 'utf8')).toBe(
        [
          "# Written by deploy/nginx-upstream.mjs from each instance's GET /readyz; edits are overwritten.",
          '# No instance is ready: all are listed, so nginx still tries them.',
          `server 127.0.0.1:${ports[0]} max_fails=1 fail_timeout=5s;`,
          `server 127.0.0.1:${ports[1]} max_fails=1 fail_timeout=5s;`,
          '',
        ].join('\n'),
      );
      await sleep(200); // the child's exit, had it been signalled, is seen only once this loop runs again
      expect(other.signalCode).toBeNull();
      expect(other.exitCode).toBeNull();

      const again = run();
      expect(again.status, again.stderr).toBe(0);
      expect(again.stdout).toBe(''); // nothing changed: nothing written, nginx not reloaded
      expect(fs.readdirSync(dir).sort()).toEqual(['nginx.pid', 'upstream.conf']); // no temp file left
    } finally {
      other.kill();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

if (missing.length > 0 && process.env.CI !== 'true') {
  console.warn(
    [
      '',
      '!'.repeat(80),
      `!! test/deploy/nginx.test.ts is SKIPPED: missing ${missing.join('; ')}.`,
      '!! The production setup in deploy/ (nginx, two instances, rolling restart) is NOT tested.',
      '!'.repeat(80),
      '',
    ].join('\n'),
  );
}

// ── the web app in Chromium ───────────────────────────────────────────────────────────────────────────

async function loginInChromium(page: Page): Promise<void> {
  await page.goto('/');
  await page.getByRole('button', { name: 'Mit Name und Passwort anmelden' }).click();
  await page.getByLabel('Name').fill('demo');
  await page.getByLabel('Passwort').fill('demo');
  await page.getByRole('button', { name: 'Anmelden', exact: true }).click();
  await page.getByRole('button', { name: 'Demo Nutzer abmelden' }).waitFor();
  const historyLoaded = page.waitForResponse('**/api/inventur/history');
  await page.getByRole('link', { name: 'Inventur', exact: true }).click();
  await historyLoaded;
}

/** A keyboard-wedge scan into the field the screen moved the focus to. */
async function scanWhenFocused(page: Page, label: string, code: string): Promise<void> {
  const field = page.getByLabel(label, { exact: true });
  await expect
    .poll(() => field.evaluate((el) => el === document.activeElement), { timeout: 10_000 })
    .toBe(true);
  await page.keyboard.type(code);
  await page.keyboard.press('Enter');
}

async function typeAmountAndBook(page: Page, amount: number): Promise<void> {
  const field = page.getByLabel('Menge', { exact: true });
  await expect
    .poll(() => field.evaluate((el) => el === document.activeElement), { timeout: 10_000 })
    .toBe(true);
  await page.keyboard.type(String(amount));
  await page.keyboard.press('Enter');
  const booked = page.waitForResponse(
    (r) => r.url().endsWith('/api/inventur/') && r.request().method() === 'POST',
  );
  await page.getByRole('dialog').getByRole('button', { name: 'Buchen' }).click();
  expect((await booked).status()).toBe(200);
  await page.getByRole('status').filter({ hasText: 'Gezählt!' }).waitFor();
}

async function countInChromium(
  page: Page,
  count: { location: string; article: string; amount: number },
): Promise<void> {
  await scanWhenFocused(page, 'Lagerplatz', count.location);
  await scanWhenFocused(page, 'Artikel', count.article);
  await typeAmountAndBook(page, count.amount);
}
