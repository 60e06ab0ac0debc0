import fs from 'node:fs';
import path from 'node:path';

const projectRoot = path.resolve(import.meta.dirname, '../..');
const SOURCES = ['src/web', 'src/contract', 'vite.config.ts', 'package-lock.json'];

/** Newest modification time below the web app's sources. */
function newestSourceTime(): number {
  let newest = 0;
  const visit = (p: string) => {
    const stat = fs.statSync(p, { throwIfNoEntry: false });
    if (!stat) return;
    if (stat.isDirectory()) {
      for (const entry of fs.readdirSync(p)) visit(path.join(p, entry));
    } else if (!p.includes('.test.')) newest = Math.max(newest, stat.mtimeMs);
  };
  for (const source of SOURCES) visit(path.join(projectRoot, source));
  return newest;
}

/**
 * `npm start` builds the web app when it is missing or older than its sources, so a fresh clone or a
 * `git pull` needs no extra step. Returns whether it built.
 */
export async function ensureWebBuilt(webDir: string, log: (message: string) => void): Promise<boolean> {
  const index = fs.statSync(path.join(webDir, 'index.html'), { throwIfNoEntry: false });
  if (index && index.mtimeMs >= newestSourceTime()) return false;
  log(index ? 'Web app sources changed; rebuilding …' : 'Web app not built yet; building …');
  const started = Date.now();
  const { build } = await import('vite');
  // Always the production bundle: under NODE_ENV=test (a test runner) Vite would build React's development
  // build, three times the size, and the tests would run against something no scanner ever gets.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({
      configFile: path.join(projectRoot, 'vite.config.ts'),
      logLevel: 'warn',
      mode: 'production',
    });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
  log(`Web app built in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  return true;
}
