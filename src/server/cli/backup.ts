import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { sql } from 'kysely';
import { BACKUP_SOCKET } from '../backup-socket.ts';
import { type Config, loadConfig } from '../config.ts';
import { DataDirInUseError, lockDataDir, openPglite, openPostgres } from '../db/connect.ts';
import { findPgTool } from '../db/pg-tools.ts';
import {
  type BackupNote,
  readBackupNote,
  unpackPgliteBackup,
  writePgliteBackup,
} from '../db/pglite-backup.ts';
import { type BackupRecord, recordBackup } from '../repositories/backup.repository.ts';

/**
 * Backup and restore, for the embedded database and for PostgreSQL (docs/operating.md "Backup and restore",
 * decision 29):
 *   npm run backup -- create <file>
 *   npm run backup -- restore <file> [--force]
 * Embedded (no DATA_DIR's server running or one running): an online copy of the database — the running server
 * takes it while it serves and streams it here through its socket in DATA_DIR; with no server running, this
 * command takes it itself. PostgreSQL: pg_dump / pg_restore in custom format, which works while servers run.
 * A completed backup is noted in the database; the Leitstand shows when the last one ran.
 * Restore: into a stopped server's DATA_DIR / the DATABASE_URL's database.
 */
const USAGE = 'Usage: npm run backup -- create <file> | restore <file> [--force]';

function fail(message: string, code = 2): never {
  console.error(message);
  process.exit(code);
}

const [command, file, ...flags] = process.argv.slice(2);
if ((command !== 'create' && command !== 'restore') || !file) fail(USAGE);
const force = flags.includes('--force');
if (flags.some((f) => f !== '--force')) fail(USAGE);
const target = path.resolve(file);
const config = (() => {
  try {
    return loadConfig();
  } catch (error) {
    return fail((error as Error).message, 1);
  }
})();
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

// A backup runs beside the serving servers: at the back office's CPU priority (BACK_OFFICE_NICE), and so
// does pg_dump, which inherits it — its compression then takes what CPU the handhelds leave.
if (command === 'create') {
  try {
    os.setPriority(config.backOfficeNice);
  } catch {
    // a platform without priorities: the backup runs at the caller's
  }
}

try {
  if (config.databaseUrl) {
    if (command === 'create') await createPostgres(config.databaseUrl);
    else restorePostgres(config.databaseUrl);
  } else if (command === 'create') await createPglite(config);
  else await restorePglite(config);
} catch (error) {
  fail(error instanceof Error ? error.message : String(error), 1);
}

async function createPostgres(url: string): Promise<void> {
  const tool = findPgTool('pg_dump');
  if (!tool) fail('pg_dump not found (Debian: apt-get install postgresql-client)', 1);
  const startedAt = new Date().toISOString();
  const part = `${target}.part`;
  const result = spawnSync(tool, ['--format=custom', '--no-owner', `--file=${part}`, url], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (result.status !== 0) {
    fs.rmSync(part, { force: true });
    fail(`${path.basename(tool)} failed (exit ${result.status}).`, 1);
  }
  const bytes = keep(part);
  const handle = await openPostgres(url, 1);
  try {
    await recordBackup(handle.db, record(startedAt, bytes, 'postgres', true));
  } finally {
    await handle.close();
  }
  console.log(`Backup of PostgreSQL written to ${target} (${mib(bytes)}).`);
}

function restorePostgres(url: string): void {
  if (!fs.existsSync(target)) fail(`No such backup file: ${target}`, 1);
  const tool = findPgTool('pg_restore');
  if (!tool) fail('pg_restore not found (Debian: apt-get install postgresql-client)', 1);
  const args = ['--clean', '--if-exists', '--no-owner', '--single-transaction', `--dbname=${url}`, target];
  const result = spawnSync(tool, args, { stdio: ['ignore', 'inherit', 'inherit'] });
  if (result.status !== 0) fail(`${path.basename(tool)} failed (exit ${result.status}).`, 1);
  console.log(`PostgreSQL restored from ${target}.`);
}

async function createPglite({ dataDir }: Config): Promise<void> {
  const startedAt = new Date().toISOString();
  const part = `${target}.part`;
  const socketPath = path.resolve(dataDir, BACKUP_SOCKET);
  // A running server answers on its socket and takes the backup while it serves.
  const fromServer = fs.existsSync(socketPath) ? await backupFromServer(socketPath, part) : null;
  if (fromServer) {
    const bytes = keep(part);
    await tellServer(socketPath, record(startedAt, bytes, 'pglite', true));
    console.log(
      `Backup of ${dataDir} written to ${target} (${mib(bytes)}), taken by the running server while it served.`,
    );
    return;
  }
  if (!fs.existsSync(path.join(dataDir, 'pgdata', 'PG_VERSION')))
    fail(`No embedded database in ${dataDir} (DATA_DIR).`, 1);
  let handle: Awaited<ReturnType<typeof openPglite>>;
  try {
    handle = await openPglite({ dataDir });
  } catch (error) {
    if (error instanceof DataDirInUseError)
      fail(
        `${error.message}\nThat process does not answer on ${socketPath}: an older server version, or a command such as npm run import. Try again when it is done.`,
        1,
      );
    throw error;
  }
  try {
    await writePgliteBackup({
      db: handle.db,
      pgdata: path.join(dataDir, 'pgdata'),
      runUnit: (work) => work(),
      output: fs.createWriteStream(part, { mode: 0o600 }),
    });
    const bytes = keep(part);
    await recordBackup(handle.db, record(startedAt, bytes, 'pglite', false));
    console.log(`Backup of ${dataDir} written to ${target} (${mib(bytes)}); no server was running.`);
  } finally {
    await handle.close();
  }
}

/**
 * Asks the server on `socketPath` for the backup and writes it to `part`. Null when no server listens there
 * (a socket left by one that died); an error when it answered but the backup failed.
 */
async function backupFromServer(socketPath: string, part: string): Promise<BackupNote | null> {
  const response = await new Promise<http.IncomingMessage | null>((resolve, reject) => {
    const request = http.request({ socketPath, method: 'POST', path: '/backup' }, resolve);
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNREFUSED' || error.code === 'ENOENT') resolve(null);
      else reject(error);
    });
    request.end();
  });
  if (!response) return null;
  if (response.statusCode !== 200) {
    let text = '';
    for await (const chunk of response) text += String(chunk);
    throw new Error(`The server refused the backup: ${text || `status ${response.statusCode}`}`);
  }
  try {
    await pipeline(response, fs.createWriteStream(part, { mode: 0o600 }));
  } catch (error) {
    fs.rmSync(part, { force: true });
    throw new Error(
      `The backup broke off (${(error as Error).message}); see the server's log. No backup written.`,
    );
  }
  const note = response.trailers['x-backup-note'];
  if (!note) {
    fs.rmSync(part, { force: true });
    throw new Error("The server broke the backup off; see the server's log. No backup written.");
  }
  return JSON.parse(note) as BackupNote;
}

async function tellServer(socketPath: string, backup: BackupRecord): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const request = http.request(
      {
        socketPath,
        method: 'POST',
        path: '/backup/recorded',
        headers: { 'content-type': 'application/json' },
      },
      (response) => {
        response.resume();
        if (response.statusCode === 204) resolve();
        else
          reject(
            new Error(
              `The backup file is complete, but the server did not note it (status ${response.statusCode}).`,
            ),
          );
      },
    );
    request.on('error', reject);
    request.end(JSON.stringify(backup));
  });
}

/** Puts the finished file in place: on disk first, then renamed, so `target` is never half a backup. */
function keep(part: string): number {
  const fd = fs.openSync(part, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(part, target);
  const dir = fs.openSync(path.dirname(target), 'r');
  try {
    fs.fsyncSync(dir);
  } finally {
    fs.closeSync(dir);
  }
  return fs.statSync(target).size;
}

function record(
  startedAt: string,
  bytes: number,
  database: BackupRecord['database'],
  online: boolean,
): BackupRecord {
  return { startedAt, finishedAt: new Date().toISOString(), bytes, database, online };
}

async function restorePglite({ dataDir }: Config): Promise<void> {
  if (!fs.existsSync(target)) fail(`No such backup file: ${target}`, 1);
  const pgdata = path.join(dataDir, 'pgdata');
  if (fs.existsSync(pgdata) && fs.readdirSync(pgdata).length > 0 && !force) {
    fail(`${dataDir} already holds a database. Add --force to replace it (stop the server first).`, 1);
  }
  fs.mkdirSync(dataDir, { recursive: true });
  let unlock: () => void;
  try {
    unlock = lockDataDir(dataDir);
  } catch (error) {
    return fail((error as Error).message, 1);
  }
  // Unpacked beside the database first: a file that is no backup, or one cut short, leaves it as it was.
  const unpacked = `${pgdata}.restoring`;
  let note: BackupNote | null;
  try {
    fs.rmSync(unpacked, { recursive: true, force: true });
    await unpackPgliteBackup(target, unpacked);
    note = await readBackupNote(target);
    fs.rmSync(pgdata, { recursive: true, force: true });
    fs.renameSync(unpacked, pgdata);
  } catch (error) {
    fs.rmSync(unpacked, { recursive: true, force: true });
    throw new Error(`${target} is not a complete backup (${(error as Error).message}); nothing restored.`);
  } finally {
    unlock();
  }
  // The first start replays the WAL copied with the backup, as after a crash; a checkpoint then makes it
  // an ordinary data folder.
  const started = performance.now();
  const handle = await openPglite({ dataDir });
  try {
    await sql`checkpoint`.execute(handle.db);
  } finally {
    await handle.close();
  }
  const taken = note ? `taken ${note.startedAt}, ` : '';
  console.log(
    `${dataDir} restored from ${target} (${taken}the database recovered in ${((performance.now() - started) / 1000).toFixed(1)} s).`,
  );
}
