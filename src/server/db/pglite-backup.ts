import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { type Kysely, sql } from 'kysely';
import type { Database } from './schema.ts';
import { extractTar, readTar, tarEnd, tarHeader, tarPadding } from './tar.ts';

/**
 * An online backup of the embedded database, taken by the process that runs it while it goes on serving
 * (decision 29). PGlite's data folder is PostgreSQL's own, written through the OS as PostgreSQL writes it, so
 * this is PostgreSQL's crash recovery put to use — what a restart after a kill relies on anyway:
 *
 * 1. One short step: a temporary physical replication slot, which keeps every WAL file from the last
 *    checkpoint's redo point on (PostgreSQL reserves a physical slot's WAL from there), and, in the same step,
 *    a copy of `global/pg_control`, which names that checkpoint — the point recovery will start from.
 * 2. The data files, copied by Node's file system calls (off the server's thread) while bookings go on. A page
 *    may be copied half-written or old: every page changed after the redo point has its whole image in the
 *    WAL (full_page_writes, on in PGlite), and replay rewrites it.
 * 3. The WAL from the redo point's file to the one that holds everything written so far, copied after the
 *    data files, so it covers every change any copied page holds (a page is written only after its WAL).
 * 4. One short step: the slot dropped.
 *
 * Restored, the copy starts like a server after a crash: it replays the WAL from that checkpoint to the end
 * of what was copied, and holds every transaction committed before the backup's first step (and those up to
 * its WAL copy). No checkpoint is forced: PostgreSQL's own low-level backup (`pg_backup_start`) starts with
 * one, which writes every dirty buffer at once — one step of up to half a second measured on the large seed,
 * which no handheld should wait for.
 *
 * The backup is a tar stream (gzip), files relative to the data folder, a note `lagerscanner-backup.json`
 * first. Only for PGlite: PostgreSQL has pg_dump.
 */

const SLOT = 'lagerscanner_backup';
/** The note at the archive's start: what it is and how it was taken. */
export const BACKUP_NOTE = 'lagerscanner-backup.json';
/** Files and folders that do not belong in a copy (as pg_basebackup leaves them out). */
const SKIPPED_FILES = new Set(['postmaster.pid', 'postmaster.opts', 'backup_label', 'tablespace_map']);
const EMPTIED_FOLDERS = new Set([
  'pg_wal',
  'pg_replslot',
  'pg_stat_tmp',
  'pg_dynshmem',
  'pg_notify',
  'pg_serial',
  'pg_snapshots',
  'pg_subtrans',
]);
/** A file is read and compressed in parts of this size: a few milliseconds of the thread pool's work each. */
const CHUNK = 256 * 1024;

export interface BackupNote {
  format: 'lagerscanner-pglite-1';
  startedAt: string;
  finishedAt: string;
  /** Where recovery starts (the last checkpoint's redo point) and the last WAL position copied. */
  redoLsn: string;
  endLsn: string;
  files: number;
  walFiles: number;
  /** The data folder's bytes in the archive, before compression. */
  bytes: number;
}

export interface BackupOptions {
  db: Kysely<Database>;
  /** PGlite's data folder (DATA_DIR/pgdata). */
  pgdata: string;
  /** Runs one short database step as a unit of work that other requests go between (the admission gate). */
  runUnit: <T>(work: () => Promise<T>) => Promise<T>;
  /** Where the compressed archive goes (a file, an HTTP answer). It is ended when the backup is complete. */
  output: NodeJS.WritableStream;
  /** Called before each file is copied, and awaited (progress; a test acts at a chosen point of the copy). */
  onFile?: (name: string) => Promise<void> | void;
  /**
   * Awaited before each part of a file is read (its bytes): the server lets the calls in work and in line go
   * first, so the copy and its compression take the cores when the floor leaves them, and paces the copy.
   */
  giveWay?: (bytes: number) => Promise<void>;
}

export class BackupAlreadyRunning extends Error {
  constructor() {
    super('A backup of this database is already running; try again when it is done.');
  }
}

let running = false;

/** Writes an online backup of the running embedded database to `output`; answers its note. */
export async function writePgliteBackup(options: BackupOptions): Promise<BackupNote> {
  if (running) throw new BackupAlreadyRunning();
  running = true;
  try {
    return await backup(options);
  } finally {
    running = false;
  }
}

async function backup({ db, pgdata, runUnit, output, onFile, giveWay }: BackupOptions): Promise<BackupNote> {
  const startedAt = new Date();
  const { control, redoLsn } = await runUnit(() => reserveWal(db, pgdata));
  try {
    // Level 1: compression runs beside the server on the thread pool; a higher level doubles its time for a
    // few percent of size.
    const gzip = zlib.createGzip({ level: 1 });
    const written = pipeline(gzip, output);
    written.catch(() => {}); // awaited below; a failed output fails the writes first
    let bytes = 0;
    const put = async (part: Buffer) => {
      if (!gzip.write(part)) await Promise.race([once(gzip, 'drain'), written]);
    };
    // The files' parts are read into a few buffers used in turn, each again once gzip has taken in what it
    // held: a new buffer per part made V8 collect its whole heap every second while 930 MB passed (major
    // collections of 15–69 ms on the large seed, each one a pause for every scanner).
    const ring = Array.from({ length: 4 }, () => ({
      buffer: Buffer.allocUnsafe(CHUNK),
      taken: Promise.resolve() as Promise<unknown>,
    }));
    let turn = 0;
    const putPart = async (read: (buffer: Buffer) => Promise<Buffer>) => {
      const slot = ring[turn++ % ring.length] as (typeof ring)[number];
      await slot.taken;
      const part = await read(slot.buffer);
      let taken!: () => void;
      slot.taken = Promise.race([new Promise<void>((resolve) => (taken = resolve)), written]);
      slot.taken.catch(() => {}); // a failed output is thrown by the writes; unawaited it would end the process
      if (!gzip.write(part, () => taken())) await Promise.race([once(gzip, 'drain'), written]);
    };
    const putFile = async (name: string, content: Buffer) => {
      await put(tarHeader(name, content.length, 'file'));
      await put(content);
      await put(tarPadding(content.length));
      bytes += content.length;
    };
    const note: BackupNote = {
      format: 'lagerscanner-pglite-1',
      startedAt: startedAt.toISOString(),
      finishedAt: '',
      redoLsn,
      endLsn: '',
      files: 0,
      walFiles: 0,
      bytes: 0,
    };
    // The note first, with what is known at the start: a restore reads it to tell this format apart.
    await putFile(BACKUP_NOTE, Buffer.from(JSON.stringify(note)));
    await putFile('global/pg_control', control);
    let files = 1;

    const copy = async (relative: string) => {
      await onFile?.(relative);
      const full = path.join(pgdata, relative);
      let handle: fs.promises.FileHandle;
      try {
        handle = await fs.promises.open(full, 'r');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return; // dropped meanwhile: replay knows
        throw error;
      }
      try {
        // The size when opened: a file that grows on is covered by the WAL, one that shrank is filled with
        // zeros (replay truncates it again), as pg_basebackup does.
        const size = (await handle.stat()).size;
        await put(tarHeader(relative, size, 'file'));
        let done = 0;
        while (done < size) {
          await giveWay?.(Math.min(CHUNK, size - done));
          await putPart(async (buffer) => {
            const want = Math.min(CHUNK, size - done);
            const { bytesRead } = await handle.read(buffer, 0, want, done);
            // Nothing more to read (the file shrank): zeros up to the size announced.
            if (bytesRead === 0) buffer.fill(0, 0, want);
            done += bytesRead === 0 ? want : bytesRead;
            return buffer.subarray(0, bytesRead === 0 ? want : bytesRead);
          });
        }
        await put(tarPadding(size));
        bytes += size;
        files++;
      } finally {
        await handle.close();
      }
    };

    const walk = async (relative: string): Promise<void> => {
      const entries = await fs.promises.readdir(path.join(pgdata, relative), { withFileTypes: true });
      entries.sort((a, b) => a.name.localeCompare(b.name));
      for (const entry of entries) {
        const name = relative ? `${relative}/${entry.name}` : entry.name;
        if (entry.isDirectory()) {
          await put(tarHeader(`${name}/`, 0, 'directory'));
          if (EMPTIED_FOLDERS.has(name)) continue;
          await walk(name);
        } else if (entry.isFile()) {
          if (name === 'global/pg_control' || SKIPPED_FILES.has(entry.name)) continue;
          if (entry.name === 'pg_internal.init' || entry.name.startsWith('pgsql_tmp')) continue;
          await copy(name);
        }
      }
    };
    await walk('');
    await put(tarHeader('pg_wal/archive_status/', 0, 'directory'));
    await put(tarHeader('pg_wal/summaries/', 0, 'directory'));

    // Every WAL file from the redo point's to the one holding what is written now.
    const { first, last, endLsn } = await runUnit(async () => {
      const { rows } = await sql<{ first: string; last: string; end_lsn: string }>`
        select pg_walfile_name(${redoLsn}::pg_lsn) as first,
          pg_walfile_name(pg_current_wal_flush_lsn()) as last,
          pg_current_wal_flush_lsn()::text as end_lsn`.execute(db);
      const row = rows[0];
      if (!row) throw new Error('backup: no WAL position');
      return { first: row.first, last: row.last, endLsn: row.end_lsn };
    });
    const walFiles = (await fs.promises.readdir(path.join(pgdata, 'pg_wal')))
      .filter((name) => /^[0-9A-F]{24}$/.test(name) && name >= first && name <= last)
      .sort();
    if (walFiles[0] !== first)
      throw new Error(`backup: the WAL file ${first} is gone (the slot ${SLOT} should have kept it)`);
    for (const name of walFiles) await copy(`pg_wal/${name}`);

    await put(tarEnd());
    gzip.end();
    await written;
    return {
      ...note,
      finishedAt: new Date().toISOString(),
      endLsn,
      files,
      walFiles: walFiles.length,
      bytes,
    };
  } finally {
    await runUnit(() => sql`select pg_drop_replication_slot(${SLOT})`.execute(db)).catch(() => undefined);
  }
}

/**
 * The first step: the slot that keeps the WAL from the last checkpoint's redo point on, and pg_control as it
 * names that checkpoint. A checkpoint between the two (another statement's WAL filled max_wal_size) would
 * make pg_control name a later point than the slot keeps; then the step is taken again.
 */
async function reserveWal(
  db: Kysely<Database>,
  pgdata: string,
): Promise<{ control: Buffer; redoLsn: string }> {
  for (let attempt = 0; attempt < 3; attempt++) {
    let slotLsn: string;
    try {
      const { rows } = await sql<{
        lsn: string;
      }>`select (pg_create_physical_replication_slot(${SLOT}, true, true)).lsn::text as lsn`.execute(db);
      slotLsn = rows[0]?.lsn ?? '';
    } catch (error) {
      if (/already exists/.test(String(error))) throw new BackupAlreadyRunning();
      throw error;
    }
    const control = fs.readFileSync(path.join(pgdata, 'global', 'pg_control'));
    const redoLsn = lsnText(control.readBigUInt64LE(REDO_OFFSET));
    if (redoLsn === slotLsn) return { control, redoLsn };
    await sql`select pg_drop_replication_slot(${SLOT})`.execute(db);
  }
  throw new Error('backup: the checkpoint moved three times while the backup began; try again');
}

/** pg_control: system id (8), version (4), catalog version (4), state (4 + 4), time (8), checkpoint (8), redo. */
const REDO_OFFSET = 40;

function lsnText(value: bigint): string {
  return `${(value >> 32n).toString(16).toUpperCase()}/${(value & 0xffffffffn).toString(16).toUpperCase()}`;
}

/** Reads a backup's note without unpacking it (null: a backup of PGlite's own format, from before). */
export async function readBackupNote(file: string): Promise<BackupNote | null> {
  let note: BackupNote | null = null;
  const stream = fs.createReadStream(file);
  try {
    await readTar(stream, async (entry) => {
      if (entry.name !== BACKUP_NOTE) throw new StopReading();
      const parts: Buffer[] = [];
      return {
        write: async (part) => {
          parts.push(part);
        },
        end: async () => {
          note = JSON.parse(Buffer.concat(parts).toString('utf8')) as BackupNote;
          throw new StopReading();
        },
      };
    });
  } catch (error) {
    if (!(error instanceof StopReading)) throw error;
  } finally {
    stream.destroy();
  }
  return note;
}

class StopReading extends Error {}

/**
 * Unpacks a backup into an empty `pgdata` folder. PGlite then starts on it as after a crash: it replays the
 * copied WAL (openPglite does that on its first start). Backups of PGlite's own format (`dumpDataDir`, this
 * command before decision 29) unpack the same way.
 */
export async function unpackPgliteBackup(file: string, pgdata: string): Promise<void> {
  await fs.promises.mkdir(pgdata, { recursive: true, mode: 0o700 });
  await extractTar(fs.createReadStream(file), pgdata);
  await fs.promises.rm(path.join(pgdata, BACKUP_NOTE), { force: true });
}
