import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** A PostgreSQL client tool (pg_dump, pg_restore, …): on PATH, or in Debian's versioned bin folders. */
export function findPgTool(name: string): string | null {
  try {
    const onPath = execFileSync('which', [name], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    if (onPath) return onPath;
  } catch {
    // not on PATH
  }
  const base = '/usr/lib/postgresql';
  if (!fs.existsSync(base)) return null;
  const versions = fs
    .readdirSync(base)
    .filter((v) => /^\d+$/.test(v))
    .sort((a, b) => Number(b) - Number(a));
  for (const v of versions) {
    const candidate = path.join(base, v, 'bin', name);
    if (fs.existsSync(candidate)) return candidate;
  }
  return null;
}
