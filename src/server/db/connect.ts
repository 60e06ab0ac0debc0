import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { PGliteDialect, worthNaming } from './pglite-dialect.ts';
import { DurableNodeFS, syncTree, type WalSync } from './pglite-durable-fs.ts';
import type { Database } from './schema.ts';

export type DatabaseKind = 'pglite' | 'postgres';
/** DURABILITY: whether the embedded database forces each commit to disk before its answer (decision 28). */
export type Durability = 'full' | 'off';

/**
 * The PostgreSQL extensions the schema uses, as PGlite loads them: every PGlite opened on this project's
 * data (the server, backups, test templates) passes these, or an index that needs one cannot be read.
 * PostgreSQL has them from its contrib package (Debian's postgresql-15 includes it).
 */
export const PGLITE_EXTENSIONS = { pg_trgm };

/** How busy the database connections are: PostgreSQL's pool, or PGlite's one session and its queue. */
export interface DatabaseStats {
  /** Connections open (PGlite: 1). */
  total: number;
  /** Open and not in use. */
  idle: number;
  /** Requests waiting for a connection (PGlite: for the session). */
  waiting: number;
}

export interface DatabaseHandle {
  db: Kysely<Database>;
  kind: DatabaseKind;
  /** Where the data lives, for the start-up log (no password). */
  describe: string;
  /** The connections' use now (GET /metrics). */
  stats(): DatabaseStats;
  /**
   * Opens every connection the server may use, before it takes calls (PostgreSQL; nothing to do on PGlite):
   * a server's first rush should not wait for new backends.
   */
  connectAll(): Promise<void>;
  /**
   * How many API requests may work on it at once: the admission gate's places (decision 26). PostgreSQL: the
   * pool's connections. PGlite: 1 — one session, and its work runs on this thread without yielding, so a
   * second request in work would only wait for the first (and halve the gate's estimate of the wait).
   */
  concurrency: number;
  /** The embedded database's WAL syncs (durability full): how many were asked for and grouped. */
  wal?: WalSync;
  close(): Promise<void>;
}

// Both drivers answer `date` as 'YYYY-MM-DD' (a calendar date has no time zone) and int8 as a number
// (our counts stay far below 2^53).
const DATE_OID = 1082;
const INT8_OID = 20;
pg.types.setTypeParser(DATE_OID, (value: string) => value);
pg.types.setTypeParser(INT8_OID, (value: string) => Number(value));
const pgliteParsers = { [DATE_OID]: (value: string) => value, [INT8_OID]: (value: string) => Number(value) };

/**
 * A pg client that sends the application's queries as named prepared statements: PostgreSQL parses and
 * plans each one once per connection instead of at every call (planning was half the cost of the session
 * check). Only short statements with few parameters — the hot, fixed queries; bulk inserts and long `in`
 * lists vary in shape and stay unnamed, so a connection never collects thousands of them.
 */
const statementNames = new Map<string, string>();
/** A statement's name, the hash of its text: remembered, as the same few hot statements come again and again. */
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `k${createHash('sha1').update(text).digest('base64url')}`;
    if (statementNames.size >= 1000) statementNames.clear();
    statementNames.set(text, name);
  }
  return name;
}
class PreparingClient extends pg.Client {
  // biome-ignore lint/suspicious/noExplicitAny: pg's overloads; we only change the (text, values) form
  override query(config: any, values?: any, callback?: any): any {
    if (typeof config === 'string' && Array.isArray(values) && worthNaming(config, values)) {
      return super.query({ name: statementName(config), text: config, values }, callback);
    }
    return super.query(config, values, callback);
  }
}

export async function openPostgres(url: string, poolSize: number): Promise<DatabaseHandle> {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    // A connection once opened stays open (pg's default closes one idle for 10 s): a rush after a quiet spell
    // met new backends otherwise — opened, catalog caches cold, every statement prepared again — while scans
    // queued behind them. Bench, a warm server after 15 s of 30 scanners, then 3,800 at once: p99 58 ms with
    // the idle ones closed, 9.5 ms with all kept. A fixed pool, opened at start (connectAll), as HikariCP
    // advises; `keepAlive`, so a firewall between server and database does not silently drop a connection
    // idle for hours.
    idleTimeoutMillis: 0,
    keepAlive: true,
    keepAliveInitialDelayMillis: 60_000,
    application_name: 'lagerscanner',
    connectionTimeoutMillis: 10_000,
    Client: PreparingClient,
  });
  // A dropped connection must never crash the process. Idle ones are reported on the pool; one that is
  // checked out (between two queries of a request) reports on the client itself. Either way the query on
  // it fails, the request is answered with an error, and the pool replaces the connection.
  pool.on('error', () => {});
  pool.on('connect', (client) => {
    client.on('error', () => {});
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  const parsed = new URL(url);
  return {
    db,
    kind: 'postgres',
    describe: `PostgreSQL ${parsed.hostname}:${parsed.port || 5432}${parsed.pathname}`,
    stats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    async connectAll() {
      const tries = await Promise.allSettled(Array.from({ length: poolSize }, () => pool.connect()));
      // Every one opened goes back, also when another failed: the pool then closes (a checked-out one would hold it).
      for (const t of tries) if (t.status === 'fulfilled') t.value.release();
      const failed = tries.find((t) => t.status === 'rejected');
      if (failed) throw failed.reason;
    },
    concurrency: poolSize,
    close: () => db.destroy(),
  };
}

const PGLITE_CONCURRENCY = 1;

/**
 * Embedded PGlite. `dataDir` null keeps it in memory (tests); `loadDataDir` starts from a dump (tests).
 * `durability` (DURABILITY, decision 28): 'full', the default, answers nothing before its commit is on
 * disk; 'off' runs as PGlite does out of the box, never forcing a file to disk.
 */
export async function openPglite(options: {
  dataDir: string | null;
  loadDataDir?: Blob;
  durability?: Durability;
  /** PGlite's WebAssembly, compiled once by a caller that opens many databases (the power-cut test). */
  wasmModule?: WebAssembly.Module;
}): Promise<DatabaseHandle> {
  let unlock = () => {};
  if (options.dataDir) {
    fs.mkdirSync(options.dataDir, { recursive: true });
    unlock = lockDataDir(options.dataDir);
  }
  try {
    const pgdata = options.dataDir ? path.join(options.dataDir, 'pgdata') : null;
    const durableFs = pgdata && options.durability !== 'off' ? new DurableNodeFS(pgdata) : null;
    const fresh = durableFs !== null && pgdata !== null && !fs.existsSync(path.join(pgdata, 'PG_VERSION'));
    const pglite = await PGlite.create({
      ...(durableFs ? { fs: durableFs } : pgdata ? { dataDir: pgdata } : {}),
      ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
      ...(options.wasmModule ? { pgliteWasmModule: options.wasmModule } : {}),
      // PGlite starts PostgreSQL with -F (fsync off); without it PostgreSQL asks for every sync it needs.
      // wal_sync_method: Emscripten's fdatasync (PostgreSQL's default on Linux) does nothing, its fsync
      // reaches our file layer. On the command line, not in postgresql.conf, which PGlite rewrites at every
      // start without a sync: durability must not hang on that file's state.
      ...(durableFs
        ? {
            startParams: [
              ...PGlite.defaultStartParams.filter((param) => param !== '-F'),
              '-c',
              'wal_sync_method=fsync',
            ],
          }
        : {}),
      parsers: pgliteParsers,
      extensions: PGLITE_EXTENSIONS,
      // PostgreSQL's default 128 MB buffer pool lives inside this process with PGlite (WebAssembly memory,
      // never given back). The data files are read through the OS page cache anyway: 32 MB measured
      // ≈ 100 MB less RSS and the same lookup speed on a 300,000-row table.
      postgresqlconf: ['shared_buffers = 32MB'],
    });
    if (fresh && options.dataDir) {
      syncTree(pgdata, [options.dataDir, path.dirname(path.resolve(options.dataDir))]);
    }
    const dialect = new PGliteDialect(pglite, durableFs ? () => durableFs.wal.whenDurable() : undefined);
    const db = new Kysely<Database>({ dialect });
    return {
      db,
      kind: 'pglite',
      describe: options.dataDir
        ? `PGlite in ${options.dataDir}${durableFs ? '' : ' (DURABILITY=off: commits are not forced to disk)'}`
        : 'PGlite in memory',
      stats: () => {
        const { held, waiting } = dialect.sessionUse();
        return { total: 1, idle: held ? 0 : 1, waiting };
      },
      connectAll: async () => {}, // one session, open since PGlite.create
      concurrency: PGLITE_CONCURRENCY,
      ...(durableFs ? { wal: durableFs.wal } : {}),
      close: async () => {
        try {
          await db.destroy();
        } finally {
          unlock();
        }
      },
    };
  } catch (error) {
    unlock();
    throw error;
  }
}

export class DataDirInUseError extends Error {}

/**
 * PGlite is one process's database: a second server on the same directory would corrupt it. A lock file
 * with our pid keeps a second one out; a stale lock of a dead process is taken over. Answers the unlock.
 */
export function lockDataDir(dataDir: string): () => void {
  const lockPath = path.join(dataDir, 'lagerscanner.pid');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockPath, String(process.pid), { flag: 'wx' });
      return () => fs.rmSync(lockPath, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number(fs.readFileSync(lockPath, 'utf8').trim());
      if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && isAlive(owner)) {
        throw new DataDirInUseError(
          `The data directory ${dataDir} is in use by another Lagerscanner process (pid ${owner}). ` +
            'Stop it first, or use DATABASE_URL with PostgreSQL to run several server instances.',
        );
      }
      fs.rmSync(lockPath, { force: true });
    }
  }
  throw new Error(`Could not lock the data directory ${dataDir}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
