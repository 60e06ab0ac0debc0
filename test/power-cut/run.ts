import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { type DatabaseHandle, type Durability, openPglite } from '../../src/server/db/connect.ts';
import { migrateToLatest } from '../../src/server/db/migrate.ts';
import { seededRandom } from '../../src/server/db/seed/random.ts';
import { startServerProcess } from '../support/server-process.ts';
import { stockInvariantViolations } from '../support/stock.ts';
import { type Load, type LoadWorld, runLoad } from './load.ts';
import { DiskModel, type JournalRecord, type Retention, readJournal } from './model.ts';
import { RECORD } from './records.ts';

/**
 * One power-cut run: the server books under load on a copy of a prepared data folder while its file journal
 * records every write and sync; then, for each cut point (a record of the journal, seeded at random), the
 * disk as it would be had the power gone there is rebuilt, the database opened on it (PostgreSQL's recovery,
 * migrations: what the server does at start) and audited:
 * - every call answered 2xx before the cut is there: its key stored as answered, its journal rows there,
 *   written by one transaction (exactly once); a receipt import's receipt with its lines;
 * - no key's journal rows come from two transactions; stock = journal, nothing negative.
 */
export interface PowerCutOptions {
  /** A prepared data folder (DATA_DIR) the run starts from: copied, never changed. */
  prepared: string;
  world: LoadWorld;
  durability: Durability;
  seconds: number;
  cuts: number;
  /** Cuts at which the real server is also started on what is left (it must answer /readyz and book). */
  serverStarts: number;
  seed: number;
  /** The journaling preload, bundled (journal.ts). */
  preload: string;
  work: string;
  log: (line: string) => void;
}

export interface CutResult {
  record: number;
  retention: Retention;
  acknowledged: number;
  violations: string[];
}

export interface PowerCutReport {
  load: Load;
  records: number;
  cuts: CutResult[];
  /** Acknowledged calls by kind, summed over the cuts (how much each cut point had to find). */
  checked: Record<string, number>;
}

export async function runPowerCut(options: PowerCutOptions): Promise<PowerCutReport> {
  const { work, log } = options;
  const pristine = path.join(options.prepared, 'pgdata');
  const running = path.join(work, `run-${options.durability}`);
  fs.cpSync(options.prepared, running, { recursive: true });
  fs.rmSync(path.join(running, 'lagerscanner.pid'), { force: true });
  const journal = path.join(work, `journal-${options.durability}.bin`);
  // The disk as the server finds it: everything on stable storage (the prepared folder was closed cleanly).
  const model = new DiskModel(path.join(running, 'pgdata'), pristine);

  const server = await startServerProcess({
    DATA_DIR: running,
    DURABILITY: options.durability,
    SEED_DEMO: 'false',
    NODE_OPTIONS: `--require ${options.preload}`,
    FS_JOURNAL: journal,
    FS_JOURNAL_ROOT: path.join(running, 'pgdata'),
  });
  let load: Load;
  try {
    load = await runLoad({
      base: server.base,
      world: options.world,
      seconds: options.seconds,
      seed: options.seed,
    });
    // Stopped as an operator stops it: PostgreSQL's shutdown checkpoint writes the data pages and syncs
    // them, the control file last — cuts in there show WAL before data and the checkpoint's own order.
    const exited = new Promise((resolve) => server.child.once('exit', resolve));
    server.child.kill('SIGTERM');
    await exited;
  } finally {
    await server.killHard();
  }
  const records = readJournal(journal);
  const lastAnswer = records.findLastIndex((r) => r.type === RECORD.answer);
  log(
    `  ${options.durability}: ${records.length} journal records, answered ${Object.entries(load.answered)
      .map(([kind, n]) => `${kind} ${n.ok} ok/${n.refused} refused`)
      .join(', ')}`,
  );

  const random = seededRandom(options.seed * 7 + 1);
  const points = cutPoints(records, lastAnswer, options.cuts, random.next);
  const shm = cutsFolder(work);
  const results: CutResult[] = [];
  const checked: Record<string, number> = {};
  const started = performance.now();
  for (const [i, point] of points.entries()) {
    model.advance(records, point);
    const retention = RETENTIONS[i % RETENTIONS.length] as Retention;
    const dataDir = fs.mkdtempSync(path.join(shm, 'cut-'));
    try {
      model.materialize(path.join(dataDir, 'pgdata'), retention, random.next);
      const acknowledged = model.answers.filter((a) => a.status >= 200 && a.status < 300);
      for (const answer of acknowledged) {
        const kind = load.actions.get(answer.key)?.kind ?? 'unknown';
        checked[kind] = (checked[kind] ?? 0) + 1;
      }
      const violations = await auditCut(
        dataDir,
        acknowledged.map((a) => a.key),
        load,
      );
      if (i < options.serverStarts || (violations.length === 0 && i === points.length - 1)) {
        violations.push(...(await serverStartsOn(dataDir)));
      }
      results.push({ record: point, retention, acknowledged: acknowledged.length, violations });
      if (violations.length > 0)
        log(`  cut at record ${point} (${retention}): ${violations.slice(0, 3).join('; ')}`);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }
  const seconds = (performance.now() - started) / 1000;
  log(`  ${options.durability}: ${points.length} cuts recovered and audited in ${seconds.toFixed(0)} s`);
  return { load, records: records.length, cuts: results, checked };
}

const RETENTIONS: Retention[] = ['synced', 'any-block', 'data-first'];

/**
 * Where the power goes: the moments that matter most, and chance. While calls are answered, a third just
 * after an answer went out (what it acknowledged must be on disk), a third just after a sync ended (the disk
 * changed), a third anywhere. In the shutdown checkpoint after the last answer, just after each sync (data
 * files, the control file, the WAL: their order is what recovery relies on), after each of its last
 * records (up to twelve: the checkpoint's WAL record and the control file that points at it), the rest
 * anywhere in it.
 */
function cutPoints(
  records: JournalRecord[],
  lastAnswer: number,
  count: number,
  random: () => number,
): number[] {
  const after = (type: number, from: number, to: number) =>
    records.flatMap((r, i) => (r.type === type && i >= from && i < to ? [i + 1] : []));
  const anyOf = (list: number[]) => list[Math.floor(random() * list.length)] ?? 0;
  const between = (from: number, to: number) => from + Math.floor(random() * (to - from + 1));
  // The checkpoint's end, record by record: its WAL record, the control file pointing at it, their syncs.
  const endCount = Math.min(12, Math.ceil(count / 18), records.length - lastAnswer);
  const end = Array.from({ length: endCount }, (_, i) => records.length - i);
  const inShutdown = [
    ...after(RECORD.syncEnd, lastAnswer + 1, records.length).slice(0, Math.floor(count / 4)),
    ...end,
  ];
  const shutdownRandom = Math.max(0, Math.ceil(count / 6) - inShutdown.length);
  const answers = after(RECORD.answer, 0, lastAnswer + 1);
  const syncs = after(RECORD.syncEnd, 0, lastAnswer + 1);
  const whileAnswering = count - inShutdown.length - shutdownRandom;
  const points = [
    ...inShutdown,
    ...Array.from({ length: shutdownRandom }, () => between(lastAnswer + 1, records.length)),
    ...Array.from({ length: whileAnswering }, (_, i) =>
      i % 3 === 0 ? anyOf(answers) : i % 3 === 1 ? anyOf(syncs) : between(0, lastAnswer + 1),
    ),
  ];
  return points.sort((a, b) => a - b);
}

/** Cut folders on tmpfs where there is room: recovery syncs the whole folder, which need not reach a disk. */
function cutsFolder(work: string): string {
  try {
    const shm = fs.statfsSync('/dev/shm');
    if (shm.bavail * shm.bsize > 2 ** 30) return fs.mkdtempSync('/dev/shm/lagerscanner-power-cut-');
  } catch {
    // no /dev/shm here
  }
  return fs.mkdtempSync(path.join(work, 'cuts-'));
}

/** PGlite's WebAssembly compiled once for all the cuts (a fresh compile is most of an open's second). */
let compiled: Promise<WebAssembly.Module> | null = null;
const pgliteWasm = () => {
  const main = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const file = path.join(path.dirname(main), 'pglite.wasm');
  compiled ??= WebAssembly.compile(fs.readFileSync(file));
  return compiled;
};

async function auditCut(dataDir: string, acknowledged: string[], load: Load): Promise<string[]> {
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
            .where('key', 'in', acknowledged)
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
    for (const key of acknowledged) {
      const action = load.actions.get(key);
      if (!action) continue; // a login or lookup: no key of ours
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

/** The real server on what the cut left (a copy: it writes): it must get ready and book. */
async function serverStartsOn(dataDir: string): Promise<string[]> {
  const copy = `${dataDir}-server`;
  fs.cpSync(dataDir, copy, { recursive: true });
  try {
    const server = await startServerProcess(
      { DATA_DIR: copy, SEED_DEMO: 'false' },
      { readyWithinMs: 60_000 },
    );
    try {
      const login = await fetch(`${server.base}/api/user/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'demo', password: 'demo' }),
      });
      return login.ok ? [] : [`the server started on it refuses the login: ${login.status}`];
    } finally {
      await server.killHard();
    }
  } catch (error) {
    return [`the server does not start on it: ${String(error)}`];
  } finally {
    fs.rmSync(copy, { recursive: true, force: true });
  }
}

export const tmpWork = () => fs.mkdtempSync(path.join(os.tmpdir(), 'lagerscanner-power-cut-'));
