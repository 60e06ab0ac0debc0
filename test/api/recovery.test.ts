import { PassThrough } from 'node:stream';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { buildApp } from '../../src/server/app.ts';
import { testConfig } from '../../src/server/config.ts';
import { freshDatabase } from '../support/db.ts';

describe('a lost PostgreSQL connection', () => {
  it('makes /readyz answer 503 with a clear log line, and the server recovers by itself', async (context) => {
    const adminUrl = inject('pgAdminUrl');
    if (!adminUrl) return context.skip();
    const database = await freshDatabase('postgres');
    const name = new URL(database.url ?? '').pathname.slice(1);
    const lines: string[] = [];
    const logStream = new PassThrough();
    logStream.on('data', (chunk) => lines.push(String(chunk)));
    const app = await buildApp({ db: database.db, config: testConfig({ logLevel: 'warn' }), logStream });
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    try {
      expect((await app.inject('/readyz')).statusCode).toBe(200);
      // The database goes away: no new connections, the open ones killed.
      await admin.query(`alter database ${name} allow_connections false`);
      await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [name]);
      const down = await app.inject('/readyz');
      expect(down.statusCode).toBe(503);
      expect(down.json()).toEqual({
        success: false,
        message: 'Der Server ist gerade nicht bereit. Bitte gleich erneut versuchen.',
      });
      expect(lines.join('')).toContain('database not reachable');
      // It comes back: the pool reconnects, no restart needed.
      await admin.query(`alter database ${name} allow_connections true`);
      let status = 0;
      for (let i = 0; i < 20 && status !== 200; i++) {
        status = (await app.inject('/readyz')).statusCode;
        if (status !== 200) await new Promise((r) => setTimeout(r, 100));
      }
      expect(status).toBe(200);
    } finally {
      await admin.query(`alter database ${name} allow_connections true`).catch(() => {});
      await admin.end();
      await app.close();
      await database.close();
    }
  }, 60_000);
});
