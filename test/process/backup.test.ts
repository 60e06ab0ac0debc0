import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, sql } from 'kysely';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { openPglite, PGLITE_EXTENSIONS } from '../../src/server/db/connect.ts';
import { migrateToLatest } from '../../src/server/db/migrate.ts';
import { PGliteDialect } from '../../src/server/db/pglite-dialect.ts';
import type { Database } from '../../src/server/db/schema.ts';
import { runScript } from '../support/cli.ts';
import { emptyPostgresDatabase } from '../support/db.ts';

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'lagerscanner-backup-'));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

function run(env: Record<string, string>, script: string, ...args: string[]) {
  return runScript(script, args, { env });
}

/** Backup, change, restore: the change is gone, the backed-up state is back. */
function roundTrip(env: Record<string, string>) {
  const backup = path.join(work, `backup-${randomBytes(3).toString('hex')}`);
  expect(run(env, 'src/server/cli/seed.ts').code).toBe(0);
  expect(run(env, 'src/server/cli/minimums.ts', 'set', 'B-01-03-02', '100003', '33').code).toBe(0);
  const created = run(env, 'src/server/cli/backup.ts', 'create', backup);
  expect(created.code, created.output).toBe(0);
  expect(fs.statSync(backup).size).toBeGreaterThan(1000);
  expect(run(env, 'src/server/cli/minimums.ts', 'remove', 'B-01-03-02', '100003').code).toBe(0);
  return backup;
}

describe('npm run backup', () => {
  it('backs up and restores the embedded database; refuses to overwrite without --force, and to copy a folder another process holds without answering on its backup socket', () => {
    const env = { DATA_DIR: path.join(work, 'data') };
    const backup = roundTrip(env);
    const refused = run(env, 'src/server/cli/backup.ts', 'restore', backup);
    expect(refused.code).toBe(1);
    expect(refused.output).toContain('already holds a database. Add --force');
    const restored = run(env, 'src/server/cli/backup.ts', 'restore', backup, '--force');
    expect(restored.code, restored.output).toBe(0);
    expect(run(env, 'src/server/cli/minimums.ts', 'list').output).toMatch(/B-01-03-02\t100003\tminimum 33/);

    // A file that is no backup, or one cut short, is refused and leaves the database as it was.
    const notABackup = path.join(work, 'notes.txt');
    fs.writeFileSync(notABackup, 'Inventur 2026: alles gezählt\n'.repeat(100));
    const cut = path.join(work, 'cut.bak');
    fs.writeFileSync(cut, fs.readFileSync(backup).subarray(0, 4096));
    for (const file of [notABackup, cut]) {
      const refusedFile = run(env, 'src/server/cli/backup.ts', 'restore', file, '--force');
      expect(refusedFile.code, refusedFile.output).toBe(1);
      expect(refusedFile.output).toContain('is not a complete backup');
      expect(refusedFile.output).toContain('nothing restored');
    }
    expect(run(env, 'src/server/cli/minimums.ts', 'list').output).toMatch(/B-01-03-02\t100003\tminimum 33/);

    // A process that holds the folder and does not answer on the backup socket (an import, an older server):
    // no backup behind its back.
    fs.writeFileSync(path.join(env.DATA_DIR, 'lagerscanner.pid'), String(process.pid));
    try {
      const busy = run(env, 'src/server/cli/backup.ts', 'create', path.join(work, 'busy'));
      expect(busy.code).toBe(1);
      expect(busy.output).toContain('is in use by another Lagerscanner process');
      expect(busy.output).toContain('does not answer on');
      expect(fs.existsSync(path.join(work, 'busy'))).toBe(false);
    } finally {
      fs.rmSync(path.join(env.DATA_DIR, 'lagerscanner.pid'));
    }
  }, 240_000);

  it('backs up and restores PostgreSQL with pg_dump and pg_restore', async (context) => {
    const adminUrl = inject('pgAdminUrl');
    if (!adminUrl) return context.skip();
    const env = { DATABASE_URL: await emptyPostgresDatabase(adminUrl, 'backup') };
    const backup = roundTrip(env);
    const restored = run(env, 'src/server/cli/backup.ts', 'restore', backup);
    expect(restored.code, restored.output).toBe(0);
    expect(run(env, 'src/server/cli/minimums.ts', 'list').output).toMatch(/B-01-03-02\t100003\tminimum 33/);
  }, 240_000);

  it("restores a backup of PGlite's own format, as this command wrote them before", async () => {
    const pglite = await PGlite.create({ extensions: PGLITE_EXTENSIONS });
    const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
    await migrateToLatest(db);
    await sql`insert into settings (key, value) values ('old-format', 'ja')`.execute(db);
    const file = path.join(work, 'old-format.bak');
    fs.writeFileSync(file, Buffer.from(await (await pglite.dumpDataDir('gzip')).arrayBuffer()));
    await db.destroy();
    const env = { DATA_DIR: path.join(work, 'old') };
    const restored = run(env, 'src/server/cli/backup.ts', 'restore', file);
    expect(restored.code, restored.output).toBe(0);
    const handle = await openPglite({ dataDir: env.DATA_DIR });
    try {
      const { rows } = await sql<{
        value: string;
      }>`select value from settings where key = 'old-format'`.execute(handle.db);
      expect(rows).toEqual([{ value: 'ja' }]);
    } finally {
      await handle.close();
    }
  }, 120_000);

  it('refuses a missing file and unknown arguments', () => {
    const env = { DATA_DIR: path.join(work, 'other') };
    expect(run(env, 'src/server/cli/backup.ts', 'restore', path.join(work, 'nope')).output).toContain(
      'No such backup file',
    );
    expect(run(env, 'src/server/cli/backup.ts', 'copy', 'x').code).toBe(2);
  }, 60_000);
});
