import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

/**
 * A throwaway PostgreSQL cluster for tests: a temp directory, a free loopback port, trust auth, no fsync.
 * As root the server binaries run as the `postgres` user (initdb refuses root).
 */
export interface PgCluster {
  adminUrl: string;
  /** The same server through its Unix socket (no TCP on the way): for a server on the database's machine. */
  viaSocket(url: string): string;
  /** The postmaster's process id (its backends are its children): the bench reads their CPU time. */
  pid(): number;
  stop(): Promise<void>;
}

export function findPgBin(): string | null {
  const candidates: string[] = [];
  const base = '/usr/lib/postgresql';
  if (fs.existsSync(base)) {
    const versions = fs
      .readdirSync(base)
      .filter((v) => /^\d+$/.test(v) && Number(v) >= 15)
      .sort((a, b) => Number(b) - Number(a));
    // Prefer 15: the oldest version we support is the one the tests must prove.
    if (versions.includes('15')) candidates.push(path.join(base, '15', 'bin'));
    for (const v of versions) candidates.push(path.join(base, v, 'bin'));
  }
  try {
    candidates.push(
      execFileSync('pg_config', ['--bindir'], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }).trim(),
    );
  } catch {
    // no pg_config on PATH
  }
  return (
    candidates.find(
      (dir) => fs.existsSync(path.join(dir, 'initdb')) && fs.existsSync(path.join(dir, 'pg_ctl')),
    ) ?? null
  );
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no free port')),
      );
    });
  });
}

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

function run(bin: string, args: string[]): void {
  const [command, fullArgs] = isRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
  const result = spawnSync(command, fullArgs, { encoding: 'utf8', timeout: 60_000 });
  if (result.status !== 0) {
    throw new Error(
      `${path.basename(bin)} failed (${result.status}): ${result.stderr || result.stdout || result.error}`,
    );
  }
}

/**
 * `durable`: keep PostgreSQL's crash safety (fsync, synchronous commit), as a benchmark that claims
 * durable bookings must; tests turn it off for speed.
 */
export async function startPgCluster(options: { durable?: boolean } = {}): Promise<PgCluster> {
  const bin = findPgBin();
  if (!bin) throw new Error('PostgreSQL server binaries not found (Debian: apt-get install postgresql)');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lagerscanner-pg-'));
  fs.chmodSync(dir, 0o755);
  if (isRoot) execFileSync('chown', ['-R', 'postgres:postgres', dir]);
  const dataDir = path.join(dir, 'data');
  const port = await freePort();
  run(path.join(bin, 'initdb'), [
    '-D',
    dataDir,
    '-U',
    'postgres',
    '--auth=trust',
    '-E',
    'UTF8',
    '--locale=C.UTF-8',
    '-N',
  ]);
  const safety = options.durable ? '' : ' -c fsync=off -c synchronous_commit=off -c full_page_writes=off';
  const serverOptions = `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c max_connections=200${safety}`;
  run(path.join(bin, 'pg_ctl'), [
    '-D',
    dataDir,
    '-l',
    path.join(dir, 'log'),
    '-w',
    '-t',
    '60',
    '-o',
    serverOptions,
    'start',
  ]);

  let stopped = false;
  const stopSync = () => {
    if (stopped) return;
    stopped = true;
    try {
      run(path.join(bin, 'pg_ctl'), ['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
    } catch {
      // already gone
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  // A test run that dies must not leave a server behind.
  process.once('exit', stopSync);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      stopSync();
      process.exit(130);
    });
  }
  return {
    adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
    viaSocket: (url) => {
      const parsed = new URL(url);
      return `postgres://postgres@localhost${parsed.pathname}?host=${encodeURIComponent(dir)}&port=${port}`;
    },
    pid: () => Number(fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]),
    stop: async () => stopSync(),
  };
}

/** An empty database (no schema) in the cluster, for a process under test to migrate itself; its URL. */
export async function emptyPostgresDatabase(adminUrl: string, prefix: string): Promise<string> {
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
