import fs from 'node:fs';
import path from 'node:path';

const projectRoot = path.resolve(import.meta.dirname, '../..');

/**
 * The server as one JavaScript file (decision 5): what `npm start` runs with plain `node`. It sits at the
 * same depth as src/server/main.ts, so paths made from `import.meta.dirname` ('../..') still name the
 * project root. Packages stay in node_modules (not bundled).
 */
export const SERVER_BUNDLE = path.join(projectRoot, 'dist/server/main.mjs');
/**
 * The worker threads (src/server/workers.ts: the import's reading, the label files' drawing) as bundles of
 * their own beside the server's: workers.ts starts `./<name>.mjs` from the bundle's own folder.
 */
export const WORKER_SOURCES = {
  'import-worker': 'src/server/import/worker.ts',
  'label-worker': 'src/server/features/etiketten/render-worker.ts',
} as const;
export type WorkerName = keyof typeof WORKER_SOURCES;

/**
 * glibc keeps freed memory in per-thread arenas, and after one large block is freed it raises the size from
 * which blocks get their own mapping. Each password check (scrypt) takes 16 MB on a libuv thread: without a
 * fixed threshold every thread kept its 16 MB, ≈ 65 MB more RSS after the first logins of a shift. With it,
 * such blocks are mapped and returned whole. `npm start` sets the same (package.json, checked by a test).
 */
export const SERVER_ENV = { MALLOC_MMAP_THRESHOLD_: '1048576' } as const;

/** The command that runs the built server, as `npm start` does: program, arguments, extra environment. */
export const serverCommand = (): { command: string; args: string[]; env: Record<string, string> } => ({
  command: process.execPath,
  args: ['--enable-source-maps', SERVER_BUNDLE],
  env: { ...SERVER_ENV },
});

/** How the server and its import worker are bundled: one ES module each for Node 20, packages kept out. */
export const SERVER_BUNDLE_OPTIONS = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
} as const;

/**
 * Bundles src/server/main.ts and the import worker with esbuild (≈ 0.3 s). Written beside and renamed into
 * place, so two builds at once (test runners in parallel) never leave a half-written file for a starting
 * server; the workers first, so a new server never finds an old worker.
 */
export async function buildServer(): Promise<void> {
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    entryPoints: {
      ...Object.fromEntries(
        Object.entries(WORKER_SOURCES).map(([name, source]) => [name, path.join(projectRoot, source)]),
      ),
      [path.basename(SERVER_BUNDLE, '.mjs')]: path.join(projectRoot, 'src/server/main.ts'),
    },
    outdir: path.dirname(SERVER_BUNDLE),
    outExtension: { '.js': '.mjs' },
    ...SERVER_BUNDLE_OPTIONS,
    sourcemap: 'linked',
    write: false,
    logLevel: 'warning',
  });
  fs.mkdirSync(path.dirname(SERVER_BUNDLE), { recursive: true });
  const order = (file: string) => (file.startsWith(SERVER_BUNDLE) ? 1 : 0);
  for (const file of [...result.outputFiles].sort((a, b) => order(a.path) - order(b.path))) {
    const temporary = `${file.path}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, file.contents);
    fs.renameSync(temporary, file.path);
  }
}
