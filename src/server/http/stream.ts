import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { Endpoint } from '../../contract/endpoint.ts';
import { hasRole } from '../../contract/roles.ts';
import { hashToken } from '../auth/secrets.ts';
import type { AuthUser } from '../auth/sessions.ts';
import { tooManyAttempts } from '../domain/errors.ts';
import { currentLogin, loginFor, tokenOf } from './caller.ts';
import type { Deps } from './deps.ts';
import { admissionKind } from './gate.ts';

/** A comment line now and then keeps proxies and the browser from closing a quiet stream. */
const HEARTBEAT_MS = 15_000;

/** What a stream's opener gets. */
export interface StreamContext {
  user: AuthUser;
  /**
   * Whether the login may still read the stream, checked as every other call checks it (the session cache,
   * else the database): call it before each event. False: the stream has been ended.
   */
  stillAllowed(): Promise<boolean>;
  /** Sends one event (`event: <name>`, `data: <JSON>`); an ended stream takes no more. */
  send(event: string, data: unknown): void;
}

/**
 * A call that answers with a stream of server-sent events (the Leitstand's live events) rather than one JSON
 * body: the login and role checks of every other call, then the stream — `retry` and a `ready` event first, a
 * comment line every HEARTBEAT_MS — and `open` says what goes into it, answering what to undo when it
 * closes. Open streams end when the server stops, so a rolling restart is not held up by a Leitstand left
 * open (the page reconnects to the next instance by itself). A stream lives as long as its login:
 * its login is checked again in the database every SESSION_CACHE_SECONDS (at least every second) and, by
 * the handler, before each event; a logout through this instance ends it at once. Whichever finds the login
 * ended, its role lowered or its user switched off ends the stream (the client's reconnect then gets the
 * 401 or 403 of every other call). One login holds at most LIVE_STREAMS_PER_LOGIN streams on an instance
 * (429 with `tooMany`'s text past it). HEAD answers the stream's headers and no stream.
 *
 * Outside the admission gate, by decision 26's exemptions: a stream holds its connection for as long as the
 * desk is open, and a place held that long would be a place the floor never gets back. Its first login
 * check (one lookup, mostly the session cache's) runs outside too; its rechecks wait in the back-office lane
 * as steps.
 */
export function registerStream<E extends Endpoint>(
  app: FastifyInstance,
  deps: Deps,
  endpoint: E,
  open: (ctx: StreamContext) => () => void,
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
  const streams = new Set<ServerResponse>();
  app.addHook('preClose', async () => {
    for (const stream of streams) stream.end();
  });
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

      reply.hijack();
      stream.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        // nginx: pass each event on at once instead of buffering the response.
        'x-accel-buffering': 'no',
        'x-content-type-options': 'nosniff',
        'x-request-id': request.id,
      });
      // An ended stream (its login gone, the server stopping) takes no more writes: a write after its end
      // would be an error event on the response.
      const write = (text: string) => {
        if (!stream.writableEnded && !stream.destroyed) stream.write(text);
      };
      write('retry: 2000\n\nevent: ready\ndata: {}\n\n');
      streams.add(stream);
      const close = open({
        user,
        stillAllowed: () => check(false),
        send: (event, data) => write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`),
      });
      const heartbeat = setInterval(() => write(': ping\n\n'), HEARTBEAT_MS);
      stream.on('close', () => {
        clearInterval(heartbeat);
        close();
        streams.delete(stream);
      });
    },
  });
}
