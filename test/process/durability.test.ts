import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { emptyPostgresDatabase } from '../support/db.ts';
import { type ServerProcess, startServerProcess } from '../support/server-process.ts';

/** A booking answered with 200 survives the server being killed (SIGKILL) right after. */
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'lagerscanner-durability-'));
const servers: ServerProcess[] = [];
afterAll(async () => {
  for (const server of servers) await server.killHard();
  fs.rmSync(work, { recursive: true, force: true });
});

async function bookThenKillThenCheck(env: Record<string, string>) {
  const first = await startServerProcess(env);
  servers.push(first);
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
  await first.killHard(); // no shutdown, no flush: the process is simply gone

  const second = await startServerProcess(env);
  servers.push(second);
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
  await second.killHard();
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
