import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Durability } from '../../src/server/db/connect.ts';
import { seededRandom } from '../../src/server/seed/random.ts';
import { startServerProcess } from '../support/server-process.ts';
import { startAuditors } from './audit.ts';
import { type Load, type LoadWorld, runLoad } from './load.ts';
import { DiskModel, type JournalRecord, type Retention, readJournal } from './model.ts';
import { RECORD } from './records.ts';

/**
 * One power-cut run: the server books under load on a copy of a prepared data folder while its file journal
 * records every write and sync, and is stopped; then, for each cut point (a record of the journal, chosen
 * by the seed), the folder as a disk would hold it had the power gone there is rebuilt (model.ts) and
 * audited (audit.ts); on some of them the real server is started too.
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
  const auditors = startAuditors(2);
  const pending = new Set<Promise<void>>();
  try {
    for (const [i, point] of points.entries()) {
      model.advance(records, point);
      const retention = RETENTIONS[i % RETENTIONS.length] as Retention;
      const dataDir = fs.mkdtempSync(path.join(shm, 'cut-'));
      model.materialize(path.join(dataDir, 'pgdata'), retention, random.next);
      const acknowledged = model.answers
        .filter((a) => a.status >= 200 && a.status < 300)
        .flatMap((a) => {
          const action = load.actions.get(a.key);
          return action ? [action] : [];
        });
      for (const action of acknowledged) checked[action.kind] = (checked[action.kind] ?? 0) + 1;
      const startServer = i < options.serverStarts || i === points.length - 1;
      // Two folders in audit at a time (two cores); the next one is rebuilt meanwhile.
      const audit = (async () => {
        try {
          const violations = await auditors.audit(dataDir, acknowledged);
          if (startServer && violations.length === 0) violations.push(...(await serverStartsOn(dataDir)));
          results[i] = { record: point, retention, acknowledged: acknowledged.length, violations };
          if (violations.length > 0)
            log(`  cut at record ${point} (${retention}): ${violations.slice(0, 3).join('; ')}`);
        } finally {
          fs.rmSync(dataDir, { recursive: true, force: true });
        }
      })();
      pending.add(audit);
      void audit.finally(() => pending.delete(audit));
      if (pending.size >= 2) await Promise.race(pending);
    }
    await Promise.all(pending);
  } finally {
    auditors.stop();
    fs.rmSync(shm, { recursive: true, force: true });
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
  const between = (from: number, to: number) => from + Math.floor(random() * (to - from + 1));
  // No syncs at all with DURABILITY=off: a moment anywhere instead.
  const anyOf = (list: number[]) => list[Math.floor(random() * list.length)] ?? between(0, lastAnswer + 1);
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
