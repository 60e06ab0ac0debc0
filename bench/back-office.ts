import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { zaehlauftraegeAnlegen, zaehlplanAnlegen } from '../src/contract/leitstand/inventur.ts';
import { abcBerechnen, abdeckung } from '../src/contract/leitstand/inventur-auswertung.ts';
import { kommissionierProfilAnlegen, welleFreigeben } from '../src/contract/leitstand/kommissionierung.ts';
import { buildPath } from '../src/contract/path.ts';
import { largeArticleNummer, largeEan, largeLocationCode } from '../src/server/seed/large.ts';
import { runScriptAsync } from '../test/support/cli.ts';
import { type CallOutcome, runOpenLoop, summarize } from './open-loop.ts';

/**
 * The floor under back-office work (issue 37, DESIGN §10): an open-loop floor of handhelds — one scan every
 * 3 s each, the Umbuchung's location, article and rebooking — runs the whole time, while a lead or admin
 * does one heavy thing after another with quiet windows between: the journal's CSV of everything, an
 * import of 100,000 articles, 20,000 location labels as PDF and as ZPL, broad Bestand searches, a pick
 * wave of every pickable note, live Leitstand desks that refetch on every event, a backup. For each: how long
 * it took, and the floor's p50/p99/max, timeouts, errors and 503s while it ran, beside the same figures of
 * the quiet windows.
 * Goal: the floor's p99 during each ≤ 2 × the quiet windows', no timeout, no error.
 */

export const BACK_OFFICE_NAME = 'floor under back-office work';
export const FLOOR_SCANNERS = 300;
export const QUIET_SECONDS = 10;
export const P99_FACTOR = 2;
/**
 * A quiet window counts from this long after the operation before it (ms): calls due while it ran may still
 * be answered (or time out) up to the handheld's 5 s later, and the quiet figures are of a quiet floor.
 */
const DRAIN_MS = 5000;

/** Who does the back-office work, and what it may use. */
export interface BackOfficeContext {
  base: string;
  /** A shift lead's login (Leitstand, labels, journal). */
  leadToken: string;
  /** An admin's login (import). */
  adminToken: string;
  /** The large warehouse's scale (1: 100,000 articles). */
  scale: number;
}

export interface BackOfficeOperation {
  name: string;
  /**
   * What the lead has at hand before starting (an upload's file), made before the quiet window that goes
   * first: the client's own work is not the operation's.
   */
  prepare?: (ctx: BackOfficeContext) => Promise<unknown>;
  /** Does it once; answers what it did, for the table ("211 MB, 2,000,000 rows"). */
  run: (ctx: BackOfficeContext, prepared?: unknown) => Promise<string>;
}

/** How the lead's process (back-office-lead.ts) makes the run's operations: `backOfficeOperations`' options. */
export interface LeadSpec {
  liveSeconds: number;
  /** The backup operation's environment (`backupOperation`); none: no backup. */
  backupEnv?: Record<string, string>;
}

/** A GET read to its end: status and bytes; throws on anything but 200. */
export async function download(
  base: string,
  path: string,
  token: string,
  init: { method?: string; body?: string; headers?: Record<string, string> } = {},
): Promise<{ bytes: number; body: Buffer | null; headers: http.IncomingHttpHeaders }> {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method: init.method ?? 'GET',
        headers: { authorization: `Bearer ${token}`, ...init.headers },
      },
      (response) => {
        let bytes = 0;
        const keep: Buffer[] = [];
        response.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          if (bytes <= 1_000_000) keep.push(chunk);
        });
        response.on('end', () => {
          if (response.statusCode !== 200) {
            reject(
              new Error(
                `${path}: ${response.statusCode} ${Buffer.concat(keep).toString('utf8').slice(0, 300)}`,
              ),
            );
            return;
          }
          resolve({
            bytes,
            body: bytes <= 1_000_000 ? Buffer.concat(keep) : null,
            headers: response.headers,
          });
        });
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(init.body);
  });
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
const en = (n: number) => Math.round(n).toLocaleString('en');

/** The articles file of an ERP's full sync: every large-warehouse article with a new name. */
export function articlesCsv(count: number, version: string): string {
  const lines = ['Artikelnummer;Bezeichnung;EAN'];
  for (let n = 1; n <= count; n++)
    lines.push(`${largeArticleNummer(n)};Artikel ${n} (${version});${largeEan(n)}`);
  return `${lines.join('\r\n')}\r\n`;
}

/**
 * `npm run backup -- create` while the server serves (decision 29): the embedded database through the
 * server's backup socket, PostgreSQL with pg_dump. `env`: the server's DATA_DIR or DATABASE_URL.
 */
export function backupOperation(env: Record<string, string>): BackOfficeOperation {
  return {
    name: 'backup (npm run backup) while serving',
    run: async () => {
      const file = path.join(os.tmpdir(), `lagerscanner-bench-backup-${randomUUID()}`);
      try {
        // Paced at 16 MB of the data folder a second (decision 29): the large warehouse's takes minutes.
        const done = await runScriptAsync('src/server/cli/backup.ts', ['create', file], {
          env,
          timeoutMs: 30 * 60_000,
        });
        if (done.code !== 0) throw new Error(`backup failed: ${done.output.slice(-300)}`);
        return mb(fs.statSync(file).size);
      } finally {
        fs.rmSync(file, { force: true });
      }
    },
  };
}

/** The operations of the run, in order. `live`: how long the live desks run (s). */
export function backOfficeOperations(options: {
  scale: number;
  liveSeconds: number;
  backup?: BackOfficeOperation;
}): BackOfficeOperation[] {
  const articles = Math.max(10, Math.round(100_000 * options.scale));
  const locations = Math.max(10, Math.round(19_000 * options.scale));
  const labelRange = `from=${encodeURIComponent(largeLocationCode(1))}&to=${encodeURIComponent(largeLocationCode(locations))}`;
  const operations: BackOfficeOperation[] = [
    {
      name: 'journal CSV, no filter',
      run: async ({ base, leadToken }) => {
        const { bytes } = await download(base, '/api/leitstand/journal.csv', leadToken);
        return mb(bytes);
      },
    },
    {
      name: `import upload, ${en(articles)} articles`,
      prepare: async () => {
        const file = Buffer.from(articlesCsv(articles, randomUUID().slice(0, 8)), 'utf8');
        return {
          size: file.length,
          body: JSON.stringify({ fileName: 'articles.csv', content: file.toString('base64') }),
        };
      },
      run: async ({ base, adminToken }, prepared) => {
        const { size, body } = prepared as { size: number; body: string };
        const { body: answer } = await download(base, '/api/admin/import/articles', adminToken, {
          method: 'POST',
          body,
          headers: { 'content-type': 'application/json', 'x-idempotency-key': randomUUID() },
        });
        const report = JSON.parse(String(answer)) as { imported: boolean; written: number };
        if (!report.imported) throw new Error(`import refused: ${String(answer).slice(0, 300)}`);
        return `${mb(size)} file, ${en(report.written)} rows written`;
      },
    },
    {
      name: `location labels PDF, ${en(locations)} labels`,
      run: async ({ base, leadToken }) => {
        const { bytes } = await download(base, `/api/etiketten/lagerplatz.pdf?${labelRange}`, leadToken);
        return mb(bytes);
      },
    },
    {
      name: `location labels ZPL, ${en(locations)} labels`,
      run: async ({ base, leadToken }) => {
        const { bytes } = await download(base, `/api/etiketten/lagerplatz.zpl?${labelRange}`, leadToken);
        return mb(bytes);
      },
    },
    {
      name: '10 broad Bestand searches',
      run: async ({ base, leadToken }) => {
        const terms = ['a', 'Artikel', 'e', '1', 'blau', 'er', '0', 'Art', 'x', 'ik'];
        let found = 0;
        for (const q of terms) {
          const { body } = await download(
            base,
            `/api/leitstand/bestand/artikel?q=${encodeURIComponent(q)}`,
            leadToken,
          );
          found += (JSON.parse(String(body)) as { artikel: unknown[] }).artikel.length;
        }
        return `${found} articles listed`;
      },
    },
    {
      // The large seed's pickable notes (about 12,500 at scale 1) as one wave; it stays: no later operation
      // nor the floor's Umbuchung reads waves, and every run seeds afresh.
      name: 'wave release, a profile without filters',
      run: async ({ base, leadToken }) => {
        const write = (e: { method: string; path: string }, params: Record<string, number>, body: unknown) =>
          download(base, buildPath(e.path, params), leadToken, {
            method: e.method,
            body: JSON.stringify(body),
            headers: { 'content-type': 'application/json', 'x-idempotency-key': randomUUID() },
          });
        const profile = await write(
          kommissionierProfilAnlegen,
          {},
          {
            name: `Bench ${randomUUID().slice(0, 8)}`,
            versandart: null,
            maxPositionen: null,
            eu: null,
            eingangVor: null,
            proWagen: 20,
          },
        );
        const { id } = JSON.parse(String(profile.body)) as { id: number };
        const { body } = await write(welleFreigeben, { id }, {});
        return `${en((JSON.parse(String(body)) as { lieferscheine: number }).lieferscheine)} notes`;
      },
    },
    {
      // Permanente Inventur (issue 42): the journal's last 90 days counted per article (the whole journal read
      // a range of ids at a time) and every location given its best article's class; it stays, as the wave.
      name: "'ABC-Klassen berechnen' over the whole journal",
      run: async ({ base, leadToken }) => {
        const { body } = await download(base, abcBerechnen.path, leadToken, {
          method: abcBerechnen.method,
          body: '{}',
          headers: { 'content-type': 'application/json', 'x-idempotency-key': randomUUID() },
        });
        const answer = JSON.parse(String(body)) as { lagerplaetze: Record<'A' | 'B' | 'C', number> };
        const { A, B, C } = answer.lagerplaetze;
        return `locations A ${en(A)}, B ${en(B)}, C ${en(C)}`;
      },
    },
    {
      // Zählaufträge for every location of the large warehouse: one plan over all its codes, then 'Aufträge
      // anlegen' (a stepped write). The tasks stay, as the wave; every run seeds afresh.
      name: "'Aufträge anlegen' for every location",
      run: async ({ base, leadToken, scale }) => {
        const write = (e: { method: string; path: string }, params: Record<string, number>, body: unknown) =>
          download(base, buildPath(e.path, params), leadToken, {
            method: e.method,
            body: JSON.stringify(body),
            headers: { 'content-type': 'application/json', 'x-idempotency-key': randomUUID() },
          });
        const plan = await write(
          zaehlplanAnlegen,
          {},
          {
            name: `Bench ${randomUUID().slice(0, 8)}`,
            art: 'bereich',
            von: largeLocationCode(1),
            bis: largeLocationCode(Math.max(1, Math.round(20_000 * scale))),
            tage: null,
            klasse: null,
            faelligInTagen: 0,
            benutzerId: null,
          },
        );
        const { id } = JSON.parse(String(plan.body)) as { id: number };
        const { body } = await write(zaehlauftraegeAnlegen, { id }, {});
        const made = JSON.parse(String(body)) as { angelegt: number; uebersprungen: number };
        return `${en(made.angelegt)} tasks made, ${en(made.uebersprungen)} skipped`;
      },
    },
    {
      // The Abdeckung page's read: every location with its stock rows and the year's counts, in steps.
      name: 'Abdeckung of the year, every location',
      run: async ({ base, leadToken }) => {
        const { bytes } = await download(base, abdeckung.path, leadToken);
        return `${en(bytes)} bytes`;
      },
    },
    {
      name: `20 live desks refetching 3 journal pages per event, ${options.liveSeconds} s`,
      run: ({ base, leadToken }) => liveDesks(base, leadToken, 20, options.liveSeconds),
    },
  ];
  if (options.backup) operations.push(options.backup);
  return operations;
}

/**
 * `desks` Leitstand desks on the live stream: on every batch of changes each fetches three pages of the
 * journal (the first page, one filtered by kind, and the next page), as an open Bestand › Journal tab does.
 */
async function liveDesks(base: string, token: string, desks: number, seconds: number): Promise<string> {
  const url = new URL('/api/leitstand/live', base);
  let events = 0;
  let fetches = 0;
  let failures = 0;
  const streams: http.ClientRequest[] = [];
  const refetch = async () => {
    try {
      const first = await download(base, '/api/leitstand/journal?limit=50', token);
      const page = JSON.parse(String(first.body)) as { weiter: string | null };
      await download(base, '/api/leitstand/journal?limit=50&art=umbuchung', token);
      if (page.weiter) await download(base, `/api/leitstand/journal?limit=50&cursor=${page.weiter}`, token);
      fetches += 3;
    } catch {
      failures++;
    }
  };
  for (let i = 0; i < desks; i++) {
    const request = http.request({
      host: url.hostname,
      port: url.port,
      path: url.pathname,
      headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
    });
    request.on('response', (response) => {
      let busy = false;
      response.setEncoding('utf8');
      response.on('data', (text: string) => {
        if (!text.includes('event: change')) return;
        events++;
        if (busy) return; // a desk refetches once at a time, as react-query does
        busy = true;
        void refetch().finally(() => {
          busy = false;
        });
      });
    });
    request.on('error', () => {});
    request.end();
    streams.push(request);
  }
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  for (const stream of streams) stream.destroy();
  if (failures > 0) throw new Error(`${failures} journal fetches of the live desks failed`);
  return `${en(events)} events heard, ${en(fetches)} journal pages fetched`;
}

export interface WindowFigures {
  calls: number;
  p50: number;
  p99: number;
  max: number;
  timeouts: number;
  errors: number;
  shed: number;
}

/** The server's memory around an operation (MB): before it, its peak (sampled every 200 ms), after it. */
export interface RssFigures {
  before: number;
  peak: number;
  after: number;
}

export interface BackOfficeResult {
  quiet: WindowFigures;
  operations: {
    name: string;
    seconds: number;
    did: string;
    error: string | null;
    floor: WindowFigures;
    rss: RssFigures | null;
    /**
     * The slowest calls due while it ran: seconds into the operation, their latency (ms), and whether each was
     * a lookup (GET) or a booking (POST, which also waits for its commit's sync).
     */
    slowest: { at: number; ms: number; method: 'GET' | 'POST' }[];
  }[];
}

/** Growth of the server's RSS an operation may cause at its peak (MB), and must give back by the next one. */
export const RSS_GROWTH_MB = 150;

function figures(samples: { latency: number; outcome: CallOutcome }[]): WindowFigures {
  const ok = summarize(samples.filter((s) => s.outcome === 'ok').map((s) => s.latency));
  return {
    calls: samples.length,
    p50: ok.p50,
    p99: ok.p99,
    max: samples.reduce((most, s) => Math.max(most, s.latency), 0),
    timeouts: samples.filter((s) => s.outcome === 'timeout').length,
    errors: samples.filter((s) => s.outcome === 'error').length,
    shed: samples.filter((s) => s.outcome === 'shed').length,
  };
}

/**
 * Runs the floor (`next`: the Umbuchung mix) for the whole time, and the operations one after another, each
 * after a quiet window of `quietSeconds` (and one more after the last). A call counts for the window it was
 * due in.
 */
export async function floorUnderBackOffice(options: {
  ctx: BackOfficeContext;
  floorTokens: string[];
  next: Parameters<typeof runOpenLoop>[0]['next'];
  operations: BackOfficeOperation[];
  scanners?: number;
  quietSeconds?: number;
  log?: (line: string) => void;
  /** The server's RSS now (MB), sampled around and during each operation. */
  rss?: () => Promise<number>;
  /**
   * Each operation's client in a process of its own (back-office-lead.ts), made the same way as `operations`
   * (by `backOfficeOperations` with these options): its work then does not hold the thread that times the
   * floor. Without it, in this process.
   */
  lead?: LeadSpec;
}): Promise<BackOfficeResult> {
  const quietMs = (options.quietSeconds ?? QUIET_SECONDS) * 1000;
  const samples: { dueAt: number; latency: number; outcome: CallOutcome; method: 'GET' | 'POST' }[] = [];
  let finished = false;
  const floor = runOpenLoop({
    base: options.ctx.base,
    tokens: options.floorTokens,
    scanners: options.scanners ?? FLOOR_SCANNERS,
    seconds: 24 * 3600,
    next: options.next,
    budgetMs: 5000,
    retries: 4,
    connectFirst: 100,
    maxSockets: 1000,
    onCall: (call) => samples.push(call),
    stopWhen: () => finished,
  });
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const quiet: [number, number][] = [];
  const windows: {
    name: string;
    from: number;
    to: number;
    did: string;
    error: string | null;
    rss: RssFigures | null;
  }[] = [];
  for (const operation of options.operations) {
    const start = options.lead
      ? await leadProcess(operation.name, options.ctx, options.lead)
      : await inThisProcess(operation, options.ctx);
    const quietFrom = performance.now();
    await sleep(quietMs);
    quiet.push([quietFrom + DRAIN_MS, performance.now()]); // calls due during the operation still drain
    options.log?.(`  ${operation.name} …`);
    const rssBefore = options.rss ? await options.rss() : Number.NaN;
    let rssPeak = rssBefore;
    let sampling = true;
    const sampler = (async () => {
      while (sampling && options.rss) {
        rssPeak = Math.max(rssPeak, await options.rss());
        await sleep(200);
      }
    })();
    const from = performance.now();
    let did = '';
    let error: string | null = null;
    try {
      did = await start();
    } catch (failure) {
      error = (failure as Error).message.slice(0, 200);
    }
    const to = performance.now();
    sampling = false;
    await sampler;
    // What it gives back: the RSS once its quiet window has begun (the allocator returns freed memory lazily).
    await sleep(Math.min(quietMs, 3000));
    const rss = options.rss ? { before: rssBefore, peak: rssPeak, after: await options.rss() } : null;
    windows.push({ name: operation.name, from, to, did, error, rss });
  }
  const lastQuiet = performance.now();
  await sleep(quietMs);
  quiet.push([lastQuiet + DRAIN_MS, performance.now()]);
  finished = true;
  await floor;
  const within = (from: number, to: number) => samples.filter((s) => s.dueAt >= from && s.dueAt < to);
  return {
    quiet: figures(quiet.flatMap(([from, to]) => within(from, to))),
    operations: windows.map((w) => ({
      name: w.name,
      seconds: (w.to - w.from) / 1000,
      did: w.did,
      error: w.error,
      floor: figures(within(w.from, w.to)),
      rss: w.rss,
      slowest: within(w.from, w.to)
        .sort((a, b) => b.latency - a.latency)
        .slice(0, 5)
        .map((call) => ({ at: (call.dueAt - w.from) / 1000, ms: call.latency, method: call.method })),
    })),
  };
}

/** An operation prepared here: starting it runs it. */
async function inThisProcess(
  operation: BackOfficeOperation,
  ctx: BackOfficeContext,
): Promise<() => Promise<string>> {
  const prepared = await operation.prepare?.(ctx);
  return () => operation.run(ctx, prepared);
}

/**
 * An operation prepared in the lead's process (back-office-lead.ts), waiting for its start: starting it runs it
 * there and answers what it did, or throws its error.
 */
async function leadProcess(
  name: string,
  ctx: BackOfficeContext,
  spec: LeadSpec,
): Promise<() => Promise<string>> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      path.join(import.meta.dirname, 'back-office-lead.ts'),
      JSON.stringify({ name, ctx, spec }),
    ],
    {
      env: process.env,
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const nextLine = async () => {
    const line = await lines.next();
    if (line.done) throw new Error(`${name}: the lead's process ended (exit ${child.exitCode})`);
    return line.value;
  };
  if ((await nextLine()) !== 'ready') throw new Error(`${name}: the lead's process did not get ready`);
  return async () => {
    child.stdin.write('go\n');
    const answer = JSON.parse(await nextLine()) as { did?: string; error?: string };
    child.stdin.end();
    if (answer.error !== undefined) throw new Error(answer.error);
    return answer.did ?? '';
  };
}

/** The table rows of a run: one per operation, its floor beside the quiet windows'; the goal's verdict. */
export function backOfficeRows(
  result: BackOfficeResult,
): { what: string; figure: string; goal: string; pass: boolean }[] {
  const q = result.quiet;
  const windowText = (f: WindowFigures) =>
    `p50 ${f.p50.toFixed(1)} / p99 ${f.p99.toFixed(1)} / max ${f.max.toFixed(0)} ms, ${f.calls} calls` +
    `${f.timeouts ? `, ${f.timeouts} timeouts` : ''}${f.errors ? `, ${f.errors} errors` : ''}${f.shed ? `, ${f.shed} × 503` : ''}`;
  const limit = Math.max(q.p99 * P99_FACTOR, 1);
  const rows = [
    {
      what: `floor in the quiet windows (${FLOOR_SCANNERS} handhelds)`,
      figure: windowText(q),
      goal: '0 timeouts, 0 errors',
      pass: q.timeouts === 0 && q.errors === 0,
    },
  ];
  for (const op of result.operations) {
    rows.push({
      what: `${op.name}: ${op.seconds.toFixed(1)} s${op.did ? ` (${op.did})` : ''}`,
      figure: op.error
        ? `FAILED: ${op.error}; floor ${windowText(op.floor)}`
        : `floor ${windowText(op.floor)}`,
      goal: `floor p99 ≤ ${limit.toFixed(0)} ms (2 × quiet), 0 timeouts, 0 errors`,
      pass: op.error === null && op.floor.p99 <= limit && op.floor.timeouts === 0 && op.floor.errors === 0,
    });
  }
  return rows;
}
