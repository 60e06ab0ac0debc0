import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { Endpoint } from '../../contract/endpoint.ts';
import type { AuthUser } from '../auth/sessions.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/schema.ts';
import { type AuditEntry, recordAudit } from '../repositories/audit.repository.ts';
import { type Steps, stepsIn } from './back-office.ts';
import { loginFor, requireIntegration } from './caller.ts';
import type { Deps } from './deps.ts';
import { admit, beforeBody, contractAnswer, type Input, parseInput, placeOf, staffCall } from './gate.ts';
import { applyOnceOutside, type Outcome, parseIdempotencyKey, requestHash } from './idempotency.ts';

/**
 * Calls whose work is longer than one place in the admission gate (DESIGN §10, decision 31): a search read a
 * window at a time, a file (the journal's CSV, labels), an export page, a print job, a pick wave's release, an
 * upload. All have one
 * shape: who calls and with what is checked in one place of the gate (503 when its line is too long, before
 * the first byte), then the work takes one back-office place per step, so every handheld call that arrives
 * meanwhile goes between them. An upload is checked before its body is read and steps its own work
 * (`registerUpload`); the others are `registerStepped`.
 */

interface SteppedWork {
  steps: Steps;
  request: FastifyRequest;
  reply: FastifyReply;
}

/** `check` in the call's place in the gate, then `work` with the call's steps (`ctx.steps`). */
function registerStepped<E extends Endpoint, C>(
  app: FastifyInstance,
  deps: Deps,
  endpoint: E,
  check: (request: FastifyRequest) => Promise<C>,
  work: (checked: C, ctx: SteppedWork) => Promise<FastifyReply>,
): void {
  const place = placeOf(deps, endpoint);
  app.route({
    method: endpoint.method,
    url: endpoint.path,
    ...beforeBody(deps, endpoint),
    handler: async (request, reply) => {
      const checked = await admit(deps, place, request, () => check(request));
      return work(checked, {
        steps: stepsIn(deps.admission, place.kind, request.raw.socket),
        request,
        reply,
      });
    },
  });
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
 * the handler's reads take one place per step (`ctx.steps`). Reads only: a write's exactly-once transaction
 * is one piece.
 */
export function registerSteppedEndpoint<E extends Endpoint>(
  app: FastifyInstance,
  deps: Deps,
  endpoint: E,
  handler: (input: Input<E>, ctx: SteppedContext) => Promise<z.input<E['response']>>,
): void {
  if (endpoint.method !== 'GET' || !endpoint.auth || endpoint.audience !== 'scanner')
    throw new Error(`${endpoint.name}: a stepped call is a staff GET`);
  registerStepped(
    app,
    deps,
    endpoint,
    (request) => staffCall(deps, endpoint, request),
    async ({ user, input }, { steps, request, reply }) => {
      const answer = await handler(input, { db: deps.db, config: deps.config, user, steps, request });
      return reply.send(contractAnswer(endpoint, answer));
    },
  );
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
 * A staff call that answers with a file rather than JSON (the journal's CSV, label files), back-office work
 * (the Leitstand's and the admin's). After its checks, a heavy one takes a place among
 * HEAVY_OPERATIONS_MAX (503 with Retry-After when all are taken), given back when the answer has been sent
 * or its client left; then the handler reads in steps (`ctx.steps`) and owns the reply.
 */
export function registerDownload<E extends Endpoint>(
  app: FastifyInstance,
  deps: Deps,
  endpoint: E,
  handler: (input: Input<E>, ctx: DownloadContext) => Promise<FastifyReply>,
  options: { heavy: boolean },
): void {
  if (!endpoint.auth || endpoint.audience !== 'scanner' || placeOf(deps, endpoint).lane !== 'backOffice')
    throw new Error(`${endpoint.name}: a download needs a back-office staff login`);
  registerStepped(
    app,
    deps,
    endpoint,
    (request) => staffCall(deps, endpoint, request),
    ({ user, input }, { steps, request, reply }) => {
      const heavy = () => {
        const release = deps.heavy.enter();
        reply.raw.once('finish', release);
        reply.raw.once('close', release);
      };
      if (options.heavy) heavy();
      return handler(input, { user, steps, request, reply, heavy });
    },
  );
}

/** What an integration's read gets: which integration called, and its steps through the back-office lane. */
export interface IntegrationReadContext {
  integration: { id: number; name: string };
  steps: Steps;
  request: FastifyRequest;
  reply: FastifyReply;
}

/**
 * An integration's read of many rows (an export page, as JSON or CSV): integration tokens only (a scanner
 * login gets 403), its input checked by `input` (the integration's own 400s), in the back-office lane; then
 * the page is read a step at a time and the handler owns the reply (it checks a JSON answer with
 * `contractAnswer`).
 */
export function registerIntegrationRead<E extends Endpoint, I>(
  app: FastifyInstance,
  deps: Deps,
  endpoint: E,
  input: (request: FastifyRequest) => I,
  handler: (input: I, ctx: IntegrationReadContext) => Promise<FastifyReply>,
): void {
  if (endpoint.audience !== 'integration' || endpoint.method !== 'GET')
    throw new Error(`${endpoint.name}: an integration read is an integration's GET`);
  registerStepped(
    app,
    deps,
    endpoint,
    async (request) => ({ integration: await requireIntegration(deps, request), input: input(request) }),
    ({ integration, input }, ctx) => handler(input, { integration, ...ctx }),
  );
}

/** What a stepped write's job gets besides its input. */
export interface SteppedWriteContext {
  user: AuthUser;
  steps: Steps;
  request: FastifyRequest;
  /** The call's X-Idempotency-Key, for a Protokoll row the job writes itself. */
  requestKey: string;
  /**
   * Makes this a heavy operation from here on (a large print job): takes a place among HEAVY_OPERATIONS_MAX
   * until the job ends, or throws HeavyBusy (503, Retry-After, German).
   */
  heavy: () => void;
}

/**
 * A staff write whose work cannot sit in a database transaction (a print job asks a network printer, which
 * may not answer for seconds), or too long for one (a pick wave's release, in slices): exactly once per
 * X-Idempotency-Key all the same, outside any transaction (`applyOnceOutside`; a repeat while the first runs
 * waits up to `waitMs`, then gets 409 `stillRunning`), so a slow printer holds up no other request. The job
 * reads and writes in steps behind the floor. Its outcome — done or refused, not a replay — is journalled in
 * the Protokoll (`audit`), in a step, also when its client left meanwhile.
 */
export function registerSteppedWrite<E extends Endpoint>(
  app: FastifyInstance,
  deps: Deps,
  endpoint: E,
  job: (input: Input<E>, ctx: SteppedWriteContext) => Promise<z.output<E['response']>>,
  options: {
    waitMs: number;
    stillRunning: string;
    /**
     * The Protokoll row of the outcome, or null when the job journals itself what it did (a wave's release,
     * with what it read on the way) and a refusal changed nothing.
     */
    audit: (
      input: Input<E>,
      outcome: Outcome<z.output<E['response']>>,
    ) => Pick<AuditEntry, 'action' | 'subject' | 'detail'> | null;
    /**
     * The job's steps go on when its client leaves (a wave's release): begun, it ends with an answer stored
     * under the key for the repeat, not half-way with the key freed. Otherwise a step whose client left ends it.
     */
    untilDone?: boolean;
  },
): void {
  if (!endpoint.idempotent) throw new Error(`${endpoint.name}: a stepped write is a staff write`);
  const route = `${endpoint.method} ${endpoint.path}`;
  const { kind } = placeOf(deps, endpoint);
  registerStepped(
    app,
    deps,
    endpoint,
    async (request) => {
      const { user, input } = await staffCall(deps, endpoint, request);
      return { user, input, key: parseIdempotencyKey(request.headers['x-idempotency-key']) };
    },
    async ({ user, input, key }, { steps: clientSteps, request, reply }) => {
      const claim = { key, userId: user.id, route, hash: requestHash(route, input.params, input.body) };
      const steps = options.untilDone ? stepsIn(deps.admission, kind) : clientSteps;
      let release = () => {};
      const heavy = () => {
        release = deps.heavy.enter();
      };
      const outcome = await applyOnceOutside(
        deps.db,
        claim,
        () => job(input, { user, steps, request, requestKey: key, heavy }).finally(() => release()),
        options,
      );
      const audit = outcome.replayed ? null : options.audit(input, outcome);
      if (outcome.replayed) reply.header('idempotent-replayed', 'true');
      else if (audit)
        await deps.admission.step(
          () => recordAudit(deps.db, { ...audit, userId: user.id, requestKey: key }),
          kind,
        );
      if (outcome.refused) {
        request.log.info(
          { status: outcome.status, reason: outcome.body.message, user: user.id },
          'request refused',
        );
        return reply.code(outcome.status).send(outcome.body);
      }
      return reply.send(outcome.body);
    },
  );
}

/** What an upload's handler gets besides the body its reader made. */
export interface UploadContext<E extends Endpoint> {
  user: AuthUser;
  params: z.output<E['params']>;
  /** The call's X-Idempotency-Key. */
  key: string;
  request: FastifyRequest;
  reply: FastifyReply;
}

/**
 * A staff write whose body is too large for the JSON parser (the import's file, decision 30): the login,
 * role, params and idempotency key are checked from the headers, before a byte of the body is read, in one
 * place of the gate; the body is then read by `read` — a content-type parser of this route's own, in a scope
 * of its own (it may hash the bytes as they arrive) — and the handler does the work, in steps of its own, and
 * answers.
 */
export function registerUpload<E extends Endpoint, B>(
  app: FastifyInstance,
  deps: Deps,
  endpoint: E,
  read: (
    request: FastifyRequest,
    payload: NodeJS.ReadableStream,
    done: (error: Error | null, body?: B) => void,
  ) => void,
  handler: (body: B, ctx: UploadContext<E>) => Promise<FastifyReply>,
): void {
  if (!endpoint.idempotent || endpoint.method !== 'POST')
    throw new Error(`${endpoint.name}: an upload is a staff POST that writes`);
  const place = placeOf(deps, endpoint);
  type Checked = { user: AuthUser; params: z.output<E['params']>; key: string };
  const checks = new WeakMap<FastifyRequest, Checked>();
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('application/json', read);
    scope.route({
      method: endpoint.method,
      url: endpoint.path,
      onRequest: async (request) => {
        const checked = await admit(deps, place, request, async () => {
          const user = await loginFor(deps, endpoint, request);
          const params = parseInput(endpoint, endpoint.params, request.params ?? {}) as z.output<E['params']>;
          const key = parseIdempotencyKey(request.headers['x-idempotency-key']);
          return { user, params, key };
        });
        checks.set(request, checked);
      },
      handler: async (request, reply) => {
        const checked = checks.get(request);
        const body = request.body as B | undefined;
        if (!checked || !body) throw new Error(`${endpoint.name}: checks or body missing`);
        // The body is in: from here the server works, and a large file (or a repeat waiting for its first
        // copy) may take longer than CONNECTION_TIMEOUT_SECONDS of a silent connection, which is meant for
        // clients that stall.
        const socket = request.raw.socket as { setTimeout?: (ms: number) => void } | undefined;
        if (typeof socket?.setTimeout === 'function') socket.setTimeout(0); // (app.inject has no timer)
        return handler(body, { ...checked, request, reply });
      },
    });
  });
}
