import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { openPglite, openPostgres } from '../../src/server/db/connect.ts';
import { lastBackup } from '../../src/server/repositories/backup.repository.ts';
import { runScript, runScriptAsync } from '../support/cli.ts';
import { emptyPostgresDatabase } from '../support/db.ts';
import { type ServerProcess, startServerProcess } from '../support/server-process.ts';
import { stockInvariantViolations } from '../support/stock.ts';

/**
 * The restore drill (decision 29): a backup taken with `npm run backup` while scanners book through the
 * running server, restored into a fresh folder or database, a server started on it — and the books checked:
 * journal = stock, and every booking acknowledged before the backup began is in it.
 */
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'lagerscanner-drill-'));
const servers: ServerProcess[] = [];
afterAll(async () => {
  for (const server of servers) await server.killHard();
  fs.rmSync(work, { recursive: true, force: true });
});

async function start(env: Record<string, string>): Promise<ServerProcess> {
  const server = await startServerProcess(env);
  servers.push(server);
  return server;
}

async function login(base: string): Promise<Record<string, string>> {
  const response = await fetch(`${base}/api/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'demo', password: 'demo' }),
  });
  const { token } = (await response.json()) as { token: string };
  return { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
}

/**
 * Scanners that move one piece of the demo's article 100001 between its two locations and back, as fast as
 * the server answers, until stopped; each acknowledged rebooking's key with the moment its answer came.
 */
function bookUnderLoad(
  base: string,
  headers: Record<string, string>,
  ids: { a: number; b: number; article: number },
) {
  const acked: { key: string; at: number }[] = [];
  const failures: string[] = [];
  const latencies: number[] = [];
  let running = true;
  const scanner = async (n: number) => {
    for (let i = n; running; i++) {
      const [from, to] = i % 2 === 0 ? [ids.a, ids.b] : [ids.b, ids.a];
      const key = randomUUID();
      const sent = performance.now();
      const response = await fetch(`${base}/api/umbuchung/artikel/`, {
        method: 'POST',
        headers: { ...headers, 'x-idempotency-key': key },
        body: JSON.stringify({ from, article: ids.article, to, amount: 1 }),
      });
      latencies.push(performance.now() - sent);
      if (response.status === 200) acked.push({ key, at: performance.now() });
      else if (response.status !== 400) failures.push(`${response.status} ${await response.text()}`);
      else await response.text(); // the location ran empty for a moment: refused, nothing booked
    }
  };
  const scanners = [0, 1, 2, 3].map(scanner);
  return {
    acked,
    failures,
    latencies,
    stop: async () => {
      running = false;
      await Promise.all(scanners);
    },
  };
}

async function drill(
  original: Record<string, string>,
  restored: Record<string, string>,
  open: () => Promise<{ db: Parameters<typeof stockInvariantViolations>[0]; close: () => Promise<void> }>,
) {
  const backup = path.join(work, `drill-${randomUUID()}.bak`);
  const first = await start(original);
  const headers = await login(first.base);
  const idOf = async (url: string) =>
    ((await (await fetch(`${first.base}${url}`, { headers })).json()) as { id: number }).id;
  const ids = {
    a: await idOf('/api/inventur/findlp/A-01-01-01'),
    b: await idOf('/api/inventur/findlp/A-01-01-02'),
    article: await idOf('/api/inventur/findarticle/100001'),
  };

  const load = bookUnderLoad(first.base, headers, ids);
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const before = load.acked.length;
  const begun = performance.now();
  const created = await runScriptAsync('src/server/cli/backup.ts', ['create', backup], { env: original });
  const during = load.acked.filter((a) => a.at > begun).length;
  await load.stop();
  expect(created.code, created.output).toBe(0);
  expect(load.failures).toEqual([]);
  expect(before).toBeGreaterThan(20);
  expect(during, 'bookings went on while the backup ran').toBeGreaterThan(10);
  const ackedBefore = load.acked.filter((a) => a.at < begun).map((a) => a.key);
  await first.killHard();

  const restore = runScript('src/server/cli/backup.ts', ['restore', backup], { env: restored });
  expect(restore.code, restore.output).toBe(0);
  const second = await start(restored);
  const again = await login(second.base);
  const stock = (await (
    await fetch(`${second.base}/api/umlagern/checklparticle/${ids.a}/${ids.article}`, { headers: again })
  ).json()) as { amount: number };
  expect(stock.amount).toBeGreaterThanOrEqual(0);
  await second.killHard();

  const handle = await open();
  try {
    expect(await stockInvariantViolations(handle.db)).toBe(0);
    const { rows } = await sql<{ n: number }>`
      select count(distinct request_key)::int as n from movements
      where request_key = any(${ackedBefore}::uuid[])`.execute(handle.db);
    expect(rows[0]?.n).toBe(ackedBefore.length);
    const total = await sql<{ n: number }>`select sum(amount)::int as n from stock s
      join articles a on a.id = s.article_id where a.nummer = '100001'`.execute(handle.db);
    expect(total.rows[0]?.n, 'rebookings move pieces, never make or lose one').toBe(60);
  } finally {
    await handle.close();
  }
  return { before: ackedBefore.length, during, latencies: load.latencies };
}

describe('restore drill: a backup taken under load, restored, has every acknowledged booking', () => {
  it('on the embedded database, from the running server', async () => {
    const original = { DATA_DIR: path.join(work, 'original') };
    const restored = { DATA_DIR: path.join(work, 'restored') };
    const result = await drill(original, restored, () => openPglite({ dataDir: restored.DATA_DIR }));
    // The backup was taken by the running server, and noted in its database.
    const handle = await openPglite({ dataDir: original.DATA_DIR });
    try {
      expect(await lastBackup(handle.db)).toMatchObject({ database: 'pglite', online: true });
    } finally {
      await handle.close();
    }
    console.info('PGlite drill', {
      ...result,
      latencies: undefined,
      slowestMs: Math.max(...result.latencies),
    });
  }, 300_000);

  it('on PostgreSQL', async (context) => {
    const adminUrl = inject('pgAdminUrl');
    if (!adminUrl) return context.skip();
    const original = { DATABASE_URL: await emptyPostgresDatabase(adminUrl, 'drill') };
    const restored = { DATABASE_URL: await emptyPostgresDatabase(adminUrl, 'drill_restored') };
    const url = restored.DATABASE_URL;
    const result = await drill(original, restored, () => openPostgres(url, 2));
    const handle = await openPostgres(original.DATABASE_URL, 1);
    try {
      expect(await lastBackup(handle.db)).toMatchObject({ database: 'postgres', online: true });
    } finally {
      await handle.close();
    }
    console.info('PostgreSQL drill', {
      ...result,
      latencies: undefined,
      slowestMs: Math.max(...result.latencies),
    });
  }, 300_000);
});
