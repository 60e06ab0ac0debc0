import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { type Kysely, sql } from 'kysely';
import { texts } from '../contract/texts.ts';
import { SessionCache } from './auth/session-cache.ts';
import type { Config } from './config.ts';
import type { DatabaseStats } from './db/connect.ts';
import type { Database } from './db/schema.ts';
import { authRoutes } from './features/auth/routes.ts';
import { batchRoutes } from './features/batch/routes.ts';
import { containerRoutes } from './features/container/routes.ts';
import { etikettenRoutes } from './features/etiketten/routes.ts';
import { exportRoutes } from './features/export/routes.ts';
import { inventurRoutes } from './features/inventur/routes.ts';
import { kartonagenRoutes } from './features/kartonagen/routes.ts';
import { kommissionierungRoutes } from './features/kommissionierung/routes.ts';
import { kommissionierwagenRoutes } from './features/kommissionierwagen/routes.ts';
import { leitstandRoutes } from './features/leitstand/routes.ts';
import { lookupRoutes } from './features/lookup/routes.ts';
import { nachschubRoutes } from './features/nachschub/routes.ts';
import { paketausgangRoutes } from './features/paketausgang/routes.ts';
import { paketinhaltRoutes } from './features/paketinhalt/routes.ts';
import { retoureRoutes } from './features/retoure/routes.ts';
import { transporterRoutes } from './features/transporter/routes.ts';
import { umbuchungRoutes } from './features/umbuchung/routes.ts';
import { wareneingangRoutes } from './features/wareneingang/routes.ts';
import { wmsretoureRoutes } from './features/wmsretoure/routes.ts';
import { zaehlauftragRoutes } from './features/zaehlauftrag/routes.ts';
import { zollpaketRoutes } from './features/zollpaket/routes.ts';
import { AdmissionGate, type Lane } from './http/admission.ts';
import { registerApiDocs } from './http/api-docs.ts';
import { HeavyOperations } from './http/back-office.ts';
import { requireIntegration } from './http/caller.ts';
import { CsrfTokens } from './http/csrf.ts';
import type { Deps } from './http/deps.ts';
import { DiskFullWatch } from './http/disk-full.ts';
import { answerError, registerErrorHandler } from './http/error-handler.ts';
import { answerInCallersLanguage } from './http/language.ts';
import { registerMetrics } from './http/metrics.ts';
import { isSourceMap, registerWebApp } from './http/web.ts';
import { type ChangeFeed, localChangeFeed } from './live/changes.ts';

export interface AppOptions {
  db: Kysely<Database>;
  config: Config;
  /** Where the JSON log lines go (default stdout); tests read them. */
  logStream?: NodeJS.WritableStream;
  /** How long /readyz stays false after the database reported a full disk (tests shorten it). */
  diskFullHoldMs?: number;
  /** Milliseconds, for the session cache's expiry and a picking claim's timeout (tests move it by hand). */
  clock?: () => number;
  /** The database connections' use, for GET /metrics. */
  databaseStats?: () => DatabaseStats;
  /** Where writes are announced to live views (default: this process only; PostgreSQL: LISTEN/NOTIFY). */
  changes?: ChangeFeed;
  /**
   * The admission gate (decision 26): how many API requests work at once — the database's `concurrency`
   * (default 1, PGlite's) — and, for tests, its clock (monotonic ms).
   */
  admission?: { concurrency?: number; now?: () => number; backOfficePauseShare?: number };
  /**
   * No other process uses the database (PGlite: this process holds its data folder); default: no
   * DATABASE_URL. An import left at work is then a dead one, completed or dropped at once (decision 30).
   */
  exclusiveDatabase?: boolean;
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;
/** A back-office step that held its place at least this long is logged (debug): what made scans wait. */
const LONG_STEP_MS = 50;

/** The whole server as a Fastify instance, without listening: tests call `app.inject()` on it. */
export async function buildApp({
  db,
  config,
  logStream,
  diskFullHoldMs,
  clock,
  databaseStats,
  changes = localChangeFeed(),
  admission: admissionOptions = {},
  exclusiveDatabase = config.databaseUrl === null,
}: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      ...(logStream ? { stream: logStream } : {}),
      redact: ['req.headers.authorization', 'req.headers["access-token"]', 'req.headers["x-csrf-token"]'],
    },
    bodyLimit: config.bodyLimitBytes,
    // A client that opens a request and stalls (a body that never comes, a byte now and then) must not hold a
    // connection: the whole request within requestTimeout (Node answers 408 and closes), no silence longer
    // than connectionTimeout. Node looks for overdue requests every connectionsCheckingInterval (30 s by
    // default, which would let a 30 s timeout run to a minute).
    requestTimeout: config.requestTimeoutSeconds * 1000,
    connectionTimeout: config.connectionTimeoutSeconds * 1000,
    keepAliveTimeout: config.keepAliveTimeoutSeconds * 1000,
    http: {
      connectionsCheckingInterval: Math.min(1000, config.requestTimeoutSeconds * 250),
      // Node checks at creation that the headers' timeout is not above the request's.
      requestTimeout: config.requestTimeoutSeconds * 1000,
      headersTimeout: config.requestTimeoutSeconds * 1000,
    },
    frameworkErrors: (error, request, reply) => answerError(error, request, reply),
    trustProxy: config.trustProxy,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    // Request ids: take a sane one from a proxy, else make one; echoed in x-request-id for support calls.
    requestIdHeader: false,
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
  });

  const routeTable: string[] = [];
  app.decorate('routeTable', routeTable);
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) if (method !== 'HEAD') routeTable.push(`${method} ${route.url}`);
  });

  // An answer leaves once the commits it depends on are on disk (decision 28); the wait is here, after the
  // call gave its place in the admission gate on, so the next call commits meanwhile and shares the sync.
  app.decorateRequest('durability', null);
  app.decorateRequest('authUser', null);
  app.addHook('onSend', async (request) => {
    const pending = request.durability?.pending;
    if (pending) await pending;
  });

  // Every text of a request in its caller's language, every error body with a stable code (decision 35).
  await answerInCallersLanguage(app);
  const diskFull = new DiskFullWatch(diskFullHoldMs);
  registerErrorHandler(app, diskFull);
  const csrf = await CsrfTokens.load(db);

  const corsOrigins = new Set(config.corsOrigins);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
    // Same origin by default; a separate web host must be listed in CORS_ORIGINS.
    const origin = request.headers.origin;
    if (typeof origin === 'string' && corsOrigins.has(origin) && request.url.startsWith('/api/')) {
      reply.header('access-control-allow-origin', origin);
      reply.header('access-control-allow-credentials', 'true');
      reply.header('vary', 'Origin');
      if (request.method === 'OPTIONS') {
        return reply
          .code(204)
          .header('access-control-allow-methods', 'GET, POST, PUT')
          .header(
            'access-control-allow-headers',
            'authorization, access-token, content-type, x-idempotency-key, x-csrf-token, x-requested-with, x-request-id, x-language',
          )
          .header('access-control-max-age', '600')
          .send();
      }
    }
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    reply.header('x-frame-options', 'DENY');
    if (request.url.startsWith('/api/')) {
      reply.header('cache-control', 'no-store');
      const token = request.headers['x-csrf-token'];
      if (token !== undefined && (typeof token !== 'string' || !csrf.verify(token))) {
        return reply.code(403).send({ success: false, message: texts.errors.csrf });
      }
    }
  });

  // Every contract call waits here for its place; past OVERLOAD_MAX_WAIT_MS it is answered 503 at once. Not
  // the health checks, /metrics, the web app or the live stream (decision 26). The back office waits behind
  // the handhelds, and its long work takes a place per step (decision 31).
  let heldHistogram: ((lane: Lane, ms: number) => void) | undefined;
  const admission = new AdmissionGate({
    concurrency: admissionOptions.concurrency ?? 1,
    maxWaitMs: config.overloadMaxWaitMs,
    ...(admissionOptions.now ? { now: admissionOptions.now } : {}),
    ...(admissionOptions.backOfficePauseShare
      ? { backOfficePauseShare: admissionOptions.backOfficePauseShare }
      : {}),
    warn: (fields, message) => app.log.warn(fields, message),
    held: (lane, kind, ms) => {
      heldHistogram?.(lane, ms);
      // A back-office step that held the server for long is what an operator looks for when scans lag.
      if (lane === 'backOffice' && ms >= LONG_STEP_MS)
        app.log.debug({ kind: kind.name, ms: Math.round(ms) }, 'back-office step held its place long');
    },
  });
  app.decorate('admission', admission);
  const heavy = new HeavyOperations(config.heavyOperationsMax);
  app.decorate('heavy', heavy);
  const deps: Deps = {
    db,
    config,
    sessions: new SessionCache(config.sessionCacheSeconds * 1000, clock),
    changes,
    clock: clock ?? Date.now,
    admission,
    heavy,
    exclusiveDatabase,
  };
  app.addHook('onClose', () => changes.close());
  heldHistogram = registerMetrics(app, {
    authorize: (request) => requireIntegration(deps, request),
    databaseStats,
    admission,
    heavy,
  }).observeHeld;

  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    if (diskFull.recentlyFull) {
      app.log.warn('not ready: the database disk was full moments ago');
      return reply.code(503).send({ success: false, message: texts.errors.unavailable });
    }
    try {
      await withTimeout(sql`select 1`.execute(db), 2000);
      return { status: 'ok' };
    } catch (error) {
      app.log.warn({ err: error }, 'database not reachable');
      return reply.code(503).send({ success: false, message: texts.errors.unavailable });
    }
  });

  await app.register(async (api) => {
    authRoutes(api, deps);
    lookupRoutes(api, deps);
    inventurRoutes(api, deps);
    umbuchungRoutes(api, deps);
    nachschubRoutes(api, deps);
    paketinhaltRoutes(api, deps);
    kartonagenRoutes(api, deps);
    paketausgangRoutes(api, deps);
    retoureRoutes(api, deps);
    batchRoutes(api, deps);
    containerRoutes(api, deps);
    transporterRoutes(api, deps);
    wmsretoureRoutes(api, deps);
    wareneingangRoutes(api, deps);
    zollpaketRoutes(api, deps);
    kommissionierungRoutes(api, deps);
    kommissionierwagenRoutes(api, deps);
    zaehlauftragRoutes(api, deps);
    exportRoutes(api, deps);
    leitstandRoutes(api, deps);
    etikettenRoutes(api, deps);
  });
  registerApiDocs(app);

  await registerWebApp(app, config, csrf);
  app.setNotFoundHandler((request, reply) => {
    const isApi = request.url === '/api' || request.url.startsWith('/api/');
    // A missing file is a 404, not the web app: only page paths answer index.html.
    const isFile = /^\/(images|assets)\//.test(request.url) || isSourceMap(request.url);
    if (!isApi && !isFile && (request.method === 'GET' || request.method === 'HEAD'))
      return app.sendIndexHtml(reply);
    return reply.code(404).send({ success: false, message: texts.errors.routeNotFound });
  });

  return app;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every registered "METHOD /path", for the route-table test. */
    routeTable: string[];
    /** The admission gate of the API's calls (decision 26); tests fill its places by hand. */
    admission: AdmissionGate;
    /** The heavy back-office operations running now (DESIGN §10). */
    heavy: HeavyOperations;
  }
}
