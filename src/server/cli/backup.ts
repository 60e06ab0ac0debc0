import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { loadConfig } from '../config.ts';
import { openPglite, PGLITE_EXTENSIONS } from '../db/connect.ts';
import { findPgTool } from '../db/pg-tools.ts';

/**
 * Backup and restore, for the embedded database and for PostgreSQL:
 *   npm run backup -- create <file>
 *   npm run backup -- restore <file> [--force]
 * Embedded (no DATABASE_URL): a compressed copy of the data directory; stop the server first (one process
 * per data directory, the lock file enforces it). PostgreSQL: pg_dump / pg_restore in custom format, which
 * works while servers run.
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

if (config.databaseUrl) {
  const tool = findPgTool(command === 'create' ? 'pg_dump' : 'pg_restore');
  if (!tool)
    fail(
      `${command === 'create' ? 'pg_dump' : 'pg_restore'} not found (Debian: apt-get install postgresql-client)`,
      1,
    );
  const args =
    command === 'create'
      ? ['--format=custom', '--no-owner', `--file=${target}`, config.databaseUrl]
      : [
          '--clean',
          '--if-exists',
          '--no-owner',
          '--single-transaction',
          `--dbname=${config.databaseUrl}`,
          target,
        ];
  if (command === 'restore' && !fs.existsSync(target)) fail(`No such backup file: ${target}`, 1);
  const result = spawnSync(tool, args, { stdio: ['ignore', 'inherit', 'inherit'] });
  if (result.status !== 0) fail(`${path.basename(tool)} failed (exit ${result.status}).`, 1);
  console.log(
    command === 'create'
      ? `Backup of PostgreSQL written to ${target}.`
      : `PostgreSQL restored from ${target}.`,
  );
} else if (command === 'create') {
  // Opening takes the data directory's lock: a running server makes this fail with a clear message.
  const handle = await openPglite({ dataDir: config.dataDir }).catch((error: Error) =>
    fail(error.message, 1),
  );
  await handle.close();
  const pglite = await PGlite.create({
    dataDir: path.join(config.dataDir, 'pgdata'),
    extensions: PGLITE_EXTENSIONS,
  });
  const dump = await pglite.dumpDataDir('gzip');
  await pglite.close();
  fs.writeFileSync(target, Buffer.from(await dump.arrayBuffer()));
  console.log(`Backup of ${config.dataDir} written to ${target} (${Math.round(dump.size / 1024)} KiB).`);
} else {
  if (!fs.existsSync(target)) fail(`No such backup file: ${target}`, 1);
  const pgdata = path.join(config.dataDir, 'pgdata');
  if (fs.existsSync(pgdata) && fs.readdirSync(pgdata).length > 0 && !force) {
    fail(`${config.dataDir} already holds a database. Add --force to replace it (stop the server first).`, 1);
  }
  const handle = await openPglite({ dataDir: config.dataDir }).catch((error: Error) =>
    fail(error.message, 1),
  );
  await handle.close();
  fs.rmSync(pgdata, { recursive: true, force: true });
  const pglite = await PGlite.create({
    dataDir: pgdata,
    loadDataDir: new Blob([fs.readFileSync(target)]),
    extensions: PGLITE_EXTENSIONS,
  });
  await pglite.close();
  console.log(`${config.dataDir} restored from ${target}.`);
}
