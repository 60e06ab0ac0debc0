import { type ChildProcess, fork } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { sql } from 'kysely';
import { type DatabaseHandle, openPglite } from '../../src/server/db/connect.ts';
import { migrateToLatest } from '../../src/server/db/migrate.ts';
import { stockInvariantViolations } from '../support/stock.ts';
import type { Action } from './load.ts';

/**
 * The audit of one rebuilt folder: opened as the server opens its database (recovery, migrations), then
 * - every call answered 2xx before the cut is there: its key stored as answered, its journal rows there
 *   (rebookings, goods received, picks); a receipt import's receipt with its two lines;
 * - no key's journal rows come from two transactions; stock = journal, nothing negative.
 * Run in child processes (`startAuditors`), two folders at a time: an open is a second of one core.
 */
/** PGlite's WebAssembly compiled once for all the cuts (a fresh compile is most of an open's second). */
let compiled: Promise<WebAssembly.Module> | null = null;
const pgliteWasm = () => {
  const main = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const file = path.join(path.dirname(main), 'pglite.wasm');
  compiled ??= WebAssembly.compile(fs.readFileSync(file));
  return compiled;
};

export async function auditCut(dataDir: string, acknowledged: Action[]): Promise<string[]> {
  const violations: string[] = [];
  let handle: DatabaseHandle;
  try {
    // As the server opens its database (db/open.ts): recovery, then the migrations.
    handle = await openPglite({ dataDir, durability: 'full', wasmModule: await pgliteWasm() });
    try {
      await migrateToLatest(handle.db);
    } catch (error) {
      await handle.close();
      throw error;
    }
  } catch (error) {
    return [`the database does not start: ${String(error)}`];
  }
  try {
    const db = handle.db;
    const stored = new Map(
      (acknowledged.length === 0
        ? []
        : await db
            .selectFrom('idempotency')
            .select(['key', 'status_code'])
            .where(
              'key',
              'in',
              acknowledged.map((a) => a.key),
            )
            .execute()
      ).map((r) => [r.key, r.status_code]),
    );
    const { rows: journal } = await sql<{ key: string; rows: number; transactions: number }>`
      select request_key as key, count(*)::int as rows, count(distinct xmin::text)::int as transactions
      from movements where request_key is not null group by request_key`.execute(db);
    const journalled = new Map(journal.map((r) => [r.key, r]));
    for (const row of journal) {
      if (row.transactions > 1)
        violations.push(`key ${row.key}: journal rows of ${row.transactions} transactions`);
    }
    const receipts = new Map(
      (
        await sql<{ nummer: string; lines: number }>`
          select r.nummer, count(l.id)::int as lines from receipts r left join receipt_lines l on l.receipt_id = r.id
          group by r.nummer`.execute(db)
      ).rows.map((r) => [r.nummer, r.lines]),
    );
    for (const action of acknowledged) {
      const key = action.key;
      if (action.kind === 'import') {
        if (receipts.get(action.receipt ?? '') !== 2)
          violations.push(
            `import ${action.receipt} acknowledged, ${receipts.get(action.receipt ?? '') ?? 'no'} lines found`,
          );
        continue;
      }
      if (stored.get(key) !== 200)
        violations.push(`${action.kind} ${key} acknowledged, its key stores ${stored.get(key) ?? 'nothing'}`);
      if (action.kind !== 'pickOther' && !journalled.has(key))
        violations.push(`${action.kind} ${key} acknowledged, not in the journal`);
    }
    const books = await stockInvariantViolations(db);
    if (books !== 0) violations.push(`stock and journal disagree in ${books} places`);
  } catch (error) {
    violations.push(`the audit failed: ${String(error)}`);
  } finally {
    await handle.close();
  }
  return violations;
}

/** Long-lived audit processes (this file as their entry), each auditing one folder at a time. */
export function startAuditors(count: number) {
  interface Job {
    dataDir: string;
    acknowledged: Action[];
    done: (violations: string[]) => void;
  }
  const queue: Job[] = [];
  const idle: ChildProcess[] = [];
  const children = Array.from({ length: count }, () =>
    fork(import.meta.filename, ['--audit-child'], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    }),
  );
  const next = (child: ChildProcess) => {
    const job = queue.shift();
    if (!job) {
      idle.push(child);
      return;
    }
    const failed = (code: number | null) =>
      job.done([`the audit process ended (${code}) while auditing ${job.dataDir}`]);
    child.once('exit', failed);
    child.once('message', (violations) => {
      child.off('exit', failed);
      job.done(violations as string[]);
      next(child);
    });
    child.send({ dataDir: job.dataDir, acknowledged: job.acknowledged });
  };
  for (const child of children) idle.push(child);
  return {
    audit(dataDir: string, acknowledged: Action[]): Promise<string[]> {
      return new Promise((done) => {
        queue.push({ dataDir, acknowledged, done });
        const child = idle.shift();
        if (child) next(child);
      });
    },
    stop() {
      for (const child of children) child.kill();
    },
  };
}

if (process.argv.includes('--audit-child')) {
  process.on('message', (job: { dataDir: string; acknowledged: Action[] }) => {
    void auditCut(job.dataDir, job.acknowledged).then((violations) => process.send?.(violations));
  });
}
