import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { emptyPostgresDatabase } from '../support/db.ts';
import { freePort } from '../support/pg-cluster.ts';

/** A booking answered with 200 survives the server being killed (SIGKILL) right after. */
const root = path.resolve(import.meta.dirname, '../..');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'lagerscanner-durability-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  fs.rmSync(work, { recursive: true, force: true });
});

async function startServer(env: Record<string, string>): Promise<{ base: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  child.stderr?.on('data', (c) => {
    stderr += c;
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`server exited: ${stderr}`);
    try {
      if ((await fetch(`${base}/readyz`)).ok) return { base, child };
    } catch {
      // starting
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`server not ready: ${stderr}`);
}

async function killHard(child: ChildProcess) {
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await exited;
}

async function bookThenKillThenCheck(env: Record<string, string>) {
  const first = await startServer(env);
  const login = await fetch(`${first.base}/api/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'demo', password: 'demo' }),
  });
  const { token } = (await login.json()) as { token: string };
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const lp = (await (await fetch(`${first.base}/api/inventur/findlp/C-03-04-04`, { headers })).json()) as {
    id: number;
  };
  const article = (await (
    await fetch(`${first.base}/api/inventur/findarticle/100001`, { headers })
  ).json()) as { id: number };
  const amounts = [11, 12, 13];
  for (const amount of amounts) {
    const res = await fetch(`${first.base}/api/inventur/`, {
      method: 'POST',
      headers: { ...headers, 'x-idempotency-key': randomUUID() },
      body: JSON.stringify({ lp: lp.id, article: article.id, amount }),
    });
    expect(res.status).toBe(200);
  }
  await killHard(first.child); // no shutdown, no flush: the process is simply gone

  const second = await startServer(env);
  const history = (await (await fetch(`${second.base}/api/inventur/history`, { headers })).json()) as {
    data: { lp: string; amount: number }[];
  };
  expect(history.data.slice(0, 3).map((r) => r.amount)).toEqual([13, 12, 11]);
  const stock = (await (
    await fetch(`${second.base}/api/umlagern/checklparticle/${lp.id}/${article.id}`, { headers })
  ).json()) as {
    amount: number;
  };
  expect(stock.amount).toBe(13);
  await killHard(second.child);
}

describe('durability', () => {
  it('keeps acknowledged bookings of the embedded database across a SIGKILL', async () => {
    await bookThenKillThenCheck({ DATA_DIR: path.join(work, 'data') });
  }, 300_000);

  it('keeps acknowledged bookings on PostgreSQL across a SIGKILL of the server', async (context) => {
    const adminUrl = inject('pgAdminUrl');
    if (!adminUrl) return context.skip();
    await bookThenKillThenCheck({ DATABASE_URL: await emptyPostgresDatabase(adminUrl, 'durable') });
  }, 300_000);
});
