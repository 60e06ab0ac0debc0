import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import type { Kysely } from 'kysely';
import type { Database } from '../src/server/db/schema.ts';
import type { Workload } from './workloads.ts';

/** One load run's figures. */
export interface Figures {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  requests: number;
  /** What the errors were, e.g. '3 × 400, 2 timeouts'. */
  errorKinds?: string;
}

/**
 * A workload over HTTP with autocannon: one connection per token (one logged-in worker each) for `seconds`,
 * every request new.
 */
export async function loadHttp(options: {
  base: string;
  tokens: string[];
  workload: Workload;
  seconds: number;
}): Promise<Figures> {
  const connections = options.tokens.length;
  let handedOut = 0;
  // Work that runs out (the open items of a small warehouse) stops when it is done, not at the deadline.
  const left = options.workload.remaining?.();
  const bounded = left !== undefined && left < options.seconds * 5000;
  const result = await autocannon({
    url: options.base,
    connections,
    ...(bounded ? { amount: left } : { duration: options.seconds }),
    requests: [
      {
        setupRequest: (request, context) => {
          const next = options.workload.next();
          const connection = context as { token?: string };
          connection.token ??= options.tokens[handedOut++ % connections];
          const headers: Record<string, string> = { authorization: `Bearer ${connection.token}` };
          if (next.method !== 'GET') {
            headers['content-type'] = 'application/json';
            headers['x-idempotency-key'] = randomUUID();
          }
          return {
            ...request,
            method: next.method,
            path: next.path,
            headers,
            ...(next.body === undefined ? {} : { body: JSON.stringify(next.body) }),
          };
        },
      },
    ],
  });
  const kinds = Object.entries(result.statusCodeStats ?? {})
    .filter(([code]) => !code.startsWith('2'))
    .map(([code, stats]) => `${stats.count} × ${code}`);
  if (result.timeouts > 0) kinds.push(`${result.timeouts} timeouts`);
  if (result.errors > result.timeouts) kinds.push(`${result.errors - result.timeouts} connection errors`);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
    requests: result.requests.total,
    errorKinds: kinds.join(', '),
  };
}

/** The same work straight on the database (the database floor): one caller per user for `seconds`. */
export async function loadDirect(options: {
  db: Kysely<Database>;
  userIds: number[];
  workload: Workload;
  seconds: number;
}): Promise<Figures> {
  const latencies: number[] = [];
  let errors = 0;
  const kinds = new Map<string, number>();
  const end = performance.now() + options.seconds * 1000;
  const caller = async (userId: number) => {
    while (performance.now() < end && (options.workload.remaining?.() ?? 1) > 0) {
      const request = options.workload.next();
      const started = performance.now();
      try {
        await request.direct(options.db, userId);
      } catch (error) {
        errors++;
        const kind = error instanceof Error ? error.message.slice(0, 60) : String(error);
        kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
      }
      latencies.push(performance.now() - started);
    }
  };
  const started = performance.now();
  await Promise.all(options.userIds.map(caller));
  const seconds = (performance.now() - started) / 1000;
  const errorKinds = [...kinds].map(([kind, n]) => `${n} × ${kind}`).join(', ');
  return {
    rps: latencies.length / seconds,
    ...percentiles(latencies),
    errors,
    requests: latencies.length,
    errorKinds,
  };
}

function percentiles(values: number[]): { p50: number; p99: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
  return { p50: at(0.5), p99: at(0.99) };
}

/**
 * The HTTP floor: a bare node:http server answering constant JSON, in its own process like the real server,
 * under the same load.
 */
export async function httpFloor(connections: number, seconds: number): Promise<Figures> {
  const body = JSON.stringify({ found: true, count: 1, id: 1, nummer: '2000001', name: 'Artikel 1 (Stk)' });
  const code = `
    const body = ${JSON.stringify(body)};
    const server = require('node:http').createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });
    server.listen(0, '127.0.0.1', () => console.log(server.address().port));`;
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      child.stdout.once('data', (chunk) => resolve(Number(String(chunk).trim())));
      child.once('exit', () => reject(new Error('the HTTP floor server did not start')));
    });
    const result = await autocannon({ url: `http://127.0.0.1:${port}/`, connections, duration: seconds });
    return {
      rps: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      errors: result.errors + result.timeouts + result.non2xx,
      requests: result.requests.total,
    };
  } finally {
    child.kill('SIGKILL');
  }
}

/** Resident memory of a process in MB (Linux). */
export async function rssMb(pid: number): Promise<number> {
  const { readFile } = await import('node:fs/promises');
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
  return kb / 1024;
}
