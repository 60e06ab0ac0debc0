import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely } from 'kysely';
import pg from 'pg';
import { inject } from 'vitest';
import {
  type DatabaseHandle,
  type DatabaseKind,
  openPglite,
  openPostgres,
  PGLITE_EXTENSIONS,
} from '../../src/server/db/connect.ts';
import { migrateToLatest } from '../../src/server/db/migrate.ts';
import { PGliteDialect } from '../../src/server/db/pglite-dialect.ts';
import type { Database } from '../../src/server/db/schema.ts';
import { seedDemo } from '../../src/server/seed/demo.ts';
import { emptyPostgresDatabase } from './pg-cluster.ts';

export { emptyPostgresDatabase };

/**
 * A fresh database per test file, on both engines: PGlite always, PostgreSQL 15 when the global setup
 * started a cluster (it fails instead of skipping when CI=true). Both start from a template that holds the
 * migrated schema and the demo warehouse, so a file starts in ~0.5 s instead of seeding anew.
 */
export function databaseKinds(): DatabaseKind[] {
  return inject('pgAdminUrl') ? ['pglite', 'postgres'] : ['pglite'];
}

/**
 * Changes whenever the schema or the demo data code changes, so a stale template is never used: the database
 * layer, the seed, and what the seed uses below it (the password hashes, the stock writes).
 */
function templateVersion(): string {
  const server = path.resolve(import.meta.dirname, '../../src/server');
  const hash = createHash('sha256');
  const visit = (dir: string) => {
    for (const entry of fs
      .readdirSync(dir, { withFileTypes: true })
      .sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) visit(full);
      else hash.update(entry.name).update(fs.readFileSync(full));
    }
  };
  visit(path.join(server, 'db'));
  visit(path.join(server, 'seed'));
  for (const file of ['auth/secrets.ts', 'domain/stock.ts'])
    hash.update(fs.readFileSync(path.join(server, file)));
  return hash.digest('hex').slice(0, 16);
}

async function pgliteTemplate(): Promise<Blob> {
  const file = path.join(os.tmpdir(), `lagerscanner-test-template-${templateVersion()}.tar`);
  if (!fs.existsSync(file)) {
    const pglite = await PGlite.create({ extensions: PGLITE_EXTENSIONS });
    const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
    await migrateToLatest(db);
    await seedDemo(db);
    const dump = await pglite.dumpDataDir('none');
    await db.destroy();
    const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    fs.writeFileSync(temp, Buffer.from(await dump.arrayBuffer()));
    fs.renameSync(temp, file); // atomic: parallel workers never read half a file
  }
  return new Blob([fs.readFileSync(file)]);
}

async function postgresTemplate(adminUrl: string): Promise<string> {
  const name = `lagerscanner_template_${templateVersion()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query('select pg_advisory_lock(4242)');
    const exists = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (exists.rowCount === 0) {
      await admin.query(`create database ${name}`);
      const handle = await openPostgres(withDatabase(adminUrl, name), 2);
      try {
        await migrateToLatest(handle.db);
        await seedDemo(handle.db);
      } finally {
        await handle.close();
      }
    }
    await admin.query('select pg_advisory_unlock(4242)');
  } finally {
    await admin.end();
  }
  return name;
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

export interface TestDatabase extends DatabaseHandle {
  /** Connection URL of this database (PostgreSQL only), e.g. for a second server instance. */
  url: string | null;
}

export async function freshDatabase(kind: DatabaseKind): Promise<TestDatabase> {
  if (kind === 'pglite') {
    const handle = await openPglite({ dataDir: null, loadDataDir: await pgliteTemplate() });
    return { ...handle, url: null };
  }
  const adminUrl = inject('pgAdminUrl');
  if (!adminUrl) throw new Error('no PostgreSQL cluster for this test run');
  const template = await postgresTemplate(adminUrl);
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name} template ${template}`);
  await admin.end();
  const url = withDatabase(adminUrl, name);
  const handle = await openPostgres(url, 10);
  return {
    ...handle,
    url,
    close: async () => {
      await handle.close();
      const dropper = new pg.Client({ connectionString: adminUrl });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}

/** Runs `write` in a transaction that is always rolled back; resolves to the database's refusal, if any. */
export async function refusal(
  db: Kysely<Database>,
  write: (trx: Kysely<Database>) => Promise<unknown>,
): Promise<string> {
  const rolledBack = new Error('rolled back');
  try {
    await db.transaction().execute(async (trx) => {
      await write(trx);
      throw rolledBack;
    });
  } catch (error) {
    if (error === rolledBack) return '';
    return (error as Error).message;
  }
  return '';
}
