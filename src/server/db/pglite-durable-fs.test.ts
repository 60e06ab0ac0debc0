import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openPglite } from './connect.ts';
import { DurabilityError, pageLsn, WalSync, walPosition } from './pglite-durable-fs.ts';

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'lagerscanner-durable-fs-'));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

async function settings(handle: DatabaseHandle) {
  const names = ['fsync', 'wal_sync_method', 'synchronous_commit', 'full_page_writes'] as const;
  const values: Record<string, string> = {};
  for (const name of names) {
    const { rows } = await sql<Record<string, string>>`show ${sql.raw(name)}`.execute(handle.db);
    values[name] = rows[0]?.[name] ?? '';
  }
  return values;
}

describe('the embedded database on disk', () => {
  it('runs PostgreSQL with its syncs on, and answers a commit only once its WAL is synced — commits that arrive together share one sync', async () => {
    const handle = await openPglite({ dataDir: path.join(work, 'full') });
    try {
      expect(await settings(handle)).toEqual({
        fsync: 'on',
        wal_sync_method: 'fsync',
        synchronous_commit: 'on',
        full_page_writes: 'on',
      });
      await sql`create table booked (id int primary key)`.execute(handle.db);
      const wal = walOf(handle);
      const before = { ...wal.counts, ...wal.progress() };
      const answeredBeforeDurable: number[] = [];
      await Promise.all(
        Array.from({ length: 40 }, async (_, i) => {
          let requestedBeforeCommit = 0;
          await handle.db.transaction().execute(async (trx) => {
            await sql`insert into booked values (${i})`.execute(trx);
            requestedBeforeCommit = wal.progress().requested;
          });
          // Answered here: the commit's own sync (a later request than any before it) must be done.
          if (wal.progress().durable <= requestedBeforeCommit) answeredBeforeDurable.push(i);
        }),
      );
      expect(answeredBeforeDurable).toEqual([]);
      const requests = wal.progress().requested - before.requested;
      const rounds = wal.counts.rounds - before.rounds;
      expect(requests).toBeGreaterThanOrEqual(40);
      // 40 commits in one burst: the first starts a sync, the rest share the next one or two.
      expect(rounds).toBeLessThan(requests / 4);
    } finally {
      await handle.close();
    }
  }, 120_000);

  it("reads WAL positions from a segment's name and a page's LSN from its header as PostgreSQL writes them", async () => {
    const dataDir = path.join(work, 'lsn');
    const handle = await openPglite({ dataDir });
    try {
      await sql`create table counted (id int primary key, n int)`.execute(handle.db);
      await sql`insert into counted select g, 0 from generate_series(1, 100) g`.execute(handle.db);
      const where = await sql<{ lsn: string; file_name: string; file_offset: number }>`
        select at.lsn::text as lsn, f.file_name, f.file_offset
        from (select pg_current_wal_insert_lsn() as lsn) at, pg_walfile_name_offset(at.lsn) f`.execute(
        handle.db,
      );
      const at = where.rows[0];
      if (!at) throw new Error('no WAL position');
      expect(walPosition(path.join(dataDir, 'pgdata', 'pg_wal', at.file_name), at.file_offset)).toBe(
        lsn(at.lsn),
      );

      const before = lsn(await currentLsn(handle));
      await sql`update counted set n = 1 where id = 1`.execute(handle.db);
      const after = lsn(await currentLsn(handle));
      await sql`checkpoint`.execute(handle.db);
      const file = await sql<{ file: string }>`select pg_relation_filepath('counted') as file`.execute(
        handle.db,
      );
      const page = fs
        .readFileSync(path.join(dataDir, 'pgdata', file.rows[0]?.file ?? 'missing'))
        .subarray(0, 8192);
      // The update's WAL record stamped the page: its LSN lies between the positions before and after it.
      expect(pageLsn(page, 0)).toBeGreaterThan(before);
      expect(pageLsn(page, 0)).toBeLessThanOrEqual(after);
    } finally {
      await handle.close();
    }
  }, 120_000);

  it('runs as PGlite does out of the box with DURABILITY=off: no syncs, nothing to wait for', async () => {
    const handle = await openPglite({ dataDir: path.join(work, 'off'), durability: 'off' });
    try {
      expect((await settings(handle)).fsync).toBe('off');
      expect(handle.describe).toContain('DURABILITY=off');
    } finally {
      await handle.close();
    }
  }, 120_000);
});

describe('WalSync, the group commit', () => {
  const segment = path.join(work, 'segment');
  fs.writeFileSync(segment, 'wal');

  it('refuses to acknowledge anything once the disk reported a failed sync, and stops PostgreSQL from going on', async () => {
    const failing = () =>
      new Worker(
        "require('node:worker_threads').parentPort.on('message', (m) => require('node:worker_threads').parentPort.postMessage('EIO: i/o error, fdatasync'))",
        { eval: true },
      );
    const wal = new WalSync(failing);
    wal.request(segment);
    const waiting = wal.whenDurable();
    await expect(waiting).rejects.toThrow(DurabilityError);
    await expect(waiting).rejects.toThrow('EIO: i/o error, fdatasync');
    await expect(wal.whenDurable()).rejects.toThrow(DurabilityError);
    // PostgreSQL's next sync request fails (it PANICs, as PostgreSQL does on a failed fsync).
    expect(() => wal.request(segment)).toThrow(DurabilityError);
    await wal.close();
  });

  it('keeps a process alive while its last work waits for a sync (a CLI, the bench), and lets it end after', () => {
    // A sync thread that takes half a second: with nothing else left, Node would end the process (exit
    // code 13, a top-level await never settled) if the thread did not hold it while the sync runs.
    const script = `
      import { Worker } from 'node:worker_threads';
      import { WalSync } from ${JSON.stringify(path.join(import.meta.dirname, 'pglite-durable-fs.ts'))};
      const slow = () => new Worker("const { parentPort } = process.getBuiltinModule('node:worker_threads'); parentPort.on('message', () => setTimeout(() => parentPort.postMessage(null), 500))", { eval: true });
      const wal = new WalSync(slow);
      wal.request(${JSON.stringify(segment)});
      await wal.whenDurable();
      console.log('durable');`;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(child.stdout.trim(), child.stderr).toBe('durable');
    expect(child.status).toBe(0);
  }, 60_000);

  it('closes with a sync in flight whose answer comes while the thread ends, and the process ends after', () => {
    // The thread's answer is waiting when close() terminates it; handled then, it must not let go of the
    // thread while the termination is awaited (exit code 13 before). Three times: the race is not certain.
    const script = `
      import { WalSync } from ${JSON.stringify(path.join(import.meta.dirname, 'pglite-durable-fs.ts'))};
      for (let i = 0; i < 3; i++) {
        const wal = new WalSync();
        wal.request(${JSON.stringify(segment)});
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
        await wal.close();
      }
      console.log('closed');`;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(child.stdout.trim(), child.stderr).toBe('closed');
    expect(child.status).toBe(0);
  }, 60_000);

  it("lets a data page be written without a sync only once the WAL up to the page's LSN is on disk", async () => {
    const silent = () =>
      new Worker("require('node:worker_threads').parentPort.on('message', () => {})", { eval: true });
    const wal = new WalSync(silent);
    const first = path.join(work, 'pg_wal', '000000010000000200000003');
    fs.mkdirSync(path.dirname(first), { recursive: true });
    fs.writeFileSync(first, 'wal');
    const start = walPosition(first, 0);
    expect(start).toBe(2 * 2 ** 32 + 3 * 16 * 1024 * 1024);
    wal.wrote(first, 0, 8192);
    expect(wal.onDiskUpTo(start + 100)).toBe(false); // written, not asked to be synced
    wal.request(first);
    wal.wrote(first, 8192, 8192); // after the request: not covered by it
    expect(wal.onDiskUpTo(start + 100)).toBe(false); // asked, the sync not done
    wal.drain();
    expect(wal.onDiskUpTo(start + 8192)).toBe(true);
    expect(wal.onDiskUpTo(start + 8193)).toBe(false);
    expect(wal.onDiskUpTo(Number.NaN)).toBe(false);
    // A WAL write we cannot place (past a segment as we know it): no page is judged by its LSN any more.
    wal.wrote(first, 16 * 1024 * 1024 - 100, 8192);
    expect(wal.onDiskUpTo(0)).toBe(false);
    expect(wal.counts.pagesAhead).toBe(1);
    await wal.close();
  });

  it('judges no page by its LSN when a synced WAL file is not named as a segment', async () => {
    const silent = () =>
      new Worker("require('node:worker_threads').parentPort.on('message', () => {})", { eval: true });
    const wal = new WalSync(silent);
    wal.request(segment);
    wal.drain();
    expect(wal.onDiskUpTo(0)).toBe(false);
    await wal.close();
  });

  it('finishes an outstanding sync on this thread before anything else is written (WAL before data)', async () => {
    // A sync thread that never answers: only the drain can make the request durable.
    const silent = () =>
      new Worker("require('node:worker_threads').parentPort.on('message', () => {})", { eval: true });
    const wal = new WalSync(silent);
    wal.request(segment);
    const waiting = wal.whenDurable();
    expect(waiting).toBeInstanceOf(Promise);
    wal.drain();
    await waiting;
    expect(wal.whenDurable()).toBeUndefined();
    expect(wal.counts.drains).toBe(1);
    await wal.close();
  });
});

/** An LSN as PostgreSQL prints it (`16/B374D848`) as a number. */
function lsn(text: string): number {
  const [high, low] = text.split('/');
  return Number.parseInt(high ?? '', 16) * 2 ** 32 + Number.parseInt(low ?? '', 16);
}

async function currentLsn(handle: DatabaseHandle): Promise<string> {
  const { rows } = await sql<{ lsn: string }>`select pg_current_wal_insert_lsn()::text as lsn`.execute(
    handle.db,
  );
  return rows[0]?.lsn ?? '';
}

function walOf(handle: DatabaseHandle): WalSync {
  const wal = handle.wal;
  if (!wal) throw new Error('no durable file layer');
  return wal;
}
