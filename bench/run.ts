import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { createIntegrationToken } from '../src/server/auth/integration-tokens.ts';
import { ensureWebBuilt } from '../src/server/build-web.ts';
import { type DatabaseHandle, type Durability, openPglite, openPostgres } from '../src/server/db/connect.ts';
import { migrateToLatest } from '../src/server/db/migrate.ts';
import { seedDemo } from '../src/server/seed/demo.ts';
import { largeSizes, seedLarge } from '../src/server/seed/large.ts';
import {
  emptyPostgresDatabase,
  findPgBin,
  type PgCluster,
  startPgCluster,
} from '../test/support/pg-cluster.ts';
import { startServerProcess } from '../test/support/server-process.ts';
import {
  BACK_OFFICE_NAME,
  backOfficeOperations,
  backOfficeRows,
  backupOperation,
  floorUnderBackOffice,
  QUIET_SECONDS,
} from './back-office.ts';
import {
  CAPACITY_NAME,
  type CapacityReport,
  capacityRows,
  checkBookedOnce,
  fullPlan,
  measureCapacity,
  quickPlan,
  umbuchungMix,
} from './capacity.ts';
import { CART_FILL_NAME, cartFillRows, measureCartFill, prepareCartFill } from './cart-fill.ts';
import { writeChart } from './chart.ts';
import { type CoresUsed, describeCores, measureCores, withChildren } from './cpu.ts';
import { addJournalBookings, journalPlan, journalWorkloads } from './journal.ts';
import { type Figures, httpFloor, loadDirect, loadHttp, rssMb } from './measure.ts';
import { addBenchNote, measureScanLatency } from './scan-latency.ts';
import { measureWebSizes } from './web.ts';
import { readLargeIds, type Workload, workloads } from './workloads.ts';

/**
 * `npm run bench`: the large warehouse on PGlite and on PostgreSQL (a durable throwaway cluster), every
 * benchmarked call under load over HTTP and straight on the database, the HTTP floor, the server's memory
 * and the web app's download sizes. Prints one markdown table and writes it to bench/results/latest.md.
 *
 *   npm run bench                         full run (≈ 15 min on 2 cores)
 *   npm run bench -- --quick              1 % data, 2 s per load: a smoke run (CI)
 *   npm run bench -- --db postgres        one database only
 *   npm run bench -- --only journal       only the workloads whose name holds the text (no Chromium, no
 *                                         bundle sizes; results/only.md); --only scan: only Chromium's
 *                                         scan-to-feedback; --only capacity: the open-loop capacity search
 *                                         and the overload run (capacity.ts); --only back-office: the
 *                                         floor under back-office work (back-office.ts)
 *   npm run bench -- --scans 200 --profile  scans per field in Chromium; a Chromium trace of them
 *   npm run bench -- --durability off     PGlite as DURABILITY=off runs it (commits not forced to disk):
 *                                         the cost of durable commits, beside a run without it (decision 28)
 */
const usage =
  'Usage: npm run bench [-- --quick] [--db pglite|postgres|both] [--seconds 10] [--connections 64] [--pool 10] [--only <text>] [--scans 200] [--profile] [--durability full|off]';
let args: {
  quick?: boolean;
  db?: string;
  seconds?: string;
  connections?: string;
  pool?: string;
  only?: string;
  scans?: string;
  profile?: boolean;
  durability?: string;
};
try {
  args = parseArgs({
    options: {
      quick: { type: 'boolean', default: false },
      db: { type: 'string', default: 'both' },
      seconds: { type: 'string' },
      connections: { type: 'string', default: '64' },
      pool: { type: 'string', default: '10' },
      only: { type: 'string' },
      scans: { type: 'string' },
      profile: { type: 'boolean', default: false },
      durability: { type: 'string', default: 'full' },
    },
  }).values;
} catch (error) {
  console.error(`${(error as Error).message}\n${usage}`);
  process.exit(2);
}
const quick = args.quick === true;
const scale = quick ? 0.01 : 1;
const seconds = Number(args.seconds ?? (quick ? 2 : 10));
const connections = Number(args.connections);
/** PostgreSQL connections per server (DATABASE_POOL_SIZE, default 10) and for the database floor. */
const pool = Number(args.pool);
/** Only the workloads whose name holds this text; null: the whole run. */
const only = args.only ?? null;
/** Chromium's scan-to-feedback runs as the workload of this name. */
const scanTiming = only === null || 'scan-to-feedback'.includes(only);
const scans = Number(args.scans ?? (quick ? 20 : 200));
/** The embedded database's DURABILITY, for the database floor and the server alike. */
const durability = args.durability as Durability;
if (
  !['pglite', 'postgres', 'both'].includes(args.db ?? '') ||
  !['full', 'off'].includes(durability) ||
  !(seconds > 0) ||
  !(connections > 0) ||
  !(pool >= 1) ||
  !(Number.isInteger(scans) && scans >= 1)
) {
  console.error(usage);
  process.exit(2);
}
const kinds = (args.db === 'both' ? ['pglite', 'postgres'] : [args.db]) as ('pglite' | 'postgres')[];
const root = path.resolve(import.meta.dirname, '..');
const log = (line: string) => console.error(line);
/** The open-loop capacity search and overload run (capacity.ts), selected by --only like a workload. */
const capacitySelected = only === null || CAPACITY_NAME.includes(only);
/** The floor under back-office work (back-office.ts), selected by --only likewise. */
const backOfficeSelected = only === null || BACK_OFFICE_NAME.includes(only);
/** A pick cart filled from a wave (cart-fill.ts), selected by --only likewise. */
const cartFillSelected = only === null || CART_FILL_NAME.includes(only);
const REBOOKING = 'POST umbuchung/artikel/';
const machine =
  `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'unknown CPU'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ` +
  `Node.js ${process.version}`;
/** Scanners one server carries, by database (the capacity row), for the table's summary line. */
const carried: string[] = [];

interface Row {
  what: string;
  db: string;
  figure: string;
  goal: string;
  pass: boolean | null;
}
const rows: Row[] = [];
const ms = (x: number) => x.toFixed(x < 10 ? 1 : 0);
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const LOOKUP_P99_MS = 10;
/** PostgreSQL lookups over HTTP against the same calls straight on the database (issue 23, goal 4). */
const FLOOR_SHARE = 0.75;
const REBOOKING_RPS = 1000;
const REBOOKING_P99_MS = 50;
const RSS_MB = 200;
const INITIAL_KB = 100;
const CHUNK_KB = 20;
const SEED_PG_S = 180;
const SCAN_MEDIAN_MS = 50;
/** The handheld's own share of a scan: median scan-to-feedback − median API call. */
const SCAN_CLIENT_MS = 25;
/** The Leitstand's journal: a few shift leads at once, each page within this on 2 M rows (PostgreSQL). */
const JOURNAL_CONNECTIONS = 4;
const JOURNAL_P99_MS = 50;
/** Each journal workload runs at most this long (13 filters × floor and HTTP: the full run's budget is 20 min). */
const JOURNAL_SECONDS = 5;
const JOURNAL_ROWS = 2_000_000;

function describeFigures(f: Figures): string {
  const errors = f.errors > 0 && f.errorKinds ? `${f.errors} errors (${f.errorKinds})` : `${f.errors} errors`;
  return `${Math.round(f.rps).toLocaleString('en')} req/s, p50 ${ms(f.p50)} ms, p99 ${ms(f.p99)} ms, ${errors}`;
}

async function benchDatabase(kind: 'pglite' | 'postgres', httpBase: Figures): Promise<void> {
  const label =
    kind === 'pglite' ? (durability === 'off' ? 'PGlite (DURABILITY=off)' : 'PGlite') : 'PostgreSQL 15';
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'lagerscanner-bench-'));
  let cluster: PgCluster | null = null;
  try {
    let open: () => Promise<DatabaseHandle>;
    let env: Record<string, string>;
    if (kind === 'postgres') {
      if (!findPgBin()) throw new Error('PostgreSQL server binaries not found (apt-get install postgresql)');
      cluster = await startPgCluster({ durable: true });
      const url = await emptyPostgresDatabase(cluster.adminUrl, 'bench');
      open = () => openPostgres(url, pool);
      env = { DATABASE_URL: url, DATABASE_POOL_SIZE: String(pool) };
    } else {
      const dataDir = path.join(work, 'data');
      open = () => openPglite({ dataDir, durability });
      env = { DATA_DIR: dataDir, DURABILITY: durability };
    }

    // The warehouse.
    log(`${label}: seeding the ${quick ? '1 %' : 'full'} large warehouse …`);
    const seedStarted = performance.now();
    let handle = await open();
    await migrateToLatest(handle.db);
    await seedDemo(handle.db);
    await seedLarge(handle.db, { scale });
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    rows.push({
      what: 'seed:large (bulk, in the database)',
      db: label,
      figure: `${seedSeconds.toFixed(0)} s`,
      goal: kind === 'postgres' && !quick ? `< ${SEED_PG_S} s` : '—',
      pass: kind === 'postgres' && !quick ? seedSeconds < SEED_PG_S : null,
    });
    const ids = await readLargeIds(handle.db);
    await addBenchNote(handle.db, largeSizes(scale).articles);
    // One worker per connection, as on a real site (all bookings under one user would pile up on one row);
    // shift leads, so the same logins also read the Leitstand's journal.
    const users = await sql<{ id: number }>`
      insert into users (name, username, password_hash, role)
      select 'Bench ' || n, 'bench' || n, (select password_hash from users where username = 'demo'), 'schichtleitung'
      from generate_series(1, ${connections}) n returning id`.execute(handle.db);
    const userIds = users.rows.map((u) => u.id);
    const usernames = userIds.map((_, i) => `bench${i + 1}`);
    log(`${label}: the journal's recent bookings by the bench users …`);
    const journal = await addJournalBookings(handle.db, { scale, userIds, ids });
    const journalGoal = Math.round(JOURNAL_ROWS * scale);
    rows.push({
      what: "journal rows (movements) for the Leitstand's journal workloads",
      db: label,
      figure: `${journal.rows.toLocaleString('en')} rows (${journal.added.toLocaleString('en')} recent bookings by ${userIds.length} users added)`,
      goal: `≥ ${journalGoal.toLocaleString('en')}`,
      pass: journal.rows >= journalGoal,
    });
    const selected = (list: Workload[]) => list.filter((w) => only === null || w.name.includes(only));
    const floorLoads = selected([...workloads(ids, scale, 'floor'), ...journalWorkloads(scale, usernames)]);
    const loads = selected([...workloads(ids, scale, 'http'), ...journalWorkloads(scale, usernames)]);
    const plans = new Map<string, string>();
    for (const workload of floorLoads)
      if (workload.kind === 'journal') plans.set(workload.name, await journalPlan(handle.db, workload));
    /** A workload's callers: the journal's few, everyone else's all. */
    const callers = <T>(workload: Workload, all: T[]) =>
      workload.kind === 'journal' ? all.slice(0, JOURNAL_CONNECTIONS) : all;
    /** A journal page is one filter of thirteen at a few callers: half the time is enough for its figures. */
    const secondsOf = (workload: Workload) =>
      workload.kind === 'journal' ? Math.min(seconds, JOURNAL_SECONDS) : seconds;

    /** PostgreSQL's processes (the postmaster and its backends), whose CPU the table sets beside each load. */
    const database: Record<string, () => number[]> = cluster
      ? { database: () => withChildren((cluster as PgCluster).pid()) }
      : {};

    // The database floor: the same service calls, no HTTP.
    const floors = new Map<string, Figures>();
    const floorCores = new Map<string, CoresUsed>();
    for (const workload of floorLoads) {
      log(`${label}: database floor, ${workload.name} …`);
      const { result, used } = await measureCores(
        database,
        () =>
          loadDirect({
            db: handle.db,
            userIds: callers(workload, userIds),
            workload,
            seconds: secondsOf(workload),
          }),
        'caller',
      );
      floors.set(workload.name, result);
      floorCores.set(workload.name, used);
    }
    // The capacity is measured against the rebooking's floor: measured here if --only left it out.
    let rebookingFloor = [...floors].find(([name]) => name.startsWith(REBOOKING))?.[1];
    if (capacitySelected && !rebookingFloor) {
      const workload = workloads(ids, scale, 'floor').find((w) => w.name.startsWith(REBOOKING)) as Workload;
      log(`${label}: database floor, ${workload.name} (for the capacity) …`);
      rebookingFloor = await loadDirect({ db: handle.db, userIds, workload, seconds });
    }
    // The overload row reads the server's own count of what it turned away (GET /metrics).
    const metricsToken = capacitySelected ? await createIntegrationToken(handle.db, 'bench') : undefined;
    const waveSize = cartFillSelected ? await prepareCartFill(handle.db, scale) : 0;
    await handle.close();
    let capacity: CapacityReport | null = null;

    // The real server under load.
    const server = await startServerProcess({ ...env, LOG_LEVEL: 'warn' });
    try {
      const pid = server.child.pid ?? 0;
      const idle = await rssMb(pid);
      const tokens: string[] = [];
      for (let n = 1; n <= connections; n++) {
        const login = await fetch(`${server.base}/api/user/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: `bench${n}`, password: 'demo' }),
        });
        tokens.push(((await login.json()) as { token: string }).token);
      }
      for (const workload of loads) {
        log(`${label}: HTTP, ${workload.name} …`);
        const { result: figures, used } = await measureCores({ server: () => [pid], ...database }, () =>
          loadHttp({
            base: server.base,
            tokens: callers(workload, tokens),
            workload,
            seconds: secondsOf(workload),
          }),
        );
        // Where the cores went, for the calls a scanner makes (a journal page's few callers leave them idle).
        const cores =
          workload.kind === 'journal'
            ? ''
            : `; ${describeCores(used)} (floor: ${describeCores(floorCores.get(workload.name) as CoresUsed).replace('cores busy: ', '')})`;
        const floor = floors.get(workload.name) as Figures;
        const vsFloor = figures.rps / floor.rps;
        const vsHttp = figures.rps / httpBase.rps;
        let goal = '0 errors';
        let pass = figures.errors === 0 && floor.errors === 0;
        if (kind === 'postgres' && workload.kind === 'lookup') {
          goal = `p99 ≤ ${LOOKUP_P99_MS} ms, ≥ ${FLOOR_SHARE * 100} % of DB floor, 0 errors`;
          pass &&= figures.p99 <= LOOKUP_P99_MS && vsFloor >= FLOOR_SHARE;
        }
        if (kind === 'postgres' && workload.name.startsWith('POST umbuchung')) {
          goal = `≥ ${REBOOKING_RPS.toLocaleString('en')} req/s, p99 ≤ ${REBOOKING_P99_MS} ms, 0 errors`;
          pass &&= figures.rps >= REBOOKING_RPS && figures.p99 <= REBOOKING_P99_MS;
        }
        // A journal page on PostgreSQL; the search by a part of a name reads every article's name (no goal).
        if (kind === 'postgres' && workload.name.startsWith('GET leitstand/journal')) {
          goal = `p99 ≤ ${JOURNAL_P99_MS} ms, 0 errors`;
          pass &&= figures.p99 <= JOURNAL_P99_MS;
        }
        const plan = plans.get(workload.name);
        rows.push({
          what:
            workload.kind === 'journal'
              ? `${workload.name} (${JOURNAL_CONNECTIONS} connections)`
              : workload.name,
          db: label,
          figure:
            `${describeFigures(figures)}; DB floor ${describeFigures(floor)} → ${(vsFloor * 100).toFixed(0)} % of it, ` +
            `${(vsHttp * 100).toFixed(0)} % of the HTTP floor${plan ? `; ${plan}` : ''}${cores}`,
          goal,
          pass,
        });
      }
      const after = await rssMb(pid);
      rows.push({
        what: 'server memory (RSS) idle → after the load runs',
        db: label,
        figure: `${ms(idle)} MB → ${ms(after)} MB`,
        goal: `≤ ${RSS_MB} MB`,
        pass: after <= RSS_MB,
      });
      const latencies = !scanTiming
        ? []
        : await measureScanLatency({
            base: server.base,
            scans,
            articles: largeSizes(scale).articles,
            log,
            profile: args.profile ? path.join(root, 'bench', 'results', `trace-${kind}`) : null,
            webDir: path.join(root, 'dist/web'),
          });
      for (const l of latencies) {
        const phases = l.phases.map((p) => `${p.name} ${ms(p.median)}`).join(', ');
        rows.push({
          what: `web: scan-to-feedback, ${l.field} (Chromium 360×640, 4× CPU throttling, Enter → answer painted)`,
          db: label,
          figure:
            `median ${ms(l.median)} ms, p95 ${ms(l.p95)} ms (${l.scans} scans; the API call itself: median ${ms(l.apiMedian)} ms); ` +
            `client share ${ms(l.clientShare)} ms${phases ? ` (medians: ${phases} ms)` : ''}${args.profile ? '; traced' : ''}`,
          goal: `median ≤ ${SCAN_MEDIAN_MS} ms, client share ≤ ${SCAN_CLIENT_MS} ms`,
          pass: l.median <= SCAN_MEDIAN_MS && l.clientShare <= SCAN_CLIENT_MS,
        });
      }
      if (cartFillSelected) {
        log(`${label}: ${CART_FILL_NAME} …`);
        const result = await measureCartFill({
          base: server.base,
          token: tokens[0] as string,
          runs: quick ? 10 : 100,
        });
        for (const row of cartFillRows(result, waveSize)) rows.push({ ...row, db: label });
      }
      if (capacitySelected && rebookingFloor) {
        log(`${label}: ${CAPACITY_NAME} …`);
        capacity = await measureCapacity({
          base: server.base,
          tokens,
          workloads: workloads(ids, scale, 'http'),
          floorBookingsPerSecond: rebookingFloor.rps,
          plan: quick ? quickPlan : fullPlan,
          log,
          ...(metricsToken ? { metricsToken } : {}),
        });
        log(`${label}: capacity and overload took ${capacity.seconds.toFixed(0)} s`);
        for (const row of capacityRows(capacity)) rows.push({ ...row, db: label });
        const scanners = capacity.search.capacity?.scanners;
        carried.push(
          `${label}: ${scanners === undefined ? 'none' : `${capacity.search.atMax ? '≥ ' : ''}${scanners.toLocaleString('en')}`}`,
        );
      }
      if (backOfficeSelected) {
        log(`${label}: ${BACK_OFFICE_NAME} …`);
        const adminLogin = await fetch(`${server.base}/api/user/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: 'admin', password: 'admin' }),
        });
        const adminToken = ((await adminLogin.json()) as { token: string }).token;
        const result = await floorUnderBackOffice({
          ctx: { base: server.base, leadToken: tokens[0] as string, adminToken, scale },
          floorTokens: tokens,
          next: umbuchungMix(workloads(ids, scale, 'http')),
          operations: backOfficeOperations({
            scale,
            liveSeconds: quick ? 5 : 60,
            backup: backupOperation(env),
          }),
          quietSeconds: quick ? 6 : QUIET_SECONDS,
          log,
          rss: () => rssMb(pid),
          lead: { liveSeconds: quick ? 5 : 60, backupEnv: env },
        });
        for (const row of backOfficeRows(result)) rows.push({ ...row, db: label });
      }
    } finally {
      await server.killHard();
    }
    handle = await open(); // the books still balance after all that
    if (capacity?.overload)
      rows.push({
        ...(await checkBookedOnce(handle.db, capacity.overload.writes, capacity.overloadSince)),
        db: label,
      });
    const { rows: broken } = await sql<{ n: number }>`
      with j as (
        select to_location_id as l, article_id as a, amount from movements where to_location_id is not null
        union all select from_location_id, article_id, -amount from movements where from_location_id is not null),
      e as (select l, a, sum(amount) as amount from j group by 1, 2),
      s as (select location_id as l, article_id as a, sum(amount) as amount from stock group by 1, 2)
      select count(*)::int as n from e full join s using (l, a) where coalesce(e.amount, 0) <> coalesce(s.amount, 0)`.execute(
      handle.db,
    );
    await handle.close();
    rows.push({
      what: 'journal = stock after the runs',
      db: label,
      figure: `${broken[0]?.n ?? '?'} differences`,
      goal: '0',
      pass: broken[0]?.n === 0,
    });
  } finally {
    await cluster?.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

const started = Date.now();
log(`Machine: ${machine}`);
await ensureWebBuilt(path.join(root, 'dist/web'), log); // the servers below serve it to Chromium
log('HTTP floor (node:http, constant JSON) …');
const floor = await httpFloor(connections, seconds);
rows.push({
  what: 'HTTP floor: node:http, constant JSON',
  db: '—',
  figure: describeFigures(floor),
  goal: '—',
  pass: null,
});
for (const kind of kinds) await benchDatabase(kind, floor);

// The bundle sizes do not change with --only (a look at some workloads): left out then.
const web = only === null ? measureWebSizes(path.join(root, 'dist/web')) : null;
if (web) {
  rows.push({
    what: 'web: JS + CSS for the login screen and main menu (gzip)',
    db: '—',
    figure: kb(web.initialGzip),
    goal: `≤ ${INITIAL_KB} KB`,
    pass: web.initialGzip <= INITIAL_KB * 1024,
  });
  rows.push({
    what: 'web: loaded while the login is typed (auth contract + zod, gzip)',
    db: '—',
    figure: kb(web.atLoginGzip),
    goal: '—',
    pass: null,
  });
  const biggest = [...web.screens].sort((a, b) => b.withSharedGzip - a.withSharedGzip)[0];
  rows.push({
    what: `web: each screen's lazy chunk (gzip, with the shared chunks it adds), ${web.screens.length} screens`,
    db: '—',
    figure: `largest ${biggest?.name} ${kb(biggest?.ownGzip ?? 0)} (${kb(biggest?.withSharedGzip ?? 0)} with shared)`,
    goal: `≤ ${CHUNK_KB} KB each`,
    pass: web.screens.every((s) => s.withSharedGzip <= CHUNK_KB * 1024),
  });
  rows.push({
    what: 'web: camera scanning, loaded when a camera button is pressed (overlay, polyfill, .wasm; gzip)',
    db: '—',
    figure: kb(web.cameraGzip),
    goal: '—',
    pass: null,
  });
}

const header = [
  `# Benchmark ${quick ? '(quick: 1 % data, smoke only) ' : ''}${only !== null ? `(only "${only}") ` : ''}— ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`,
  '',
  `Machine: ${machine}. Load generators on the same machine: autocannon (${connections} connections, ` +
    `${seconds} s per call, the journal's pages ${Math.min(seconds, JOURNAL_SECONDS)} s) and, for capacity and overload, open-loop scanners (one scan every 3 s each); ` +
    `PostgreSQL pool ${pool} per server. Run took ${((Date.now() - started) / 60000).toFixed(1)} min.`,
  ...(carried.length > 0 ? ['', `Scanners one server carries: ${carried.join(', ')}.`] : []),
  '',
  '| what | database | figure | goal | result |',
  '|---|---|---|---|---|',
];
const table = rows.map(
  (r) =>
    `| ${r.what} | ${r.db} | ${r.figure} | ${r.goal} | ${r.pass === null ? '—' : r.pass ? 'PASS' : '**FAIL**'} |`,
);
const screens = [
  '',
  '| screen chunk | own (gzip) | with the shared chunks it adds |',
  '|---|---|---|',
  ...(web?.screens ?? []).map((s) => `| ${s.name} | ${kb(s.ownGzip)} | ${kb(s.withSharedGzip)} |`),
];
const markdown = `${[...header, ...table, ...(web ? screens : [])].join('\n')}\n`;
console.log(markdown);
const resultsDir = path.join(root, 'bench', 'results');
fs.mkdirSync(resultsDir, { recursive: true });
// latest.md is the last full run (docs/performance.md shows it); a run of one database or of some workloads is not.
const resultsName =
  only !== null ? 'only' : quick ? 'quick' : args.db !== 'both' ? (args.db as string) : 'latest';
const resultsFile = path.join(resultsDir, `${resultsName}.md`);
fs.writeFileSync(resultsFile, markdown);
log(`Chart: ${writeChart(resultsFile)}`);
const failed = rows.filter((r) => r.pass === false).length;
log(failed === 0 ? 'All goals met.' : `${failed} goal(s) missed.`);
