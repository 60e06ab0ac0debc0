import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { Endpoint } from '../../contract/endpoint.ts';
import { type AttemptResult, type Budget, type Reservation, reserveAttempt } from '../auth/attempt-limits.ts';
import type { AuthUser } from '../auth/sessions.ts';
import type { Config } from '../config.ts';
import { type Deferred, deferred } from '../db/durability.ts';
import type { Database } from '../db/schema.ts';
import { DomainError, WrongSecret } from '../domain/errors.ts';
import { type AuditEntry, recordAudit } from '../repositories/audit.repository.ts';
import { loginFor, requireIntegration } from './caller.ts';
import type { Deps } from './deps.ts';
import { admit, beforeBody, contractAnswer, type Input, inputOf, placeOf } from './gate.ts';
import { applyOnce, parseIdempotencyKey, requestHash, storedOutcome } from './idempotency.ts';

/**
 * The JSON calls, each done whole in one place of the admission gate: the staff's (`registerEndpoint`, with
 * exactly-once for a write), the two logins (`registerPublicEndpoint`) and an integration's write
 * (`registerIntegrationEndpoint`). Calls whose work takes longer than one place — a search in steps, a file,
 * an export page, a print job — are registered by stepped-route.ts; the live stream by stream.ts. Every one
 * of them is admitted and checked by gate.ts.
 */

// Every feature's routes.ts takes its Deps from here, beside registerEndpoint.
export type { Deps } from './deps.ts';
export interface RouteContext<Authed extends boolean> {
  /** The database — inside the exactly-once transaction for mutating calls. */
  db: Kysely<Database>;
  config: Config;
  user: Authed extends true ? AuthUser : null;
  /** The X-Idempotency-Key of a mutating call, journalled with its effect. */
  requestKey: string | null;
  request: FastifyRequest;
}

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

/** What an integration's write gets besides its input. */
export interface IntegrationContext {
  db: Kysely<Database>;
  /** Which integration token called (`npm run token`), for the log. */
  integration: { id: number; name: string };
  request: FastifyRequest;
  /** Tells the live views the write changed something (an unchanged repeat of the record tells nothing). */
  announce: () => void;
}

/**
 * An integration's write (the ERP's receipt push): integration tokens only (a scanner login gets 403), done
 * whole in one place of the gate's back-office lane, behind the handhelds (DESIGN §10). Its 400s are the
 * integration's own (`input`: English, naming the JSON field); the answer is checked against the contract.
 * No idempotency key: an integration PUTs a whole record by its natural key, and the same PUT again changes
 * nothing.
 */
export function registerIntegrationEndpoint<E extends Endpoint, I>(
  app: FastifyInstance,
  deps: Deps,
  endpoint: E,
  input: (request: FastifyRequest) => I,
  handler: (input: I, ctx: IntegrationContext) => Promise<z.input<E['response']>>,
): void {
  if (endpoint.audience !== 'integration') throw new Error(`${endpoint.name} is a staff call`);
  const place = placeOf(deps, endpoint);
  app.route({
    method: endpoint.method,
    url: endpoint.path,
    handler: (request, reply) =>
      admit(
        deps,
        place,
        request,
        async () => {
          const integration = await requireIntegration(deps, request);
          const announce = () => deps.changes.publish(endpoint.name);
          const answer = await handler(input(request), { db: deps.db, integration, request, announce });
          return reply.send(contractAnswer(endpoint, answer));
        },
        durabilityOf(request),
      ),
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

function register<E extends Endpoint>(
  app: FastifyInstance,
  deps: Deps,
  endpoint: E,
  handler: Handler<E, boolean>,
  options: RouteOptions<E, boolean>,
) {
  const place = placeOf(deps, endpoint);
  app.route({
    method: endpoint.method,
    url: endpoint.path,
    ...(options.bodyLimit ? { bodyLimit: options.bodyLimit } : {}),
    ...beforeBody(deps, endpoint),
    // The whole call — login check, attempt limits, the exactly-once transaction — waits for its place in the
    // admission gate, or is answered 503 before it touched anything (decision 26). Its body was read before.
    // The answer waits for the disk after the place is given on (decision 28; app.ts's onSend hook).
    handler: (request, reply) =>
      admit(deps, place, request, () => serve(request, reply), durabilityOf(request)),
  });

  async function serve(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const user = endpoint.auth ? await loginFor(deps, endpoint, request) : null;
    const input = inputOf(endpoint, request);
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
      return contractAnswer(endpoint, result);
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
