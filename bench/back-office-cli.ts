import { loadConfig } from '../src/server/config.ts';
import { openPglite, openPostgres } from '../src/server/db/connect.ts';
import { migrateToLatest } from '../src/server/db/migrate.ts';
import { startServerProcess } from '../test/support/server-process.ts';
import {
  BACK_OFFICE_NAME,
  backOfficeOperations,
  backOfficeRows,
  backupOperation,
  floorUnderBackOffice,
} from './back-office.ts';
import { umbuchungMix } from './capacity.ts';
import { rssMb } from './measure.ts';
import { readLargeIds, workloads } from './workloads.ts';

/**
 * The floor under back-office work against a warehouse seeded before (`npm run seed:large`), on its own:
 *   DATA_DIR=/tmp/large tsx bench/back-office-cli.ts [--only <part of an operation's name>[,<another>…]] [--live 60]
 *   DATABASE_URL=postgres://… tsx bench/back-office-cli.ts
 * `npm run bench` runs the same on the warehouse it seeds (its table: "floor under back-office work").
 */
const args = process.argv.slice(2);
const flag = (name: string) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const only = flag('--only')?.split(',');
const liveSeconds = Number(flag('--live') ?? 60);
const config = loadConfig();
const handle = config.databaseUrl
  ? await openPostgres(config.databaseUrl, 2)
  : await openPglite({ dataDir: config.dataDir });
await migrateToLatest(handle.db);
const ids = await readLargeIds(handle.db);
await handle.close();

const env: Record<string, string> = config.databaseUrl
  ? { DATABASE_URL: config.databaseUrl }
  : { DATA_DIR: config.dataDir };
const server = await startServerProcess({
  ...env,
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  SEED_DEMO: 'false',
});
try {
  const login = async (username: string) => {
    const answer = await fetch(`${server.base}/api/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password: username }),
    });
    if (!answer.ok) throw new Error(`login ${username}: ${answer.status}`);
    return ((await answer.json()) as { token: string }).token;
  };
  const demo = await fetch(`${server.base}/api/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'demo', password: 'demo' }),
  });
  const floorToken = ((await demo.json()) as { token: string }).token;
  const operations = backOfficeOperations({ scale: 1, liveSeconds, backup: backupOperation(env) }).filter(
    (op) => only === undefined || only.some((part) => op.name.includes(part)),
  );
  console.log(`${BACK_OFFICE_NAME}: ${operations.map((op) => op.name).join('; ')}`);
  const result = await floorUnderBackOffice({
    ctx: { base: server.base, leadToken: await login('leitung'), adminToken: await login('admin'), scale: 1 },
    floorTokens: [floorToken],
    next: umbuchungMix(workloads(ids, 1, 'http')),
    operations,
    log: (line) => console.log(line),
    rss: () => rssMb(server.child.pid ?? 0),
    lead: { liveSeconds, backupEnv: env },
  });
  for (const row of backOfficeRows(result))
    console.log(`${row.pass ? 'PASS' : 'FAIL'}  ${row.what}\n      ${row.figure}\n      goal: ${row.goal}`);
  for (const op of result.operations)
    console.log(
      `slowest during ${op.name}: ${op.slowest.map((c) => `${c.ms.toFixed(0)} ms (${c.method}) at ${c.at.toFixed(1)} s`).join(', ')}`,
    );
} finally {
  // A clean stop (SIGTERM), so the embedded database closes its files.
  if (process.env.SHOW_SERVER_LOG) console.log(server.output());
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  await exited;
}
