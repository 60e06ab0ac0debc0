import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { ensureWebBuilt } from '../../src/server/build-web.ts';
import { type DatabaseHandle, openPglite, openPostgres } from '../../src/server/db/connect.ts';
import { migrateToLatest } from '../../src/server/db/migrate.ts';
import { isEmptyDatabase, seedDemo } from '../../src/server/seed/demo.ts';
import { seededRandom } from '../../src/server/seed/random.ts';
import { freePort } from '../support/pg-cluster.ts';
import { type ServerProcess, startServerProcess } from '../support/server-process.ts';
import { auditBooks, takeSnapshot } from './audit.ts';
import { type FaultProxy, startFaultProxy } from './fault-proxy.ts';
import { createScanner, type World } from './scanner.ts';

/**
 * The conservation run ("bank test" for stock): simulated scanners book through a fault proxy while the
 * server instances are SIGKILLed and restarted; then the faults stop, every open action is sent again with
 * its key, the servers are killed a last time and the books are audited straight from the database.
 */
export interface ChaosOptions {
  database: 'pglite' | 'postgres';
  /** PostgreSQL: an empty database for this run. */
  databaseUrl?: string;
  /** Server instances sharing the database (PGlite: always 1). */
  instances: number;
  durationMs: number;
  scanners: number;
  /** At least this many SIGKILLs, spread over the run and alternating between instances. */
  kills: number;
  seed: number;
  log: (line: string) => void;
}

export interface ChaosReport {
  label: string;
  seconds: number;
  actions: { sent: number; acked: number; refused: number; answeredAfterFaults: number; resends: number };
  requests: number;
  lookups: number;
  faults: FaultProxy['counts'];
  kills: number;
  violations: string[];
  audit: {
    journalRowsOfRun: number;
    articlesChecked: number;
    keysChecked: number;
  };
}

const root = path.resolve(import.meta.dirname, '../..');
const CLIENT_BUDGET_MS = 5000;

async function openForAudit(options: ChaosOptions, dataDir: string): Promise<DatabaseHandle> {
  if (options.database === 'postgres') {
    if (!options.databaseUrl) throw new Error('chaos on PostgreSQL needs databaseUrl');
    return openPostgres(options.databaseUrl, 2);
  }
  return openPglite({ dataDir });
}

/** The part of the demo warehouse the scanners work in: small enough that they collide often. */
async function chooseWorld(handle: DatabaseHandle): Promise<World> {
  const { rows: shelves } = await sql<{ code: string }>`
    select code from locations where not is_lhm order by id limit 30`.execute(handle.db);
  const { rows: lhms } = await sql<{ code: string }>`
    select code from locations where is_lhm order by id limit 5`.execute(handle.db);
  const { rows: stock } = await sql<{ location: string; article: string }>`
    select l.code as location, a.nummer as article from stock s
    join locations l on l.id = s.location_id join articles a on a.id = s.article_id
    where l.code = any(${[...shelves, ...lhms].map((r) => r.code)}) group by l.code, a.nummer`.execute(
    handle.db,
  );
  if (stock.length === 0) throw new Error('the demo warehouse has no stock on its first locations');
  return {
    locations: [
      ...shelves.map((r) => ({ code: r.code, lhm: false })),
      ...lhms.map((r) => ({ code: r.code, lhm: true })),
    ],
    articles: [...new Set(stock.map((r) => r.article))],
    stock,
  };
}

export async function runChaos(options: ChaosOptions): Promise<ChaosReport> {
  const instances = options.database === 'pglite' ? 1 : Math.max(1, options.instances);
  const label = `${options.database === 'pglite' ? 'PGlite' : 'PostgreSQL'}, ${instances} server instance${instances > 1 ? 's' : ''}`;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'lagerscanner-chaos-'));
  const dataDir = path.join(work, 'data');
  const random = seededRandom(options.seed);
  const servers: (ServerProcess | null)[] = [];
  let proxy: FaultProxy | null = null;
  try {
    await ensureWebBuilt(path.join(root, 'dist/web'), options.log);

    // The warehouse before the run, read straight from the database.
    const setup = await openForAudit(options, dataDir);
    let before: Awaited<ReturnType<typeof takeSnapshot>>;
    let world: World;
    try {
      await migrateToLatest(setup.db);
      if (await isEmptyDatabase(setup.db)) await seedDemo(setup.db);
      before = await takeSnapshot(setup.db);
      world = await chooseWorld(setup);
    } finally {
      await setup.close();
    }

    const env: Record<string, string> =
      options.database === 'postgres'
        ? { DATABASE_URL: options.databaseUrl ?? '', DATABASE_POOL_SIZE: '8' }
        : { DATA_DIR: dataDir };
    const ports = await Promise.all(Array.from({ length: instances }, () => freePort()));
    for (const port of ports) servers.push(await startServerProcess(env, { port }));

    proxy = await startFaultProxy({
      rates: { reset: 0.03, cut: 0.04, drop: 0.05, delay: 0.01 },
      delayMs: CLIENT_BUDGET_MS + 500,
      random: random.next,
    });
    proxy.setUpstreams(ports);

    const scanners = Array.from({ length: options.scanners }, (_, id) =>
      createScanner({
        id,
        baseUrl: proxy?.url ?? '',
        world,
        random: seededRandom(options.seed * 1000 + id).next,
        credentials: { username: 'demo', password: 'demo' },
      }),
    );

    const started = Date.now();
    let running = true;
    const loops = scanners.map((s) => s.run(() => running));

    // The kills (SIGKILL: a crashed server, not a power cut — the page cache survives it): evenly spread,
    // alternating between the instances, each restarted on its port.
    let kills = 0;
    const interval = options.durationMs / (options.kills + 1);
    for (let i = 0; i < options.kills; i++) {
      const wait = started + (i + 1) * interval - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const which = i % instances;
      const victim = servers[which];
      if (!victim) continue;
      await victim.killHard();
      kills++;
      servers[which] = null;
      options.log(
        `  ${((Date.now() - started) / 1000).toFixed(1)} s: SIGKILL instance ${which + 1}, restarting`,
      );
      servers[which] = await startServerProcess(env, { port: victim.port });
    }
    const rest = started + options.durationMs - Date.now();
    if (rest > 0) await new Promise((resolve) => setTimeout(resolve, rest));
    running = false;
    await Promise.all(loops);

    // The faults end; whatever is still without an answer is sent again with its key.
    const openBefore = scanners.flatMap((s) => s.actions).filter((a) => a.outcome === 'open').length;
    proxy.setFaults(false);
    const settleDeadline = Date.now() + 60_000;
    await Promise.all(scanners.map((s) => s.settle(settleDeadline)));
    const seconds = (Date.now() - started) / 1000;

    for (const server of servers) await server?.killHard();
    servers.length = 0;

    const actions = scanners.flatMap((s) => s.actions);
    const audited = await openForAudit(options, dataDir);
    let audit: Awaited<ReturnType<typeof auditBooks>>;
    try {
      audit = await auditBooks(audited.db, before, actions);
    } finally {
      await audited.close();
    }
    const anomalies = scanners.flatMap((s) => s.stats.anomalies);
    const report: ChaosReport = {
      label,
      seconds,
      actions: {
        sent: actions.length,
        acked: actions.filter((a) => a.outcome === 'acked').length,
        refused: actions.filter((a) => a.outcome === 'refused').length,
        answeredAfterFaults: openBefore,
        resends: actions.reduce((sum, a) => sum + a.sends, 0) - actions.length,
      },
      requests: Object.values(proxy.counts).reduce((sum, n) => sum + n, 0),
      lookups: scanners.reduce((sum, s) => sum + s.stats.lookups, 0),
      faults: { ...proxy.counts },
      kills,
      violations: [...anomalies, ...audit.violations],
      audit: audit.figures,
    };
    printReport(report, options);
    return report;
  } finally {
    for (const server of servers) await server?.killHard();
    await proxy?.close();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

function printReport(report: ChaosReport, options: ChaosOptions): void {
  const { actions, faults } = report;
  const lines = [
    `Chaos run on ${report.label}: ${report.seconds.toFixed(0)} s, ${options.scanners} scanners`,
    `  bookings sent ${actions.sent}: acknowledged ${actions.acked}, refused ${actions.refused}, ` +
      `answered only after the faults ${actions.answeredAfterFaults}; re-sent with the same key ${actions.resends} times`,
    `  requests through the proxy ${report.requests} (lookups ${report.lookups})`,
    `  faults injected: reset ${faults.reset}, cut in flight ${faults.cut}, answer dropped ${faults.drop}, ` +
      `answer delayed past 5 s ${faults.delay}; lost to a killed server ${faults.upstreamLost}`,
    `  server SIGKILLs ${report.kills} (each restarted)`,
    `  audit: ${report.audit.journalRowsOfRun} journal rows of the run, ${report.audit.articlesChecked} articles, ` +
      `${report.audit.keysChecked} keys — violations: ${report.violations.length}`,
    ...report.violations.slice(0, 20).map((v) => `    ✗ ${v}`),
  ];
  for (const line of lines) options.log(line);
}
