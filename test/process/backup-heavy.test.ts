import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openPglite } from '../../src/server/db/connect.ts';
import { migrateToLatest } from '../../src/server/db/migrate.ts';
import { seedDemo } from '../../src/server/seed/demo.ts';
import { runScriptAsync } from '../support/cli.ts';
import { startServerProcess } from '../support/server-process.ts';

/**
 * A backup of the running embedded database is a heavy operation (decision 31): while a shift lead's journal
 * CSV holds the one place (HEAVY_OPERATIONS_MAX = 1), `npm run backup` is refused with a message saying why,
 * and once the download is done it runs.
 */
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'lagerscanner-backup-heavy-'));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

describe('npm run backup beside other heavy work', () => {
  it('is refused while a journal download holds the heavy place, and runs after it', async () => {
    const dataDir = path.join(work, 'data');
    const handle = await openPglite({ dataDir });
    await migrateToLatest(handle.db);
    await seedDemo(handle.db);
    // A journal far larger than the sockets' buffers, so an unread download stays open.
    await sql`
      insert into movements (kind, article_id, from_location_id, to_location_id, amount)
      select 'umlagerung', a.id, case when n % 2 = 0 then f.id else t.id end,
             case when n % 2 = 0 then t.id else f.id end, 1
      from generate_series(1, 200000) n,
           (select id from articles where nummer = '100001') a,
           (select id from locations where code = 'A-01-01-01') f,
           (select id from locations where code = 'A-01-01-02') t`.execute(handle.db);
    await handle.close();
    const server = await startServerProcess({ DATA_DIR: dataDir, SEED_DEMO: 'false', LOG_LEVEL: 'warn' });
    try {
      const login = await fetch(`${server.base}/api/user/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'leitung', password: 'leitung' }),
      });
      const { token } = (await login.json()) as { token: string };
      const download = await fetch(`${server.base}/api/leitstand/journal.csv`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(download.status).toBe(200);
      const file = path.join(work, 'while-downloading.bak');
      const refused = await runScriptAsync('src/server/cli/backup.ts', ['create', file], {
        env: { DATA_DIR: dataDir },
      });
      expect(refused.code, refused.output).not.toBe(0);
      expect(refused.output).toContain('HEAVY_OPERATIONS_MAX');
      expect(fs.existsSync(file) && fs.statSync(file).size > 0).toBe(false);

      expect((await download.arrayBuffer()).byteLength).toBeGreaterThan(5_000_000);
      const after = path.join(work, 'after.bak');
      const taken = await runScriptAsync('src/server/cli/backup.ts', ['create', after], {
        env: { DATA_DIR: dataDir },
      });
      expect(taken.code, taken.output).toBe(0);
      expect(fs.statSync(after).size).toBeGreaterThan(100_000);
    } finally {
      const exited = new Promise((resolve) => server.child.once('exit', resolve));
      server.child.kill('SIGTERM');
      await exited;
    }
  }, 180_000);
});
