import { randomUUID } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Endpoint } from '../../src/contract/endpoint.ts';
import { buildPath } from '../../src/contract/path.ts';

export interface Call {
  params?: Record<string, string | number>;
  body?: unknown;
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
  return (endpoint: Endpoint, call: Call = {}): Promise<LightMyRequestResponse> => {
    const search = new URLSearchParams(call.query ?? {}).toString();
    return app.inject({
      method: endpoint.method,
      url: buildPath(endpoint.path, call.params) + (search ? `?${search}` : ''),
      ...(endpoint.method === 'GET' ? {} : { payload: (call.body ?? {}) as object }),
      headers: {
        ...(token === null ? {} : { authorization: `Bearer ${token}` }),
        ...(endpoint.idempotent ? { 'x-idempotency-key': call.key ?? randomUUID() } : {}),
        ...call.headers,
      },
    });
  };
}
