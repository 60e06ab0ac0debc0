import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { emptyPostgresDatabase } from '../support/db.ts';
import { type ServerProcess, startServerProcess } from '../support/server-process.ts';

/**
 * On PostgreSQL a server opens its whole pool at start and keeps it open: a rush after a quiet spell must not
 * wait for new backends (src/server/db/connect.ts). What an operator sees: the connections in
 * pg_stat_activity, named, as many as DATABASE_POOL_SIZE, still there after a quiet while.
 */
const servers: ServerProcess[] = [];
afterAll(async () => {
  for (const server of servers) await server.killHard();
});

async function ourConnections(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      "select count(*)::int as n from pg_stat_activity where datname = current_database() and application_name = 'lagerscanner'",
    );
    return rows[0]?.n ?? 0;
  } finally {
    await client.end();
  }
}

describe('the PostgreSQL pool', () => {
  it('opens every connection at start and keeps them open while idle', async (context) => {
    const adminUrl = inject('pgAdminUrl');
    if (!adminUrl) return context.skip();
    const url = await emptyPostgresDatabase(adminUrl, 'pool');
    const server = await startServerProcess({ DATABASE_URL: url, DATABASE_POOL_SIZE: '4' });
    servers.push(server);
    expect(await ourConnections(url)).toBe(4);
    // pg closes a connection idle for 10 s by default.
    await new Promise((resolve) => setTimeout(resolve, 11_000));
    expect(await ourConnections(url)).toBe(4);
    const ready = await fetch(`${server.base}/readyz`);
    expect(ready.status).toBe(200);
  }, 120_000);

  it('will not start when the database refuses the whole pool, and says what to change', async (context) => {
    const adminUrl = inject('pgAdminUrl');
    if (!adminUrl) return context.skip();
    const url = new URL(await emptyPostgresDatabase(adminUrl, 'poollimit'));
    const role = `few_${url.pathname.slice(-8)}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create role ${role} login connection limit 3`);
    await admin.query(`grant all on database ${url.pathname.slice(1)} to ${role}`);
    await admin.query(`alter database ${url.pathname.slice(1)} owner to ${role}`);
    await admin.end();
    url.username = role;
    await expect(
      startServerProcess(
        { DATABASE_URL: url.toString(), DATABASE_POOL_SIZE: '5' },
        { readyWithinMs: 30_000 },
      ),
    ).rejects.toThrow(
      /Cannot open 5 connections to the database \(DATABASE_POOL_SIZE\).*too many connections/s,
    );
  }, 120_000);
});
