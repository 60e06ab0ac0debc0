import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { buildServer, serverCommand } from '../../src/server/build-server.ts';
import { freePort } from './pg-cluster.ts';

/**
 * The real server as a child process on a free loopback port, as `npm start` runs it (the bundle of
 * src/server/main.ts, built once per test process); `killHard` is a crash (SIGKILL: no shutdown, no flush;
 * not a power cut — what was written stays in the operating system's page cache).
 */
const root = path.resolve(import.meta.dirname, '../..');

let built: Promise<void> | null = null;

export interface ServerProcess {
  base: string;
  port: number;
  child: ChildProcess;
  /** What the server wrote (log lines and errors), the last 64 KB. */
  output: () => string;
  killHard(): Promise<void>;
}

export async function startServerProcess(
  env: Record<string, string>,
  options: { port?: number; readyWithinMs?: number } = {},
): Promise<ServerProcess> {
  const port = options.port ?? (await freePort());
  built ??= buildServer();
  await built;
  const { command, args, env: serverEnv } = serverCommand();
  const child = spawn(command, args, {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      ...passedOn(),
      ...serverEnv,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-65_536);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  const server: ServerProcess = {
    base: `http://127.0.0.1:${port}`,
    port,
    child,
    output: () => output,
    async killHard() {
      child.kill('SIGKILL');
      await exited;
    },
  };
  const deadline = Date.now() + (options.readyWithinMs ?? 120_000);
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}): ${output}`);
    try {
      if ((await fetch(`${server.base}/readyz`)).ok) return server;
    } catch {
      // still starting
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await server.killHard();
  throw new Error(`server not ready within ${options.readyWithinMs ?? 120_000} ms: ${output}`);
}

/**
 * What a server or CLI started by a test takes from the test's environment besides PATH and HOME: the
 * workers' priority the test run sets (vitest.config.ts: test files beside each other would starve a worker
 * at the lowest). Unset (the bench), they run as a site's do.
 */
export function passedOn(): Record<string, string> {
  const nice = process.env.BACK_OFFICE_NICE;
  return nice === undefined ? {} : { BACK_OFFICE_NICE: nice };
}
