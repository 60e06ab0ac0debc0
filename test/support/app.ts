import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Kysely } from 'kysely';
import { buildApp } from '../../src/server/app.ts';
import { type Config, testConfig } from '../../src/server/config.ts';
import type { DatabaseKind } from '../../src/server/db/connect.ts';
import type { Database } from '../../src/server/db/schema.ts';
import { demo } from '../../src/server/seed/demo.ts';
import { freshDatabase, type TestDatabase } from './db.ts';

export interface TestApp {
  app: FastifyInstance;
  database: TestDatabase;
  close(): Promise<void>;
}

/** The real server on a fresh, seeded database of the given kind; no network (app.inject). */
export async function startTestApp(
  kind: DatabaseKind,
  overrides: Partial<Config> = {},
  options: {
    clock?: () => number;
    admission?: { concurrency?: number; now?: () => number };
    /** Where the server's JSON log lines go (a test that reads them); none by default. */
    logStream?: NodeJS.WritableStream;
  } = {},
): Promise<TestApp> {
  const database = await freshDatabase(kind);
  const app = await buildApp({
    db: database.db,
    config: testConfig(overrides),
    clock: options.clock,
    ...(options.logStream ? { logStream: options.logStream } : {}),
    databaseStats: database.stats,
    admission: { concurrency: database.concurrency, ...options.admission },
    exclusiveDatabase: kind === 'pglite',
  });
  await app.ready();
  return {
    app,
    database,
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}

export async function loginDemo(app: FastifyInstance): Promise<string> {
  return loginAs(app, demo.passwordUser);
}

/** A password login's token; the demo seed has `demo` (mitarbeiter), `leitung` and `admin` (DESIGN §9). */
export async function loginAs(
  app: FastifyInstance,
  user: { username: string; password: string },
): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/user/login',
    payload: { username: user.username, password: user.password },
  });
  if (res.statusCode !== 200)
    throw new Error(`login of ${user.username} failed: ${res.statusCode} ${res.body}`);
  return res.json<{ token: string }>().token;
}

/** The id of a user of the seeded database, by username (`demo.leadUser.username`, …). */
export async function userIdOf(db: Kysely<Database>, username: string): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('username', '=', username)
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The id of the delivery note with this Belegnummer. */
export async function noteIdOf(db: Kysely<Database>, belegnr: string): Promise<number> {
  const row = await db
    .selectFrom('delivery_notes')
    .select('id')
    .where('belegnr', '=', belegnr)
    .executeTakeFirstOrThrow();
  return row.id;
}

export function authHeaders(token: string, extra: Record<string, string> = {}): Record<string, string> {
  return { authorization: `Bearer ${token}`, ...extra };
}

export function json<T = Record<string, unknown>>(res: LightMyRequestResponse): T {
  return res.json<T>();
}
