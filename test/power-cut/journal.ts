import path from 'node:path';

/**
 * The journaling preload (journal-preload.ts) as one CommonJS file: `--require` loads it in the server's main
 * thread and in its worker threads alike (Node 20's `--import` reaches the main thread only).
 */
export async function buildJournalPreload(work: string): Promise<string> {
  const esbuild = await import('esbuild');
  const outfile = path.join(work, 'journal-preload.cjs');
  await esbuild.build({
    entryPoints: [path.join(import.meta.dirname, 'journal-preload.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    logLevel: 'warning',
  });
  return outfile;
}
