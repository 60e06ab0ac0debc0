import { randomUUID } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { bookInventur } from '../../src/contract/inventur.ts';
import { texts } from '../../src/contract/texts.ts';
import { buildApp } from '../../src/server/app.ts';
import { testConfig } from '../../src/server/config.ts';
import { loginDemo } from '../support/app.ts';
import { databaseKinds, freshDatabase } from '../support/db.ts';
import { caller } from '../support/endpoint-call.ts';
import { articleId, locationId, stockOf } from '../support/stock.ts';

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
      expect(down.json()).toMatchObject({
        success: false,
        message: texts.errors.unavailable,
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

describe.each(databaseKinds())('a full disk under the database on %s', (kind) => {
  it('refuses the booking whole, says so in the log, is not ready for a while, then books again', async () => {
    const database = await freshDatabase(kind);
    const lines: string[] = [];
    const logStream = new PassThrough();
    logStream.on('data', (chunk) => lines.push(String(chunk)));
    const app = await buildApp({
      db: database.db,
      config: testConfig({ logLevel: 'warn' }),
      logStream,
      diskFullHoldMs: 500,
    });
    const db = database.db;
    try {
      const token = await loginDemo(app);
      const lp = await locationId(db, 'A-01-01-01');
      const article = await articleId(db, '100001');
      const before = await stockOf(db, lp, article);
      // What PostgreSQL and PGlite answer when a table file cannot grow (seen on a full tmpfs): SQLSTATE 53100.
      await sql`create function disk_full() returns trigger language plpgsql as $$
        begin
          raise exception 'could not extend file "base/5/16422": No space left on device' using errcode = 'disk_full';
        end $$`.execute(db);
      await sql`create trigger disk_full before insert on inventory_counts for each row execute function disk_full()`.execute(
        db,
      );
      const key = randomUUID();
      const book = () => caller(app, token)(bookInventur, { body: { lp, article, amount: before + 7 }, key });
      const refused = await book();
      expect(refused.statusCode).toBe(500);
      expect(refused.json()).toMatchObject({
        success: false,
        message: texts.errors.system500,
      });
      expect(lines.join('')).toContain('database disk full');
      expect(lines.join('')).toContain('No space left on device');
      expect(await stockOf(db, lp, article)).toBe(before);
      const claimed = await db.selectFrom('idempotency').select('key').where('key', '=', key).execute();
      expect(claimed).toEqual([]);
      expect((await app.inject('/readyz')).statusCode).toBe(503);

      // Space is freed: readiness comes back by itself and the same booking goes through once.
      await sql`drop trigger disk_full on inventory_counts`.execute(db);
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect((await app.inject('/readyz')).statusCode).toBe(200);
      expect((await book()).statusCode).toBe(200);
      expect(await stockOf(db, lp, article)).toBe(before + 7);
    } finally {
      await app.close();
      await database.close();
    }
  }, 60_000);
});
