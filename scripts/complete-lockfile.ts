import fs from 'node:fs';
import path from 'node:path';

/**
 * The npm registry reachable here lacks some platform builds (e.g. @biomejs/cli-darwin-arm64), so
 * `npm install` leaves them out of package-lock.json — and `npm ci` then refuses the lock as "not in sync".
 * This adds a platform-guarded entry for every optional platform package a locked package names but the
 * lock lacks. On this platform npm ci skips them (wrong os/cpu); elsewhere npm fetches them as usual.
 * Run it after changing dependencies: `npm run complete-lockfile`.
 */
const PLATFORM =
  /-(android|darwin|freebsd|linux|win32|openbsd|openharmony|sunos|aix)-(arm64|x64|ia32|arm|ppc64|s390x|riscv64|loong64)(-(musl|gnu|msvc|gnueabihf|musleabihf|eabi))?$/;

const lockPath = path.resolve(import.meta.dirname, '../package-lock.json');
const lock = JSON.parse(fs.readFileSync(lockPath, 'utf8')) as {
  packages: Record<string, Record<string, unknown> & { optionalDependencies?: Record<string, string> }>;
};

let added = 0;
for (const [key, entry] of Object.entries(lock.packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const match = PLATFORM.exec(name);
    if (!match) continue;
    const target = `node_modules/${name}`;
    if (lock.packages[target]) continue;
    const [, os, cpu, , libc] = match;
    lock.packages[target] = {
      version,
      cpu: [cpu],
      ...(entry.dev ? { dev: true } : {}),
      ...(os === 'linux' ? { libc: [libc?.startsWith('musl') ? 'musl' : 'glibc'] } : {}),
      optional: true,
      os: [os],
    };
    added++;
    console.log(`added ${target}@${version} (for ${key || 'the project'})`);
  }
}

if (added > 0) {
  const sorted = Object.fromEntries(
    Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
  );
  lock.packages = sorted;
  fs.writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
}
console.log(
  added > 0 ? `package-lock.json: ${added} platform entries added.` : 'package-lock.json is complete.',
);
