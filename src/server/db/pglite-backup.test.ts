import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { PGlite } from '@electric-sql/pglite';
import { amcheck } from '@electric-sql/pglite/contrib/amcheck';
import { Kysely, sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openPglite, PGLITE_EXTENSIONS } from './connect.ts';
import {
  BackupAlreadyRunning,
  readBackupNote,
  unpackPgliteBackup,
  writePgliteBackup,
} from './pglite-backup.ts';
import { PGliteDialect } from './pglite-dialect.ts';
import type { Database } from './schema.ts';

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'lagerscanner-pglite-backup-'));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

/**
 * The online backup's hard case (decision 29): while its files are copied, the database writes on, moves to
 * new WAL files and takes a checkpoint — which, without the backup's slot, recycles the WAL files from the
 * checkpoint that the copied pg_control names. Restored, it must start, hold every transaction committed
 * before the backup began, keep each transaction whole, and its indexes must match its tables (amcheck).
 */
describe('the online backup of PGlite', () => {
  it('restores whole when a checkpoint and WAL switches happen while its files are copied', async () => {
    const dataDir = path.join(work, 'live');
    const handle = await openPglite({ dataDir });
    const db = handle.db as unknown as Kysely<Database>;
    await sql`create table booked (id serial primary key, n int not null, pad text not null)`.execute(db);
    await sql`create table total (id int primary key, n int not null)`.execute(db);
    await sql`insert into total values (1, 0)`.execute(db);
    await sql`insert into booked (n, pad) select 0, repeat(md5(g::text), 8) from generate_series(1, 30000) g`.execute(
      db,
    );
    let booked = 0;
    // Each booking: one row more and the total with it, in one transaction.
    const book = async () => {
      await db.transaction().execute(async (trx) => {
        await sql`insert into booked (n, pad) values (1, repeat('x', 200))`.execute(trx);
        await sql`update total set n = n + 1 where id = 1`.execute(trx);
      });
      booked++;
    };
    for (let i = 0; i < 50; i++) await book();
    const bookedBefore = booked;

    let disturbed = false;
    const file = path.join(work, 'online.bak');
    const note = await writePgliteBackup({
      db,
      pgdata: path.join(dataDir, 'pgdata'),
      runUnit: (work) => work(),
      output: fs.createWriteStream(file),
      // Once the databases' files are copied (base/, global/), before the WAL: bookings, three new WAL files,
      // a checkpoint, more bookings.
      onFile: async (name) => {
        if (disturbed || !name.startsWith('pg_multixact/')) return;
        disturbed = true;
        for (let i = 0; i < 200; i++) await book();
        for (let i = 0; i < 3; i++) {
          for (let j = 0; j < 20; j++) await book();
          await sql`select pg_switch_wal()`.execute(db);
        }
        await sql`checkpoint`.execute(db);
        for (let i = 0; i < 100; i++) await book();
      },
    });
    expect(disturbed).toBe(true);
    expect(note.walFiles).toBeGreaterThanOrEqual(4);
    await handle.close();
    expect(await readBackupNote(file)).toMatchObject({
      format: 'lagerscanner-pglite-1',
      redoLsn: note.redoLsn,
    });

    const pgdata = path.join(work, 'restored', 'pgdata');
    await unpackPgliteBackup(file, pgdata);
    const restored = await PGlite.create({ dataDir: pgdata, extensions: { ...PGLITE_EXTENSIONS, amcheck } });
    const check = new Kysely<Database>({ dialect: new PGliteDialect(restored) });
    try {
      const { rows } = await sql<{ bookings: number; total: number }>`
        select (select count(*) from booked where n = 1)::int as bookings,
               (select n from total where id = 1) as total`.execute(check);
      const [counts] = rows;
      expect(counts?.bookings).toBeGreaterThanOrEqual(bookedBefore);
      expect(counts?.bookings).toBeLessThanOrEqual(booked);
      expect(counts?.total, 'each booking whole: its row and the total together').toBe(counts?.bookings);
      await sql`create extension amcheck`.execute(check);
      for (const index of ['booked_pkey', 'total_pkey'])
        await sql`select bt_index_check(index => ${index}::regclass, heapallindexed => true)`.execute(check);
    } finally {
      await check.destroy();
    }
  }, 120_000);

  it('gives up cleanly when its output fails midway: the error is thrown, the next backup runs, one at a time', async () => {
    const handle = await openPglite({ dataDir: path.join(work, 'failing') });
    try {
      const pgdata = path.join(work, 'failing', 'pgdata');
      let written = 0;
      const failing = new Writable({
        write(chunk: Buffer, _encoding, done) {
          written += chunk.length;
          done(written > 1_000_000 ? new Error('disk full') : null);
        },
      });
      await expect(
        writePgliteBackup({ db: handle.db, pgdata, runUnit: (work) => work(), output: failing }),
      ).rejects.toThrow('disk full');
      // The slot is gone with it: a second backup can take its own — and a third at the same time cannot.
      let size = 0;
      const second = writePgliteBackup({
        db: handle.db,
        pgdata,
        runUnit: (work) => work(),
        output: new Writable({
          write(chunk: Buffer, _encoding, done) {
            size += chunk.length;
            done();
          },
        }),
      });
      await expect(
        writePgliteBackup({ db: handle.db, pgdata, runUnit: (work) => work(), output: new Writable() }),
      ).rejects.toThrow(BackupAlreadyRunning);
      const note = await second;
      expect(note.files).toBeGreaterThan(100);
      expect(size).toBeGreaterThan(1_000_000);
    } finally {
      await handle.close();
    }
  }, 60_000);
});
