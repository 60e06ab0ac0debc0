import { randomUUID } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { z } from 'zod';
import type { Endpoint } from '../../src/contract/endpoint.ts';
import { buildPath } from '../../src/contract/path.ts';

/**
 * The names a call's params and body take are the contract's, checked when the test compiles (a renamed
 * field breaks the test there, not when it runs); their values are any, as a test of bad input sends.
 */
type Fields<T> = T extends readonly unknown[]
  ? unknown
  : T extends object
    ? { [K in keyof T]?: unknown }
    : unknown;

/** A call's body as a test may send it (a helper's parameter). */
export type BodyOf<E extends Endpoint> = Fields<z.input<E['body']>>;

export interface Call<E extends Endpoint = Endpoint> {
  params?: { [K in keyof z.input<E['params']>]: string | number };
  body?: Fields<z.input<E['body']>>;
  query?: Record<string, string>;
  /** The X-Idempotency-Key of a mutating call; a new one if not given. */
  key?: string;
  /** Headers beside the login and the key (a header a test is about: If-None-Match, Accept, …). */
  headers?: Record<string, string>;
}

/**
 * Calls a contract endpoint as the login `token`, as the web client builds the request — `null`: with no
 * login at all (a public call, or a test that the login is asked for).
 */
export function caller(app: FastifyInstance, token: string | null) {
  return <E extends Endpoint>(endpoint: E, call: Call<E> = {}): Promise<LightMyRequestResponse> => {
    const search = new URLSearchParams(call.query ?? {}).toString();
    return app.inject({
      method: endpoint.method,
      url:
        buildPath(endpoint.path, call.params as Record<string, string | number> | undefined) +
        (search ? `?${search}` : ''),
      ...(endpoint.method === 'GET' ? {} : { payload: (call.body ?? {}) as object }),
      headers: {
        ...(token === null ? {} : { authorization: `Bearer ${token}` }),
        ...(endpoint.idempotent ? { 'x-idempotency-key': call.key ?? randomUUID() } : {}),
        ...call.headers,
      },
    });
  };
}
