import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { maxFileBytes } from '../../src/server/features/leitstand/import/service.ts';
import { emptyPostgresDatabase } from '../support/db.ts';
import { articlesCsv, windows1252 } from '../support/import-files.ts';
import { type ServerProcess, startServerProcess } from '../support/server-process.ts';

/**
 * The Leitstand's CSV upload against the real server (the built bundle, its import worker beside it):
 * its memory, and a crash while it writes (decision 30).
 */
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'lagerscanner-import-upload-'));
const servers: ServerProcess[] = [];
afterAll(async () => {
  for (const server of servers) await server.killHard();
  fs.rmSync(work, { recursive: true, force: true });
});

/** IMPORT_LIMIT_KB's default (config.ts): the largest upload body, 20 MB. */
const IMPORT_LIMIT_BYTES = 20 * 1024 * 1024;
/**
 * What the largest allowed file (15 MB, 231,660 articles in Windows-1252) may add to the server's memory
 * while it is imported (RSS, MB). The worker that reads it has its heap capped at UPLOAD_WORKER_HEAP_MB
 * (128; with its young generation and code ≈ 150 MB of RSS), the body's bytes are 20 MB on their way to
 * it, and the server's thread allocates as it writes. Measured: +200–220 MB.
 */
const RSS_GROWTH_MB = 250;
/**
 * What stays once it is answered (MB): the worker has ended and given its memory back; what is left is
 * the server thread's heap, grown while it wrote, which V8 keeps for its next allocations until a full
 * collection (measured +90–110 MB; a second import reuses it).
 */
const RSS_KEPT_MB = 150;

async function start(env: Record<string, string>): Promise<ServerProcess> {
  const server = await startServerProcess({ LOG_LEVEL: 'info', ...env });
  servers.push(server);
  return server;
}

async function login(server: ServerProcess, username: string): Promise<string> {
  const res = await fetch(`${server.base}/api/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: username }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { token: string }).token;
}

function upload(server: ServerProcess, token: string, file: Buffer, key: string) {
  return fetch(`${server.base}/api/admin/import/articles`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      'x-idempotency-key': key,
    },
    body: JSON.stringify({ fileName: 'artikel.csv', content: file.toString('base64') }),
  });
}

/** The server process's resident memory (MB). */
function rssMb(server: ServerProcess): number {
  const status = fs.readFileSync(`/proc/${server.child.pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1]);
  return kb / 1024;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the import upload on the real server', () => {
  it(`imports the largest allowed file (Windows-1252) within ${RSS_GROWTH_MB} MB more memory, and gives it back`, async () => {
    // Started twice: the first start makes and seeds the data folder, which leaves garbage the collector
    // frees some time later; the second is a server as it runs every day.
    const seeding = await start({ DATA_DIR: path.join(work, 'memory') });
    const seeded = new Promise((resolve) => seeding.child.once('exit', resolve));
    seeding.child.kill('SIGTERM');
    await seeded;
    const server = await start({ DATA_DIR: path.join(work, 'memory') });
    const admin = await login(server, 'admin');
    // A small upload first: what the first one loads once (code, caches) is not the file's memory.
    const warmUp = await upload(
      server,
      admin,
      windows1252(articlesCsv({ count: 100, prefix: 'W' })),
      randomUUID(),
    );
    expect(warmUp.status).toBe(200);
    await sleep(3000);
    const before = rssMb(server);

    const file = windows1252(articlesCsv({ maxBytes: maxFileBytes(IMPORT_LIMIT_BYTES), prefix: 'M' }));
    const rows = file.toString('latin1').split('\r\n').length - 2;
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMb(server));
    }, 20);
    const started = performance.now();
    const res = await upload(server, admin, file, randomUUID());
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toMatchObject({ imported: true, encoding: 'Windows-1252', written: rows });
    await sleep(1000);
    const after = rssMb(server);
    console.info(
      `largest upload: ${(file.length / 2 ** 20).toFixed(1)} MB Windows-1252, ${rows.toLocaleString('en')} articles in ${seconds.toFixed(1)} s; RSS ${before.toFixed(0)} MB before, peak +${(peak - before).toFixed(0)} MB, after +${(after - before).toFixed(0)} MB`,
    );
    expect(file.length).toBeGreaterThan(maxFileBytes(IMPORT_LIMIT_BYTES) - 200);
    expect(peak - before).toBeLessThan(RSS_GROWTH_MB);
    expect(after - before).toBeLessThan(RSS_KEPT_MB);
  }, 600_000);

  /**
   * Kills the server (SIGKILL) while it writes an upload's rows, starts it again: it completes the import
   * by itself, once, and a repeat of the upload's key answers the report. `count` reads the articles of a
   * prefix and the audit entries of a key, with the server stopped where the database needs that.
   */
  async function crashWhileWriting(
    env: Record<string, string>,
    count: (prefix: string, key: string) => Promise<{ articles: number; audits: number }>,
  ) {
    const ARTICLES = 30_000;
    const first = await start(env);
    const admin = await login(first, 'admin');
    const prefix = `K${randomUUID().slice(0, 6)}-`;
    const file = Buffer.from(articlesCsv({ count: ARTICLES, prefix }), 'utf8');
    const key = randomUUID();
    const answer = upload(first, admin, file, key).catch((error: unknown) => error);
    for (let waited = 0; !first.output().includes('every row checked and staged, writing'); waited += 10) {
      if (waited > 300_000) throw new Error(`the upload was not staged: ${first.output()}`);
      await sleep(10);
    }
    // At once: the run is being written from this line on, and 30,000 rows take seconds to write.
    await first.killHard();
    // The answer was lost with the server: what the admin's page saw is a broken connection.
    expect(await answer).toBeInstanceOf(Error);

    const second = await start(env);
    // The repeat the page sends after a lost answer: it waits for the completion, then gets the report.
    const repeat = await upload(second, await login(second, 'admin'), file, key).catch((error: unknown) => {
      throw new Error(
        `the repeat failed: ${String(error)}; the server wrote: ${second.output().slice(-2000)}`,
      );
    });
    expect(repeat.status).toBe(200);
    expect(repeat.headers.get('idempotent-replayed')).toBe('true');
    expect(await repeat.json()).toMatchObject({
      imported: true,
      rows: ARTICLES,
      written: ARTICLES,
      // Each row counted once: none written twice.
      summary: [
        { code: 'counts', params: { what: 'articles', inserted: ARTICLES, updated: 0, unchanged: 0 } },
      ],
    });
    // It was the second server that completed it — the crash came while the rows were being written. Its
    // log line may reach this process after the answer does (another pipe): waited for, briefly.
    const completed = 'import: completed a run a stopped server had begun to write';
    for (let waited = 0; !second.output().includes(completed) && waited < 5000; waited += 50) await sleep(50);
    expect(second.output()).toContain(completed);
    expect(await count(prefix, key)).toEqual({ articles: ARTICLES, audits: 1 });
  }

  it('completes an upload that a crash stopped while writing, once, on the embedded database', async () => {
    const dataDir = path.join(work, 'crash');
    let server: ServerProcess | undefined;
    await crashWhileWriting({ DATA_DIR: dataDir }, async (prefix, key) => {
      server = servers.at(-1);
      // The data folder is the server's while it runs: stopped cleanly, then read.
      const exited = new Promise((resolve) => server?.child.once('exit', resolve));
      server?.child.kill('SIGTERM');
      await exited;
      const { openPglite } = await import('../../src/server/db/connect.ts');
      const handle = await openPglite({ dataDir });
      try {
        return await countsIn(handle.db, prefix, key);
      } finally {
        await handle.close();
      }
    });
  }, 600_000);

  it('completes an upload that a crash stopped while writing, once, on PostgreSQL', async (context) => {
    const adminUrl = inject('pgAdminUrl');
    if (!adminUrl) return context.skip();
    const url = await emptyPostgresDatabase(adminUrl, 'import_crash');
    await crashWhileWriting({ DATABASE_URL: url }, async (prefix, key) => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const articles = await client.query<{ n: number }>(
          'select count(*)::int as n from articles where nummer like $1',
          [`${prefix}%`],
        );
        const audits = await client.query<{ n: number }>(
          'select count(*)::int as n from audit_log where request_key = $1',
          [key],
        );
        return { articles: articles.rows[0]?.n ?? -1, audits: audits.rows[0]?.n ?? -1 };
      } finally {
        await client.end();
      }
    });
  }, 600_000);
});

async function countsIn(
  db: import('kysely').Kysely<import('../../src/server/db/schema.ts').Database>,
  prefix: string,
  key: string,
) {
  const { sql } = await import('kysely');
  const articles = await sql<{
    n: number;
  }>`select count(*)::int as n from articles where nummer like ${`${prefix}%`}`.execute(db);
  const audits = await sql<{
    n: number;
  }>`select count(*)::int as n from audit_log where request_key = ${key}`.execute(db);
  return { articles: articles.rows[0]?.n ?? -1, audits: audits.rows[0]?.n ?? -1 };
}
