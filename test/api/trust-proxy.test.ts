// Raw HTTP on purpose: it sends the proxy headers no client sends, to a test route of its own.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.ts';
import { loadConfig } from '../../src/server/config.ts';
import { freshDatabase, type TestDatabase } from '../support/db.ts';

/**
 * Behind one reverse proxy that appends the address it sees to X-Forwarded-For (nginx's
 * $proxy_add_x_forwarded_for, Caddy), the client's own part of the header is whatever the client sent.
 * The server must take the address the proxy added, never one the client wrote: the login limit per address
 * and the logs depend on it.
 */
const PROXY = '127.0.0.1';
const CLIENT = '203.0.113.7';
const FORGED = '6.6.6.6';

describe('the client address behind a reverse proxy', () => {
  let database: TestDatabase;
  const apps: FastifyInstance[] = [];
  const logs: string[] = [];

  /** The server as configured by TRUST_PROXY, with a route that answers the address it sees. */
  async function server(trustProxy: string | undefined) {
    const config = { ...loadConfig({ LOG_LEVEL: 'info', TRUST_PROXY: trustProxy }) };
    const app = await buildApp({
      db: database.db,
      config,
      logStream: { write: (line: string) => logs.push(line) } as unknown as NodeJS.WritableStream,
    });
    app.get('/api/test-ip', async (request) => ({ ip: request.ip }));
    await app.ready();
    apps.push(app);
    return async (remoteAddress: string, forwardedFor?: string) => {
      const res = await app.inject({
        url: '/api/test-ip',
        remoteAddress,
        headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
      });
      expect(res.statusCode).toBe(200);
      const logged = logs
        .map((line) => JSON.parse(line) as { reqId?: string; req?: { remoteAddress?: string } })
        .find((entry) => entry.reqId === res.headers['x-request-id'] && entry.req)?.req?.remoteAddress;
      const { ip } = res.json<{ ip: string }>();
      expect(logged, 'the log names the same address').toBe(ip);
      return ip;
    };
  }

  beforeAll(async () => {
    database = await freshDatabase('pglite');
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await database.close();
  });

  it.each([
    [PROXY, "the proxy's address"],
    ['127.0.0.0/8, ::1', 'the loopback range'],
  ])('TRUST_PROXY=%s (%s): a forged X-Forwarded-For does not pick the address', async (value) => {
    const ip = await server(value);
    // The client sent "X-Forwarded-For: 6.6.6.6"; the proxy appended the address it really came from.
    expect(await ip(PROXY, `${FORGED}, ${CLIENT}`)).toBe(CLIENT);
    expect(await ip(PROXY, CLIENT)).toBe(CLIENT);
  });

  it('with a list of proxy addresses, a client reaching the server directly is taken as itself', async () => {
    const ip = await server(PROXY);
    expect(await ip(CLIENT, FORGED)).toBe(CLIENT);
  });

  it('without TRUST_PROXY, X-Forwarded-For is ignored', async () => {
    const ip = await server(undefined);
    expect(await ip(PROXY, `${FORGED}, ${CLIENT}`)).toBe(PROXY);
  });
});
