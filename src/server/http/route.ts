import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { Endpoint } from '../../contract/endpoint.ts';
import { exportMessages } from '../../contract/export.ts';
import { inputErrorMessage } from '../../contract/input-errors.ts';
import { hasRole } from '../../contract/roles.ts';
import { texts } from '../../contract/texts.ts';
import {
  type AttemptResult,
  type Budget,
  budgets,
  type Reservation,
  reserveAttempt,
} from '../auth/attempt-limits.ts';
import { checkIntegrationToken, findLiveIntegrationToken } from '../auth/integration-tokens.ts';
import { hashToken } from '../auth/secrets.ts';
import type { SessionCache } from '../auth/session-cache.ts';
import { type AuthUser, checkSession } from '../auth/sessions.ts';
import type { Config } from '../config.ts';
import { type Deferred, deferred } from '../db/durability.ts';
import type { Database } from '../db/schema.ts';
import {
  DomainError,
  forbidden,
  invalid,
  tooManyAttempts,
  unauthenticated,
  WrongSecret,
} from '../domain/errors.ts';
import type { ChangeFeed } from '../live/changes.ts';
import { type AuditEntry, recordAudit } from '../repositories/audit.repository.ts';
import type { AdmissionGate, Lane } from './admission.ts';
import { type HeavyOperations, type Steps, stepsIn } from './back-office.ts';
import { applyOnce, parseIdempotencyKey, requestHash, storedOutcome } from './idempotency.ts';

export interface Deps {
  db: Kysely<Database>;
  config: Config;
  /** Logins this instance checked moments ago. */
  sessions: SessionCache;
  /** Where every successful write is announced, for the Leitstand's live views. */
  changes: ChangeFeed;
  /** Milliseconds since the epoch: the time rules that run out (a picking claim) read it; tests move it. */
  clock: () => number;
  /** Where every contract call waits for its place, or is answered 503 when the line is too long (decision 26). */
  admission: AdmissionGate;
  /** The heavy back-office operations running now, at most HEAVY_OPERATIONS_MAX (DESIGN §10). */
  heavy: HeavyOperations;
  /**
   * No other process uses this database (the embedded one holds its data folder alone): work this server
   * does not know of — an import run left at work — is a dead one, completed or dropped at once.
   */
  exclusiveDatabase: boolean;
}

export interface RouteContext<Authed extends boolean> {
  /** The database — inside the exactly-once transaction for mutating calls. */
  db: Kysely<Database>;
  config: Config;
  user: Authed extends true ? AuthUser : null;
  /** The X-Idempotency-Key of a mutating call, journalled with its effect. */
  requestKey: string | null;
  request: FastifyRequest;
}

type Input<E extends Endpoint> = {
  params: z.output<E['params']>;
  body: z.output<E['body']>;
  /** The query string, parsed by the endpoint's `query` schema (undefined when it takes none). */
  query: E['query'] extends z.ZodType ? z.output<E['query']> : undefined;
};
type Handler<E extends Endpoint, Authed extends boolean> = (
  input: Input<E>,
  ctx: RouteContext<Authed>,
) => Promise<z.input<E['response']>>;

/**
 * A call that checks a secret (password, card, cheat code) names the budgets its attempts count against and
 * the German 429 text (decision 14). The handler throws a `WrongSecret` when the secret was wrong.
 */
export interface RouteOptions<E extends Endpoint, Authed extends boolean> {
  attempts?: (
    input: Input<E>,
    ctx: { config: Config; user: Authed extends true ? AuthUser : null; ip: string },
  ) => { budgets: Budget[]; tooMany: string } | null;
  /**
   * What the exactly-once store keeps of the answer, and so what a repeat of the call gets: a secret shown
   * once (a new card's text, a new integration token) is left out, so it is never stored in clear.
   */
  storedAnswer?: (answer: z.output<E['response']>) => z.output<E['response']>;
  /**
   * A refused write that the Protokoll keeps (a refused privileged attempt: demoting the last admin): what
   * it was — journalled with who, when, outcome 'refused' and the refusal's message, outside the rolled-back
   * transaction, once per key (not for a replay).
   */
  auditRefusal?: (
    input: Input<E>,
    db: Kysely<Database>,
  ) => Promise<Pick<AuditEntry, 'action' | 'subject' | 'detail'>>;
  /** This call's largest body in bytes, instead of BODY_LIMIT_KB (the import upload). */
  bodyLimit?: number;
}

/** The token from `Authorization: Bearer …` or `Access-Token: …` (the client sends both). */
export function tokenOf(request: FastifyRequest): string | null {
  const authorization = request.headers.authorization;
  if (typeof authorization === 'string') {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (match?.[1]) return match[1];
  }
  const accessToken = request.headers['access-token'];
  if (typeof accessToken === 'string' && accessToken.trim() !== '') return accessToken.trim();
  return null;
}

export async function requireUser(deps: Deps, request: FastifyRequest): Promise<AuthUser> {
  const token = tokenOf(request);
  if (!token || token.length > 200) throw unauthenticated();
  const tokenHash = hashToken(token);
  const known = deps.sessions.get(tokenHash);
  if (known) return known;
  const user = await checkSession(deps.db, deps.config.sessionIdleMinutes, tokenHash);
  if (!user) {
    // An integration token is no login: say so, instead of the staff's "log in again".
    if (await findLiveIntegrationToken(deps.db, token)) throw forbidden(exportMessages.integrationOnly);
    throw unauthenticated();
  }
  deps.sessions.remember(tokenHash, user);
  return user;
}

/**
 * The caller of a staff call and whether their role may make it: 401 without a live login, 403 (German)
 * below the call's role. The user is noted on the request first, so the request log names whoever was
 * refused; a refused role is also journalled (audit `access.denied`: who, which call, when, refused).
 */
export async function loginFor(deps: Deps, endpoint: Endpoint, request: FastifyRequest): Promise<AuthUser> {
  if (request.authUser) return request.authUser;
  const user = await requireUser(deps, request);
  request.authUser = user;
  if (endpoint.role && !hasRole(user.role, endpoint.role)) {
    await recordAudit(deps.db, {
      userId: user.id,
      action: 'access.denied',
      subject: `${endpoint.method} ${endpoint.path}`,
      detail: { outcome: 'refused', role: user.role },
      requestKey: null,
    });
    throw forbidden(texts.errors.role[endpoint.role]);
  }
  return user;
}

/**
 * An `onRequest` hook: a call that brings a body is refused from its headers, before the body is read — a
 * caller without a token never has their body read or parsed (401 at once, not after BODY_LIMIT_KB or a
 * large upload came in). The back office's calls (Leitstand, admin) check the whole login and role there,
 * in the admission gate like the call itself (403 before the body too); the floor's calls, whose role is
 * any login and whose bodies are small, check a given token in their one place in the gate, as before (a
 * second place per scan would double every booking's turns in the gate).
 */
export function loginBeforeBody(deps: Deps, endpoint: Endpoint): (request: FastifyRequest) => Promise<void> {
  const kind = deps.admission.kind(`${admissionKind(endpoint)} (login)`);
  const lane = laneOf(endpoint);
  return async (request) => {
    const length = request.headers['content-length'];
    const body =
      request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
    if (!body) return;
    const token = tokenOf(request);
    if (!token || token.length > 200) throw unauthenticated();
    if (lane === 'floor') return;
    await deps.admission.run(() => loginFor(deps, endpoint, request), request.raw.socket, kind, lane);
  };
}

/**
 * The integration behind `Authorization: Bearer <integration token>`, for the export API. A scanner's
 * login is refused with 403 (it is a valid login, just not for this API); anything else with 401.
 */
export async function requireIntegration(
  deps: Deps,
  request: FastifyRequest,
): Promise<{ id: number; name: string }> {
  const authorization = request.headers.authorization;
  const bearer =
    typeof authorization === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1] : undefined;
  const token = tokenOf(request);
  if (!token) throw unauthenticated(exportMessages.missingToken);
  // Every token offered is an attempt, counted before it is checked, like a password (decision 14).
  const attempt = await reserveAttempt(
    deps.db,
    [budgets.integrationFromAddress(deps.config, request.ip)],
    exportMessages.tooManyTokens,
    request.log,
  );
  if (bearer && bearer.length <= 200) {
    const integration = await checkIntegrationToken(deps.db, bearer);
    if (integration) {
      await attempt.settle('succeeded');
      return integration;
    }
  }
  if (token.length <= 200) {
    const tokenHash = hashToken(token);
    const login =
      deps.sessions.get(tokenHash) ??
      (await checkSession(deps.db, deps.config.sessionIdleMinutes, tokenHash));
    if (login) {
      // A scanner's own login: no guess at a token.
      await attempt.settle('unchecked');
      throw forbidden(exportMessages.scannerLogin);
    }
  }
  await attempt.settle('failed');
  throw unauthenticated(exportMessages.unknownToken);
}

/**
 * Registers one contract endpoint that needs a logged-in user. The handler gets parsed input and answers the
 * response shape; this wrapper does what every route shares: login check, input validation, exactly-once for
 * mutating calls, and checking the answer against the contract.
 */
export function registerEndpoint<E extends Endpoint>(
  app: FastifyInstance,
  deps: Deps,
  endpoint: E,
  handler: Handler<E, true>,
  options: RouteOptions<E, true> = {},
): void {
  if (!endpoint.auth) throw new Error(`${endpoint.name} is public: use registerPublicEndpoint`);
  if (endpoint.audience !== 'scanner') throw new Error(`${endpoint.name} is for integrations`);
  register(app, deps, endpoint, handler as Handler<E, boolean>, options as RouteOptions<E, boolean>);
}

/** The two logins: no token needed, no idempotency key (a login opens a new session each time). */
export function registerPublicEndpoint<E extends Endpoint>(
  app: FastifyInstance,
  deps: Deps,
  endpoint: E,
  handler: Handler<E, false>,
  options: RouteOptions<E, false> = {},
): void {
  if (endpoint.auth) throw new Error(`${endpoint.name} needs a login: use registerEndpoint`);
  register(app, deps, endpoint, handler as Handler<E, boolean>, options as RouteOptions<E, boolean>);
}

/** What a stream's handler gets besides its request and reply. */
export interface StreamContext {
  user: AuthUser;
  /**
   * Whether the login may still read the stream, checked as every other call checks it (the session cache,
   * else the database): call it before each event. False: the stream has been ended.
   */
  stillAllowed(): Promise<boolean>;
}

/**
 * A call that answers with a stream (the Leitstand's live events) rather than one JSON body: the login and
 * role checks of every other call, then the handler owns the reply. A stream lives as long as its login:
 * its login is checked again in the database every SESSION_CACHE_SECONDS (at least every second) and, by
 * the handler, before each event; a logout through this instance ends it at once. Whichever finds the login
 * ended, its role lowered or its user switched off ends the stream (the client's reconnect then gets the
 * 401 or 403 of every other call). One login holds at most LIVE_STREAMS_PER_LOGIN streams on an instance
 * (429 with `tooMany`'s text past it). HEAD answers the stream's headers and no stream.
 */
export function registerStream<E extends Endpoint>(
  app: FastifyInstance,
  deps: Deps,
  endpoint: E,
  handler: (request: FastifyRequest, reply: FastifyReply, ctx: StreamContext) => Promise<void>,
  options: { tooMany: (max: number) => string },
): void {
  if (endpoint.method !== 'GET' || !endpoint.auth)
    throw new Error(`${endpoint.name}: a stream is a GET with a login`);
  // The checks of an open stream wait behind the floor like any back-office step (the stream itself holds
  // no place in the admission gate).
  const recheckKind = deps.admission.kind(`${admissionKind(endpoint)} (check)`);
  const recheckMs = Math.max(1, deps.config.sessionCacheSeconds) * 1000;
  const perLogin = new Map<number, number>();
  const allowedRole = (login: AuthUser | null, sessionId: number) =>
    login !== null && login.sessionId === sessionId && (!endpoint.role || hasRole(login.role, endpoint.role));
  app.route({
    method: 'GET',
    url: endpoint.path,
    handler: async (request, reply) => {
      const user = await loginFor(deps, endpoint, request);
      // A HEAD that opened a stream would never end (and has no body to carry one).
      if (request.method === 'HEAD') return reply.type('text/event-stream; charset=utf-8').send();
      const held = perLogin.get(user.sessionId) ?? 0;
      if (held >= deps.config.liveStreamsPerLogin)
        throw tooManyAttempts(options.tooMany(deps.config.liveStreamsPerLogin));
      perLogin.set(user.sessionId, held + 1);

      const stream = reply.raw;
      const tokenHash = hashToken(tokenOf(request) ?? '');
      let ended = false;
      const end = (reason: string) => {
        if (ended) return;
        ended = true;
        request.log.info({ user: user.id, reason }, 'live stream ended: its login no longer allows it');
        stream.end();
      };
      const check = async (fresh: boolean): Promise<boolean> => {
        if (ended || stream.destroyed) return false;
        let login: AuthUser | null;
        try {
          login = await deps.admission.step(
            () => currentLogin(deps, tokenHash, fresh),
            recheckKind,
            request.raw.socket,
          );
        } catch {
          login = null; // the database did not answer, or the client left: the client's reconnect checks anew
        }
        if (!allowedRole(login, user.sessionId)) end(login ? 'role' : 'login');
        return !ended;
      };
      const timer = setInterval(() => void check(true), recheckMs);
      const unlisten = deps.sessions.onForget((sessionId) => {
        if (sessionId === user.sessionId) end('logout');
      });
      stream.once('close', () => {
        ended = true;
        clearInterval(timer);
        unlisten();
        const left = (perLogin.get(user.sessionId) ?? 1) - 1;
        if (left > 0) perLogin.set(user.sessionId, left);
        else perLogin.delete(user.sessionId);
      });
      await handler(request, reply, { user, stillAllowed: () => check(false) });
    },
  });
}

/**
 * The login behind a token's hash now, or null: from the session cache as every call reads it, or
 * (`fresh`) straight from the database (and remembered).
 */
async function currentLogin(deps: Deps, tokenHash: string, fresh: boolean): Promise<AuthUser | null> {
  const known = fresh ? null : deps.sessions.get(tokenHash);
  if (known) return known;
  const login = await checkSession(deps.db, deps.config.sessionIdleMinutes, tokenHash);
  if (login) deps.sessions.remember(tokenHash, login);
  return login;
}

/** What a download's handler gets: the checked user, and its steps through the gate's back-office lane. */
export interface DownloadContext {
  user: AuthUser;
  /** Every read of the download goes through these: one short step at a time, behind the floor. */
  steps: Steps;
  request: FastifyRequest;
  reply: FastifyReply;
  /**
   * Makes this a heavy operation from here on (a large label run): takes a place among HEAVY_OPERATIONS_MAX
   * until the answer has been sent, or throws HeavyBusy (503, Retry-After, German).
   */
  heavy: () => void;
}

/**
 * A call that answers with a file rather than JSON (the journal's CSV, label files). The login and role
 * checks and the input's parsing of every other call run first, in the admission gate's back-office lane
 * (answered 503 when its line is too long, before the first byte); then a heavy one takes a place among
 * HEAVY_OPERATIONS_MAX (503 with Retry-After when all are taken), given back when the answer has been sent
 * or its client left; then the handler reads in steps (`ctx.steps`) and owns the reply (DESIGN §10).
 */
export function registerDownload<E extends Endpoint>(
  app: FastifyInstance,
  deps: Deps,
  endpoint: E,
  handler: (input: Input<E>, ctx: DownloadContext) => Promise<FastifyReply>,
  options: { heavy: boolean },
): void {
  if (!endpoint.auth || endpoint.audience !== 'scanner')
    throw new Error(`${endpoint.name}: a download needs a staff login`);
  const kind = deps.admission.kind(admissionKind(endpoint));
  app.route({
    method: endpoint.method,
    url: endpoint.path,
    onRequest: loginBeforeBody(deps, endpoint),
    handler: async (request, reply) => {
      const client = request.raw.socket;
      const { user, input } = await deps.admission.run(
        () => checkedCall(deps, endpoint, request),
        client,
        kind,
        'backOffice',
      );
      const heavy = () => {
        const release = deps.heavy.enter();
        reply.raw.once('finish', release);
        reply.raw.once('close', release);
      };
      if (options.heavy) heavy();
      return handler(input, { user, steps: stepsIn(deps.admission, kind, client), request, reply, heavy });
    },
  });
}

/** A staff call's login, role and input, checked as every route checks them (401, 403, 400 in German). */
async function checkedCall<E extends Endpoint>(
  deps: Deps,
  endpoint: E,
  request: FastifyRequest,
): Promise<{ user: AuthUser; input: Input<E> }> {
  const user = await loginFor(deps, endpoint, request);
  const input = {
    params: parseInput(endpoint, endpoint.params, request.params ?? {}),
    body: parseInput(endpoint, endpoint.body, request.body === null ? undefined : request.body),
    query: endpoint.query ? parseInput(endpoint, endpoint.query, request.query ?? {}) : undefined,
  } as Input<E>;
  return { user, input };
}

/** What a stepped call's handler gets: the database, the checked user and its steps through the gate. */
export interface SteppedContext {
  db: Kysely<Database>;
  config: Config;
  user: AuthUser;
  steps: Steps;
  request: FastifyRequest;
}

/**
 * A back-office read that may take longer than a step (a search that reads the articles a window at a time):
 * the login, role and input checks hold a place in the gate's back-office lane (503 when its line is too
 * long), then the handler's reads take one place per step (`ctx.steps`), so every handheld call that arrives
 * meanwhile goes between them (DESIGN §10). Reads only: a write's exactly-once transaction is one piece.
 */
export function registerSteppedEndpoint<E extends Endpoint>(
  app: FastifyInstance,
  deps: Deps,
  endpoint: E,
  handler: (input: Input<E>, ctx: SteppedContext) => Promise<z.input<E['response']>>,
): void {
  if (endpoint.method !== 'GET' || !endpoint.auth || endpoint.audience !== 'scanner')
    throw new Error(`${endpoint.name}: a stepped call is a staff GET`);
  const kind = deps.admission.kind(admissionKind(endpoint));
  const lane = laneOf(endpoint);
  app.route({
    method: endpoint.method,
    url: endpoint.path,
    handler: async (request, reply) => {
      const client = request.raw.socket;
      const { user, input } = await deps.admission.run(
        () => checkedCall(deps, endpoint, request),
        client,
        kind,
        lane,
      );
      const steps = stepsIn(deps.admission, kind, client);
      const result = await handler(input, { db: deps.db, config: deps.config, user, steps, request });
      const checked = endpoint.response.safeParse(result);
      if (!checked.success)
        throw new Error(`${endpoint.name}: answer breaks the contract: ${checked.error.message}`);
      return reply.send(checked.data);
    },
  });
}

/**
 * Where a call's waits for the disk are noted, so that its answer goes out only once its commits — and the
 * ones it read — are on disk, without holding the admission gate's place meanwhile (durability.ts, decision
 * 28): app.ts's onSend hook waits for it.
 */
export function durabilityOf(request: FastifyRequest): Deferred {
  request.durability ??= deferred();
  return request.durability;
}

/**
 * The call's params, body or query, or a 400 naming the field as the worker's screen does (never the API's
 * key). Exported for a route that answers other than JSON (the journal's CSV) but parses the same way.
 */
export function parseInput(endpoint: Endpoint, schema: z.ZodType, value: unknown): unknown {
  const parsed = schema.safeParse(value, { reportInput: true });
  if (!parsed.success) throw invalid(inputErrorMessage(endpoint.name, parsed.error.issues[0]));
  return parsed.data;
}

/** A call's kind in the admission gate, with its own average there: a login's password hash is not a lookup. */
export function admissionKind(endpoint: Endpoint): string {
  return `${endpoint.method} ${endpoint.path}`;
}

/**
 * A call's lane in the admission gate (DESIGN §10): the Leitstand's and the admin's calls and the
 * integrations' are the back office, which waits while any handheld call waits; the rest is the floor.
 */
export function laneOf(endpoint: Pick<Endpoint, 'role' | 'audience'>): Lane {
  if (endpoint.audience !== 'scanner') return 'backOffice';
  return endpoint.role === 'schichtleitung' || endpoint.role === 'admin' ? 'backOffice' : 'floor';
}

function register<E extends Endpoint>(
  app: FastifyInstance,
  deps: Deps,
  endpoint: E,
  handler: Handler<E, boolean>,
  options: RouteOptions<E, boolean>,
) {
  const kind = deps.admission.kind(admissionKind(endpoint));
  const lane = laneOf(endpoint);
  app.route({
    method: endpoint.method,
    url: endpoint.path,
    ...(options.bodyLimit ? { bodyLimit: options.bodyLimit } : {}),
    ...(endpoint.auth ? { onRequest: loginBeforeBody(deps, endpoint) } : {}),
    // The whole call — login check, attempt limits, the exactly-once transaction — waits for its place in the
    // admission gate, or is answered 503 before it touched anything (decision 26). Its body was read before.
    // Whether its client left is the socket's to say: the request stream counts as destroyed as soon as its
    // body has been read.
    // The answer waits for the disk after the place is given on (decision 28; app.ts's onSend hook).
    handler: (request, reply) =>
      deps.admission.run(() => serve(request, reply), request.raw.socket, kind, lane, durabilityOf(request)),
  });

  async function serve(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const user = endpoint.auth ? await loginFor(deps, endpoint, request) : null;
    const input = {
      params: parseInput(endpoint, endpoint.params, request.params ?? {}),
      body: parseInput(endpoint, endpoint.body, request.body === null ? undefined : request.body),
      query: endpoint.query ? parseInput(endpoint, endpoint.query, request.query ?? {}) : undefined,
    } as Input<E>;
    const requestKey = endpoint.idempotent ? parseIdempotencyKey(request.headers['x-idempotency-key']) : null;
    const route = `${endpoint.method} ${endpoint.path}`;
    const claim =
      requestKey && user
        ? { key: requestKey, userId: user.id, route, hash: requestHash(route, input.params, input.body) }
        : null;
    let wrongSecret = false;
    const answer = async (db: Kysely<Database>): Promise<z.output<E['response']>> => {
      const ctx = { db, config: deps.config, user, requestKey, request } as RouteContext<boolean>;
      let result: z.input<E['response']>;
      try {
        result = await handler(input, ctx);
      } catch (error) {
        if (error instanceof WrongSecret) wrongSecret = true;
        throw error;
      }
      const checked = endpoint.response.safeParse(result);
      // A server answer outside the contract is our bug (500), never the caller's bad input (400).
      if (!checked.success)
        throw new Error(`${endpoint.name}: answer breaks the contract: ${checked.error.message}`);
      return checked.data as z.output<E['response']>;
    };
    /** Answers the call: its effect at most once per key; whether it did the work now (not a replay). */
    const respond = async (): Promise<boolean> => {
      if (!claim) {
        reply.send(await answer(deps.db));
        return true;
      }
      const outcome = await applyOnce(deps.db, claim, answer, options.storedAnswer);
      if (outcome.replayed) reply.header('idempotent-replayed', 'true');
      if (!outcome.refused) {
        reply.send(outcome.body);
        return !outcome.replayed;
      }
      request.log.info(
        { status: outcome.status, reason: outcome.body.message, user: user?.id },
        'request refused',
      );
      if (options.auditRefusal && user && !outcome.replayed) {
        const entry = await options.auditRefusal(input, deps.db);
        await recordAudit(deps.db, {
          ...entry,
          userId: user.id,
          requestKey,
          detail: { ...entry.detail, outcome: 'refused', reason: outcome.body.message },
        });
      }
      reply.code(outcome.status).send(outcome.body);
      return false;
    };

    /** A write that took effect now is announced to the live views (a replay or a refusal changed nothing). */
    const announce = (didWork: boolean) => {
      if (didWork && endpoint.idempotent) deps.changes.publish(endpoint.name);
      return didWork;
    };
    const limit = options.attempts?.(input, { config: deps.config, user, ip: request.ip }) ?? null;
    if (!limit)
      return respond()
        .then(announce)
        .then(() => reply);
    let reservation: Reservation;
    try {
      reservation = await reserveAttempt(deps.db, limit.budgets, limit.tooMany, request.log);
    } catch (error) {
      // A repeat of an action done before gets its stored answer, locked or not (DESIGN §5).
      const stored = claim && error instanceof DomainError ? await storedOutcome(deps.db, claim) : null;
      if (!stored) throw error;
      reply.header('idempotent-replayed', 'true');
      return reply.code(stored.refused ? stored.status : 200).send(stored.body);
    }
    let result: AttemptResult = 'unchecked';
    try {
      if (announce(await respond())) result = 'succeeded';
    } finally {
      await reservation.settle(wrongSecret ? 'failed' : result);
    }
    return reply;
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The call's waits for the disk, noted while it held its place (durabilityOf). */
    durability: Deferred | null;
    /** The logged-in caller, once `loginFor` checked them (before the body, for a call that brings one). */
    authUser: AuthUser | null;
  }
}
