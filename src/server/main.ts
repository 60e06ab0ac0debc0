import pino from 'pino';
import { buildApp } from './app.ts';
import { serveBackups } from './backup-socket.ts';
import { ensureWebBuilt } from './build-web.ts';
import { ConfigError, loadConfig } from './config.ts';
import { type DatabaseHandle, DataDirInUseError } from './db/connect.ts';
import { PgliteMaintenance } from './db/maintenance.ts';
import { openDatabase } from './db/open.ts';
import { housekeeping } from './housekeeping.ts';
import { BACK_OFFICE_PAUSE_SHARE_POSTGRES } from './http/admission.ts';
import { backgroundStep, floorQuiet, giveWayToCalls } from './http/background-step.ts';
import { localChangeFeed, postgresChangeFeed } from './live/changes.ts';
import { logStreamFor } from './log.ts';
import { isEmptyDatabase, seedDemo } from './seed/demo.ts';

/** `npm start`: configuration → web build if needed → database + migrations → demo seed if empty → listen. */
async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`${error.message}\nSee docs/configuration.md.`);
      process.exit(1);
    }
    throw error;
  }
  const logStream = logStreamFor();
  const log = pino({ level: config.logLevel }, logStream);

  await ensureWebBuilt(config.webDir, (message) => log.info(message));

  let handle: DatabaseHandle;
  try {
    handle = await openDatabase(config);
  } catch (error) {
    const reason =
      error instanceof DataDirInUseError ? error.message : `Cannot open the database: ${String(error)}`;
    log.fatal(reason);
    process.exit(1);
  }
  log.info(`Database: ${handle.describe}`);
  try {
    await handle.connectAll();
  } catch (error) {
    log.fatal(
      `Cannot open ${config.databasePoolSize} connections to the database (DATABASE_POOL_SIZE): ${String(error)}. ` +
        "Lower DATABASE_POOL_SIZE, or raise PostgreSQL's max_connections (every instance holds its pool open).",
    );
    await handle.close();
    process.exit(1);
  }

  if (config.seedDemo && (await isEmptyDatabase(handle.db))) {
    const seeded = await seedDemo(handle.db);
    log.info(
      `Empty database: seeded the demo warehouse (${seeded.articles} articles, ${seeded.locations} locations).`,
    );
  }

  // Live views hear every instance's writes through PostgreSQL; the embedded database has one process.
  const changes =
    handle.kind === 'postgres' && config.databaseUrl
      ? postgresChangeFeed(config.databaseUrl, {
          warn: (object, message) => log.warn(object, message),
          info: (object, message) => log.info(object, message),
        })
      : localChangeFeed();
  const app = await buildApp({
    db: handle.db,
    config,
    logStream,
    databaseStats: handle.stats,
    changes,
    admission: {
      concurrency: handle.concurrency,
      backOfficePauseShare: handle.kind === 'postgres' ? BACK_OFFICE_PAUSE_SHARE_POSTGRES : 0,
    },
    exclusiveDatabase: handle.kind === 'pglite',
  });
  log.info(
    `Admission: ${handle.concurrency} API requests at once, the rest wait in line up to ${config.overloadMaxWaitMs} ms ` +
      '(OVERLOAD_MAX_WAIT_MS), past that 503 with Retry-After',
  );
  // The server's own work, each step one unit in the admission gate: handhelds wait for one step at most.
  const runUnit = backgroundStep(app.admission);
  // The embedded database has no autovacuum: vacuum and analyse what changed every minute, in short steps
  // (the first round a minute after the start, which it would slow); the online backup's socket for
  // `npm run backup` (decision 29).
  const upkeep =
    handle.kind === 'pglite'
      ? new PgliteMaintenance({
          db: handle.db,
          runUnit,
          floorQuiet: floorQuiet(app),
          warn: (fields, message) => app.log.warn(fields, message),
          debug: (fields, message) => app.log.debug(fields, message),
        })
      : null;
  upkeep?.start();
  const backups =
    handle.kind === 'pglite'
      ? await serveBackups({
          dataDir: config.dataDir,
          db: handle.db,
          runUnit,
          giveWay: giveWayToCalls(app.admission),
          heavy: app.heavy,
          log: app.log,
        })
      : null;
  // Purges ended logins, old idempotency keys and spent attempt counters: now, then every hour, each time
  // followed by a maintenance round for the space they held (not at start: a restart stays quick).
  const tidy = (thenMaintain: boolean) => {
    void runUnit(() => housekeeping(handle.db, config))
      .then(() => (thenMaintain ? upkeep?.round() : undefined))
      .catch((error) => app.log.warn({ err: error }, 'housekeeping failed'));
  };
  tidy(false);
  const maintenance = setInterval(() => tidy(true), 60 * 60 * 1000);
  maintenance.unref();

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info(`${signal}: shutting down`);
    clearInterval(maintenance);
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    try {
      await backups?.close();
      await upkeep?.stop();
      await app.close();
      await handle.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  try {
    await app.ready();
  } catch (error) {
    // A setting that contradicts the database (PRINTERS and the Leitstand's printers naming one printer).
    app.log.fatal(`Cannot start: ${(error as Error).message}`);
    await handle.close();
    process.exit(1);
  }
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    app.log.fatal(`Cannot listen on ${config.host}:${config.port}: ${(error as Error).message}`);
    await handle.close();
    process.exit(1);
  }
  const shown = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  const port = app.server.address();
  app.log.info(
    `Lagerscanner läuft: http://${shown}:${typeof port === 'object' && port ? port.port : config.port}`,
  );
}

await main();
