import type { TestProject } from 'vitest/node';
import { findPgBin, type PgCluster, startPgCluster } from './support/pg-cluster.ts';

/**
 * Starts one throwaway PostgreSQL cluster for the whole run; every API test file makes its own database in
 * it (test/support/db.ts). Without PostgreSQL binaries the PostgreSQL half of the API tests is skipped —
 * loudly — except in CI, where that is a failure.
 */
let cluster: PgCluster | null = null;

export async function setup(project: TestProject): Promise<void> {
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
