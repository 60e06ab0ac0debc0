import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import { SERVER_BUNDLE_OPTIONS, WORKER_SOURCES, type WorkerName } from './build-server.ts';

/**
 * The server's worker threads (build-server.ts names them: the import's reading, the label files'
 * drawing): work that would hold the thread that answers the handhelds for seconds runs beside it
 * (DESIGN §10).
 */
/**
 * Starts a worker as the server runs: the bundle's `<name>.mjs` beside main.mjs (build-server.ts), or — from
 * TypeScript (tests, the CLIs through tsx) — its source bundled the same way once per process. (A worker
 * does not inherit tsx's loader; registering it in each worker cost 0.8–2 s per import, which a one-line
 * import through the API then took.)
 */
export function startWorker(name: WorkerName, options: WorkerOptions): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL(`./${name}.mjs`, import.meta.url), options);
  let bundled = fromSource.get(name);
  if (!bundled) {
    bundled = bundleSource(name);
    fromSource.set(name, bundled);
  }
  return new Worker(bundled, options);
}

const fromSource = new Map<WorkerName, URL>();

/**
 * A worker's source as one ES module (≈ 0.2 s, once): in node_modules/.cache so that its packages resolve from
 * node_modules as the bundle's do, named by its content so that processes running side by side share it
 * and an old one is never started; written beside and renamed into place.
 */
function bundleSource(name: WorkerName): URL {
  const require = createRequire(import.meta.url);
  const esbuild = require('esbuild') as typeof import('esbuild');
  const projectRoot = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
  const result = esbuild.buildSync({
    ...SERVER_BUNDLE_OPTIONS,
    entryPoints: [path.join(projectRoot, WORKER_SOURCES[name])],
    sourcemap: 'inline',
    write: false,
    logLevel: 'warning',
  });
  const code = result.outputFiles[0]?.contents;
  if (!code) throw new Error(`${name}: esbuild wrote nothing`);
  const digest = createHash('sha256').update(code).digest('hex').slice(0, 16);
  const folder = path.join(path.dirname(require.resolve('esbuild/package.json')), '../.cache/lagerscanner');
  const file = path.join(folder, `${name}-${digest}.mjs`);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(folder, { recursive: true });
    const temporary = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, code);
    fs.renameSync(temporary, file);
  }
  return pathToFileURL(file);
}

/** A worker thread's nice value unless BACK_OFFICE_NICE says otherwise: the lowest priority. */
export const BACK_OFFICE_NICE_DEFAULT = 19;

/**
 * Called by a worker at its start: its thread runs at the CPU priority BACK_OFFICE_NICE (by default 19, the
 * lowest), so on a machine with fewer cores than busy threads the handhelds' thread and the database go first
 * and the worker takes what is left — the back office waits, not the scanner (DESIGN §10). (The server checks
 * BACK_OFFICE_NICE at start, config.ts; a worker inherits the environment.) Linux only (its threads have ids of
 * their own, /proc/thread-self); elsewhere the worker runs at the server's priority.
 */
export function lowerThisThreadsPriority(): void {
  const nice = Number(process.env.BACK_OFFICE_NICE ?? BACK_OFFICE_NICE_DEFAULT);
  if (!Number.isInteger(nice) || nice <= 0 || nice > 19) return;
  try {
    const tid = Number(path.basename(fs.readlinkSync('/proc/thread-self')));
    if (Number.isInteger(tid) && tid > 0) os.setPriority(tid, nice);
  } catch {
    // not Linux, or no /proc: the worker keeps the server's priority
  }
}
