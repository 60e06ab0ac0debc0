import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { ensureWebBuilt } from '../src/server/build-web.ts';
import { findPgBin, type PgCluster, startPgCluster } from './support/pg-cluster.ts';

/**
 * Starts one throwaway PostgreSQL cluster for the whole run; every API test file makes its own database in
 * it (test/support/db.ts). Without PostgreSQL binaries the PostgreSQL half of the API tests is skipped —
 * loudly — except in CI, where that is a failure.
 */
let cluster: PgCluster | null = null;

export async function setup(project: TestProject): Promise<void> {
  // The process tests start the real server, which builds the web app when it is stale; build it once
  // here so two of them never build into the same folder at once.
  await ensureWebBuilt(path.resolve(import.meta.dirname, '../dist/web'), (message) => console.log(message));
  if (!findPgBin()) {
    const message = [
      '',
      '!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!',
      '!! PostgreSQL server binaries not found: API tests run on PGlite ONLY.        !!',
      '!! The PostgreSQL half is SKIPPED. Install them: apt-get install postgresql     !!',
      '!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!',
      '',
    ].join('\n');
    if (process.env.CI === 'true') throw new Error(`CI=true: refusing to skip PostgreSQL.${message}`);
    console.warn(message);
    project.provide('pgAdminUrl', null);
    return;
  }
  cluster = await startPgCluster();
  project.provide('pgAdminUrl', cluster.adminUrl);
}

export async function teardown(): Promise<void> {
  await cluster?.stop();
  cluster = null;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** Admin URL of this run's throwaway PostgreSQL cluster, or null when there is none. */
    pgAdminUrl: string | null;
  }
}
