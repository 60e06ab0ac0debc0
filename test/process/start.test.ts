import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SERVER_ENV } from '../../src/server/build-server.ts';
import { demo } from '../../src/server/seed/demo.ts';
import { pdfWords } from '../support/labels.ts';

/**
 * `npm start` as an operator runs it: a real process on a real port with an embedded data directory.
 * Restarting keeps the data, Ctrl-C shuts down cleanly, bad configuration stops it with a clear message.
 */
const root = path.resolve(import.meta.dirname, '../..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lagerscanner-start-'));
const running: ChildProcess[] = [];

afterAll(() => {
  for (const child of running) child.kill('SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Exactly what the README says to run: `npm start` (builds the server bundle, then execs node on it). */
function start(env: Record<string, string>) {
  const child = spawn('npm', ['start', '--silent'], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push(child);
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

/** The processes whose parent is `pid` (from /proc, Linux). */
function childPids(pid: number): number[] {
  return fs
    .readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      let stat: string;
      try {
        stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      } catch {
        return false; // ended meanwhile
      }
      // Field 4 (after the command in parentheses, which may contain spaces) is the parent pid.
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
    })
    .map(Number);
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

async function waitReady(base: string, exited: Promise<number | null>, output: () => string): Promise<void> {
  let gone = false;
  void exited.then(() => {
    gone = true;
  });
  const deadline = Date.now() + 150_000;
  while (Date.now() < deadline && !gone) {
    try {
      if ((await fetch(`${base}/readyz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${gone ? 'server exited before it was ready' : 'server not ready in time'}:\n${output()}`);
}

describe('starting the server', () => {
  it('refuses a bad configuration with a clear English message and exit code 1', async () => {
    const { exited, output } = start({ PORT: 'abc', DATA_DIR: dataDir });
    expect(await exited).toBe(1);
    expect(output()).toContain('PORT must be a whole number from 0 to 65535, got "abc"');
    expect(output()).not.toMatch(/\n\s+at /); // no stack trace
  }, 60_000);

  it('starts with demo data, keeps bookings across a restart and shuts down cleanly on Ctrl-C', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const env = { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir };

    const first = start(env);
    await waitReady(base, first.exited, first.output);
    // npm's child is the server itself (sh exec'd into it), with the allocator setting of SERVER_ENV.
    const serverPid = childPids(first.child.pid ?? 0)[0] ?? 0;
    expect(fs.readFileSync(`/proc/${serverPid}/cmdline`, 'utf8')).toContain('dist/server/main.mjs');
    const environment = fs.readFileSync(`/proc/${serverPid}/environ`, 'utf8').split('\0');
    for (const [name, value] of Object.entries(SERVER_ENV)) expect(environment).toContain(`${name}=${value}`);

    const page = await fetch(`${base}/inventur`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('name="csrf-token"');

    const login = await fetch(`${base}/api/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'demo', password: 'demo' }),
    });
    expect(login.status).toBe(200);
    const { token } = (await login.json()) as { token: string };
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const lp = (await (await fetch(`${base}/api/inventur/findlp/B-02-01-01`, { headers })).json()) as {
      id: number;
    };
    const article = (await (await fetch(`${base}/api/inventur/findarticle/100001`, { headers })).json()) as {
      id: number;
    };
    const booked = await fetch(`${base}/api/inventur/`, {
      method: 'POST',
      headers: { ...headers, 'x-idempotency-key': randomUUID() },
      body: JSON.stringify({ lp: lp.id, article: article.id, amount: 77 }),
    });
    expect(booked.status).toBe(200);

    // Labels draw with the font from node_modules (issue 39), which the bundle finds as tsx does.
    const lead = (await (
      await fetch(`${base}/api/user/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: demo.leadUser.username, password: demo.leadUser.password }),
      })
    ).json()) as { token: string };
    const label = await fetch(`${base}/api/etiketten/artikel.pdf?codes=${demo.article.nummer}`, {
      headers: { authorization: `Bearer ${lead.token}` },
    });
    expect(label.status).toBe(200);
    const pdf = new Uint8Array(await label.arrayBuffer());
    expect(Buffer.from(pdf).toString('latin1')).toMatch(/\/BaseFont \/[A-Z]{6}\+DejaVuSansCondensed-Bold/);
    expect((await pdfWords(pdf))[0]?.words.map((w) => w.text).slice(0, 2)).toEqual(
      demo.article.name.split(' '),
    );

    // A second server on the same data directory would corrupt it: it must refuse to start.
    const intruder = start({ ...env, PORT: String(await freePort()) });
    expect(await intruder.exited).toBe(1);
    expect(intruder.output()).toContain('is in use by another Lagerscanner process');

    first.child.kill('SIGINT');
    expect(await first.exited).toBe(0);
    expect(fs.existsSync(path.join(dataDir, 'lagerscanner.pid'))).toBe(false);

    const second = start(env);
    await waitReady(base, second.exited, second.output);
    const history = await fetch(`${base}/api/inventur/history`, { headers });
    expect(history.status).toBe(200);
    const rows = ((await history.json()) as { data: { lp: string; amount: number }[] }).data;
    expect(rows[0]).toMatchObject({ lp: 'B-02-01-01', amount: 77 });
    expect(second.output()).not.toContain('seeded the demo warehouse');
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  }, 300_000);
});
