import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { DatabaseStats } from '../db/connect.ts';
import { type AdmissionGate, LANES, type Lane, SHED_REASONS } from './admission.ts';
import type { HeavyOperations } from './back-office.ts';

/**
 * The process's own metrics (event-loop lag, memory, CPU, garbage collection), one set per process: the
 * event-loop monitor runs once however many apps a test builds.
 */
let processRegistry: Registry | null = null;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry, eventLoopMonitoringPrecision: 20 });
  }
  return processRegistry;
}

const LOGIN_ROUTES = new Set(['/api/user/login', '/api/user/login/qrcode']);

/**
 * GET /metrics in Prometheus's text format (prom-client), for an integration token only (`npm run token`):
 * request durations per route, bookings per call, refusals, idempotent replays, failed and locked logins,
 * database connections, the admission gate (requests in work and in line, those answered 503 for overload),
 * and the process's event-loop lag. Routes are labelled by their pattern
 * (`/api/inventur/findlp/:code`), never by the address as requested, so the series stay few.
 */
export function registerMetrics(
  app: FastifyInstance,
  options: {
    authorize: (request: FastifyRequest) => Promise<unknown>;
    databaseStats?: () => DatabaseStats;
    admission?: AdmissionGate;
    heavy?: HeavyOperations;
  },
): { observeHeld: (lane: Lane, ms: number) => void } {
  const registry = new Registry();
  const duration = new Histogram({
    name: 'lagerscanner_http_request_duration_seconds',
    help: 'Time from a request to its answer, by route pattern, method and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const bookings = new Counter({
    name: 'lagerscanner_bookings_total',
    help: 'Writes that went through (stock bookings, counts, captures, packing), by route pattern.',
    labelNames: ['route'] as const,
    registers: [registry],
  });
  const refusals = new Counter({
    name: 'lagerscanner_refusals_total',
    help: 'API requests answered with 4xx, by route pattern and status (429: a limit was reached).',
    labelNames: ['route', 'status'] as const,
    registers: [registry],
  });
  const replays = new Counter({
    name: 'lagerscanner_idempotent_replays_total',
    help: 'Repeated writes answered from the stored outcome instead of being done again (a retry).',
    labelNames: ['route'] as const,
    registers: [registry],
  });
  const loginFailures = new Counter({
    name: 'lagerscanner_login_failures_total',
    help: 'Refused logins: wrong (401) or locked by the attempt limits (429), by login kind.',
    labelNames: ['login', 'reason'] as const,
    registers: [registry],
  });
  if (options.databaseStats) {
    const stats = options.databaseStats;
    new Gauge({
      name: 'lagerscanner_db_connections',
      help: 'Database connections: open, idle, and requests waiting for one.',
      labelNames: ['state'] as const,
      registers: [registry],
      collect() {
        const now = stats();
        this.set({ state: 'open' }, now.total);
        this.set({ state: 'idle' }, now.idle);
        this.set({ state: 'waiting' }, now.waiting);
      },
    });
  }

  if (options.admission) {
    const gate = options.admission;
    new Counter({
      name: 'lagerscanner_requests_shed_total',
      help:
        'API requests answered 503 with Retry-After because the server was overloaded (decision 26): ' +
        'estimate = the line was too long on arrival, waited = its turn came too late; ' +
        'gone = its client left while it waited (nothing answered).',
      labelNames: ['reason'] as const,
      registers: [registry],
      collect() {
        this.reset();
        for (const reason of SHED_REASONS) this.inc({ reason }, gate.shed[reason]);
      },
    });
    new Gauge({
      name: 'lagerscanner_admission_requests',
      help: 'API requests in work and waiting in line for their place (the admission gate, decision 26).',
      labelNames: ['state'] as const,
      registers: [registry],
      collect() {
        this.set({ state: 'in_work' }, gate.inWork);
        this.set({ state: 'waiting' }, gate.waiting);
      },
    });
    new Gauge({
      name: 'lagerscanner_admission_waiting',
      help: 'API requests waiting for their place, by lane: floor = the handhelds, backOffice = Leitstand, admin, exports, labels, imports (they wait while the floor waits).',
      labelNames: ['lane'] as const,
      registers: [registry],
      collect() {
        for (const lane of LANES) this.set({ lane }, gate.waitingIn(lane));
      },
    });
    new Gauge({
      name: 'lagerscanner_admission_line_seconds',
      help: 'How long the admission line would take to move through the places: each waiting request by the recent time of its kind of call, divided by the places.',
      registers: [registry],
      collect() {
        this.set(gate.lineSeconds);
      },
    });
  }

  const held = new Histogram({
    name: 'lagerscanner_admission_held_seconds',
    help: 'How long each API call or back-office step held its place in the admission gate, by lane: a back-office step that holds it long is what a handheld waits for (decision 31).',
    labelNames: ['lane'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1],
    registers: [registry],
  });

  if (options.heavy) {
    const heavy = options.heavy;
    new Gauge({
      name: 'lagerscanner_heavy_operations',
      help: 'Heavy back-office operations running now (journal CSV, label files, imports, backups); at most HEAVY_OPERATIONS_MAX.',
      registers: [registry],
      collect() {
        this.set(heavy.inWork);
      },
    });
  }

  app.addHook('onResponse', async (request: FastifyRequest, reply: FastifyReply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const status = reply.statusCode;
    duration.observe({ method: request.method, route, status: String(status) }, reply.elapsedTime / 1000);
    if (!route.startsWith('/api/')) return;
    if (reply.getHeader('idempotent-replayed') === 'true') replays.inc({ route });
    else if (status < 300 && request.method !== 'GET' && !LOGIN_ROUTES.has(route)) bookings.inc({ route });
    if (status >= 400 && status < 500) {
      refusals.inc({ route, status: String(status) });
      if (LOGIN_ROUTES.has(route) && (status === 401 || status === 429))
        loginFailures.inc({
          login: route.endsWith('/qrcode') ? 'card' : 'password',
          reason: status === 401 ? 'wrong' : 'locked',
        });
    }
  });

  const merged = Registry.merge([registry, processMetrics()]);
  app.get('/metrics', async (request, reply) => {
    await options.authorize(request);
    return reply.type(merged.contentType).send(await merged.metrics());
  });
  return { observeHeld: (lane, ms) => held.observe({ lane }, ms / 1000) };
}
