import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An HTTP proxy on 127.0.0.1 between the simulated scanners and the server instances that breaks
 * connections the way a warehouse's Wi-Fi does. Per request it picks one fault (or none):
 *
 * - `reset`: the connection is reset before anything reaches the server;
 * - `cut`: the request is forwarded and the connection cut at once, while the server is still working on
 *   it — the client's retry races its own first attempt;
 * - `drop`: the server's answer is awaited and thrown away: the booking happened, the client never hears;
 * - `delay`: the answer is held until after the client's 5 s budget ran out.
 *
 * Requests go round-robin to the instances that are up; an instance that is down (killed) costs the
 * client a refused connection, as a real load balancer without health checks would.
 */
export type Fault = 'reset' | 'cut' | 'drop' | 'delay';
export const FAULTS: readonly Fault[] = ['reset', 'cut', 'drop', 'delay'];

export interface FaultRates {
  reset: number;
  cut: number;
  drop: number;
  delay: number;
}

export interface FaultProxy {
  url: string;
  /** Counts of faults injected so far, and requests passed through untouched. */
  counts: Record<Fault | 'passed' | 'noUpstream' | 'upstreamLost', number>;
  setUpstreams(ports: number[]): void;
  /** Turns fault injection on or off (off: a plain proxy, for the settling phase at the end). */
  setFaults(on: boolean): void;
  close(): Promise<void>;
}

/** How often a fault kind not seen yet is brought in (pickFault). */
const EVERY_KIND_AFTER = 25;

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
]);

export async function startFaultProxy(options: {
  rates: FaultRates;
  delayMs: number;
  random: () => number;
}): Promise<FaultProxy> {
  let upstreams: number[] = [];
  let next = 0;
  let faultsOn = true;
  const counts: FaultProxy['counts'] = {
    reset: 0,
    cut: 0,
    drop: 0,
    delay: 0,
    passed: 0,
    noUpstream: 0,
    upstreamLost: 0,
  };
  const timers = new Set<NodeJS.Timeout>();

  /** Requests while faults were on: every EVERY_KIND_AFTER-th brings in a kind not yet seen (below). */
  let rolled = 0;

  /**
   * A fault by its rate — but every EVERY_KIND_AFTER-th request one that has not happened yet, until it has:
   * a short run on a busy machine makes few requests, and at a rate of 1 % a 'delay' may never come (CI: a
   * 30 s run under load had none, and checked nothing about delayed answers). A drop or delay counts once
   * its answer came, so it is tried again until one did.
   */
  function pickFault(): Fault | null {
    if (!faultsOn) return null;
    rolled++;
    const missing = FAULTS.find((fault) => counts[fault] === 0);
    if (missing && rolled % EVERY_KIND_AFTER === 0) return missing;
    let roll = options.random();
    for (const fault of FAULTS) {
      roll -= options.rates[fault];
      if (roll < 0) return fault;
    }
    return null;
  }

  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const server = http.createServer((req, res) => {
    const fault = pickFault();
    if (fault === 'reset') {
      counts.reset++;
      req.socket.resetAndDestroy();
      return;
    }
    const port = upstreams.length > 0 ? upstreams[next++ % upstreams.length] : undefined;
    if (port === undefined) {
      counts.noUpstream++;
      req.socket.destroy();
      return;
    }
    const headers = { ...req.headers };
    for (const name of HOP_BY_HOP) delete headers[name];
    const forward = http.request(
      { host: '127.0.0.1', port, method: req.method, path: req.url, headers, agent },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('error', () => {
          counts.upstreamLost++;
          req.socket.destroy();
        });
        answer.on('end', () => {
          if (fault === 'drop') {
            counts.drop++;
            req.socket.destroy();
            return;
          }
          const send = () => {
            const body = Buffer.concat(chunks);
            const out: http.OutgoingHttpHeaders = {};
            for (const [name, value] of Object.entries(answer.headers)) {
              if (!HOP_BY_HOP.has(name) && value !== undefined) out[name] = value;
            }
            out['content-length'] = body.length;
            if (!res.destroyed) res.writeHead(answer.statusCode ?? 502, out).end(body);
          };
          if (fault === 'delay') {
            counts.delay++;
            const timer = setTimeout(() => {
              timers.delete(timer);
              send();
            }, options.delayMs);
            timers.add(timer);
            return;
          }
          if (fault === null) counts.passed++;
          send();
        });
      },
    );
    // The instance died under the request (or refused it): the client sees its connection drop.
    forward.on('error', () => {
      counts.upstreamLost++;
      req.socket.destroy();
    });
    req.pipe(forward);
    if (fault === 'cut') {
      // Once the whole request is on its way, hang up on the client; the server carries on.
      req.on('end', () => {
        counts.cut++;
        setImmediate(() => req.socket.destroy());
      });
    }
  });
  // A client that hangs up mid-request is the point of this proxy, not an error.
  server.on('clientError', (_error, socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    counts,
    setUpstreams(ports) {
      upstreams = [...ports];
    },
    setFaults(on) {
      faultsOn = on;
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      agent.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
