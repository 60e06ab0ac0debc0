import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Endpoint } from '../../contract/endpoint.ts';
import { inputErrorMessage } from '../../contract/input-errors.ts';
import type { AuthUser } from '../auth/sessions.ts';
import type { Deferred } from '../db/durability.ts';
import { invalid, unauthenticated } from '../domain/errors.ts';
import type { CallKind, Lane } from './admission.ts';
import { loginFor, tokenOf } from './caller.ts';
import type { Deps } from './deps.ts';

/**
 * The front door every API call goes through (decisions 26 and 31): its place in the admission gate, and
 * the checks of who calls and with what, made there once for every kind of route — the JSON calls
 * (route.ts), the stepped reads, downloads and print jobs (stepped-route.ts). The exemptions are named in
 * decision 26 ("Not in line"): of the API only the Leitstand's live stream (stream.ts), whose rechecks of
 * its login wait in the gate instead.
 */

/** A call's input: its params, body and query, each parsed by the endpoint's schema. */
export type Input<E extends Endpoint> = {
  params: z.output<E['params']>;
  body: z.output<E['body']>;
  /** The query string, parsed by the endpoint's `query` schema (undefined when it takes none). */
  query: E['query'] extends z.ZodType ? z.output<E['query']> : undefined;
};

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

/** Where a call waits in the gate: its kind (with its own average) and its lane. */
export interface Place {
  kind: CallKind;
  lane: Lane;
}

export function placeOf(deps: Deps, endpoint: Endpoint): Place {
  return { kind: deps.admission.kind(admissionKind(endpoint)), lane: laneOf(endpoint) };
}

/**
 * Runs `work` — a call's checks, or a call done in one place — once the call has its place in the gate, or
 * answers 503 before anything ran (decision 26). Whether its client left is the socket's to say: the request
 * stream counts as destroyed as soon as its body has been read. `durability`: where the work's waits for the
 * disk are noted, for the answer to wait on after the place is given on (decision 28); without it, the gate
 * waits for them before this returns.
 */
export function admit<T>(
  deps: Deps,
  place: Place,
  request: FastifyRequest,
  work: () => Promise<T>,
  durability?: Deferred,
): Promise<T> {
  return deps.admission.run(work, request.raw.socket, place.kind, place.lane, durability);
}

/**
 * An `onRequest` hook: a call that brings a body is refused from its headers, before the body is read — a
 * caller without a token never has their body read or parsed (401 at once, not after BODY_LIMIT_KB or a
 * large upload came in). The back office's calls (Leitstand, admin) check the whole login and role there,
 * in the admission gate like the call itself (403 before the body too); the floor's calls, whose role is
 * any login and whose bodies are small, check a given token in their one place in the gate, as before (a
 * second place per scan would double every booking's turns in the gate). For staff calls only: an
 * integration's token is checked (and counted as an attempt) in its place.
 */
export function loginBeforeBody(deps: Deps, endpoint: Endpoint): (request: FastifyRequest) => Promise<void> {
  if (!endpoint.auth || endpoint.audience !== 'scanner')
    throw new Error(`${endpoint.name}: only a staff call's login is checked before its body`);
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

/** The `onRequest` hook a route of this endpoint gets: the staff's login before the body; none for the rest. */
export function beforeBody(
  deps: Deps,
  endpoint: Endpoint,
): { onRequest?: (request: FastifyRequest) => Promise<void> } {
  return endpoint.auth && endpoint.audience === 'scanner'
    ? { onRequest: loginBeforeBody(deps, endpoint) }
    : {};
}

/**
 * The call's params, body or query, or a 400 naming the field as the worker's screen does (never the API's
 * key).
 */
export function parseInput(endpoint: Endpoint, schema: z.ZodType, value: unknown): unknown {
  const parsed = schema.safeParse(value, { reportInput: true });
  if (!parsed.success) throw invalid(inputErrorMessage(endpoint.name, parsed.error.issues[0]));
  return parsed.data;
}

/** A staff call's params, body and query, each parsed by the endpoint's schema (400 in German). */
export function inputOf<E extends Endpoint>(endpoint: E, request: FastifyRequest): Input<E> {
  return {
    params: parseInput(endpoint, endpoint.params, request.params ?? {}),
    body: parseInput(endpoint, endpoint.body, request.body === null ? undefined : request.body),
    query: endpoint.query ? parseInput(endpoint, endpoint.query, request.query ?? {}) : undefined,
  } as Input<E>;
}

/** A staff call's login, role and input, checked as every route checks them (401, 403, 400 in German). */
export async function staffCall<E extends Endpoint>(
  deps: Deps,
  endpoint: E,
  request: FastifyRequest,
): Promise<{ user: AuthUser; input: Input<E> }> {
  const user = await loginFor(deps, endpoint, request);
  return { user, input: inputOf(endpoint, request) };
}

/**
 * A handler's answer, checked against the contract: one outside it is our bug (500), never the caller's bad
 * input (400).
 */
export function contractAnswer<E extends Endpoint>(endpoint: E, answer: unknown): z.output<E['response']> {
  const checked = endpoint.response.safeParse(answer);
  if (!checked.success)
    throw new Error(`${endpoint.name}: answer breaks the contract: ${checked.error.message}`);
  return checked.data as z.output<E['response']>;
}
