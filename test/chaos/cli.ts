import { parseArgs } from 'node:util';
import { emptyPostgresDatabase, findPgBin, startPgCluster } from '../support/pg-cluster.ts';
import { type ChaosReport, runChaos } from './run.ts';

/**
 * `npm run chaos -- --minutes N [--db pglite|postgres|both] [--scanners 20] [--seed 1]`
 *
 * The long conservation run: N minutes on each database (PostgreSQL with two server instances, in a
 * throwaway cluster), one SIGKILL every ~8 s, at least 5. Exit code 1 when any check failed.
 */
const usage = 'Usage: npm run chaos -- --minutes N [--db pglite|postgres|both] [--scanners 20] [--seed 1]';

function fail(message: string): never {
  console.error(`${message}\n${usage}`);
  process.exit(2);
}

let values: ReturnType<typeof parse>;
function parse() {
  return parseArgs({
    options: {
      minutes: { type: 'string', default: '1' },
      db: { type: 'string', default: 'both' },
      scanners: { type: 'string', default: '20' },
      seed: { type: 'string', default: '1' },
    },
  }).values;
}
try {
  values = parse();
} catch (error) {
  fail((error as Error).message);
}
const minutes = Number(values.minutes);
const scanners = Number(values.scanners);
const seed = Number(values.seed);
if (!Number.isFinite(minutes) || minutes <= 0 || minutes > 24 * 60) fail('--minutes must be a number > 0.');
if (!Number.isInteger(scanners) || scanners < 1 || scanners > 200) fail('--scanners must be 1 to 200.');
if (!Number.isInteger(seed)) fail('--seed must be an integer.');
if (!['pglite', 'postgres', 'both'].includes(values.db ?? '')) fail('--db must be pglite, postgres or both.');

const durationMs = minutes * 60_000;
const kills = Math.max(5, Math.floor(durationMs / 8000));
const reports: ChaosReport[] = [];
const log = (line: string) => console.log(line);

if (values.db !== 'postgres') {
  reports.push(await runChaos({ database: 'pglite', instances: 1, durationMs, scanners, kills, seed, log }));
}
if (values.db !== 'pglite') {
  if (!findPgBin()) fail('PostgreSQL server binaries not found (Debian: apt-get install postgresql).');
  const cluster = await startPgCluster();
  try {
    const databaseUrl = await emptyPostgresDatabase(cluster.adminUrl, 'chaos');
    reports.push(
      await runChaos({
        database: 'postgres',
        databaseUrl,
        instances: 2,
        durationMs,
        scanners,
        kills,
        seed,
        log,
      }),
    );
  } finally {
    await cluster.stop();
  }
}

const violations = reports.reduce((sum, r) => sum + r.violations.length, 0);
console.log(violations === 0 ? '\nNo violations.' : `\n${violations} violations.`);
process.exit(violations === 0 ? 0 : 1);
