// Raw sockets on purpose: clients that stall mid-request, as no client of the contract does.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';

/**
 * A client that opens a request and then stalls must not hold a connection for minutes (3,000 such sockets
 * were accepted before). A real listening server on 127.0.0.1 with short timeouts, and raw sockets that
 * behave badly.
 */
const REQUEST_TIMEOUT_S = 1;
const CONNECTION_TIMEOUT_S = 2;

describe('timeouts on a listening server', () => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await startTestApp('pglite', {
      requestTimeoutSeconds: REQUEST_TIMEOUT_S,
      connectionTimeoutSeconds: CONNECTION_TIMEOUT_S,
      keepAliveTimeoutSeconds: 1,
    });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const address = t.app.server.address();
    if (!address || typeof address === 'string') throw new Error('not listening');
    port = address.port;
  });
  afterAll(() => t.close());

  /**
   * Opens a socket, runs `behave` on it (`every` repeats something until the end), and resolves when the
   * server closes it, or with null after `limitMs`.
   */
  function until(
    behave: (socket: net.Socket, every: (ms: number, act: () => void) => void) => void,
    limitMs: number,
  ): Promise<{ closedAfterMs: number | null; received: string }> {
    return new Promise((resolve) => {
      const socket = net.connect({ host: '127.0.0.1', port });
      const started = Date.now();
      let received = '';
      const timers: NodeJS.Timeout[] = [];
      const done = (closedAfterMs: number | null) => {
        for (const timer of timers) clearTimeout(timer);
        socket.destroy();
        resolve({ closedAfterMs, received });
      };
      socket.setEncoding('utf8');
      socket.on('data', (chunk) => {
        received += chunk;
      });
      socket.on('error', () => {});
      socket.on('close', () => done(Date.now() - started));
      socket.on('connect', () => behave(socket, (ms, act) => timers.push(setInterval(act, ms))));
      timers.push(setTimeout(() => done(null), limitMs));
    });
  }

  const headers = (length: number) =>
    `POST /api/user/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

  it('ends a request whose body stalls after 1 byte: 408 or closed, within the request timeout', async () => {
    const { closedAfterMs, received } = await until((socket) => socket.write(`${headers(100)}{`), 8000);
    expect(closedAfterMs, 'still open after 8 s').not.toBeNull();
    expect(closedAfterMs).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_S * 1000 - 100);
    // Node checks open requests once a second.
    expect(closedAfterMs).toBeLessThan(REQUEST_TIMEOUT_S * 1000 + 2000);
    if (received !== '') expect(received).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('ends a request that trickles in a byte at a time, which never looks idle', async () => {
    const { closedAfterMs } = await until((socket, every) => {
      socket.write(`${headers(1000)}{`);
      every(200, () => socket.write(' '));
    }, 8000);
    expect(closedAfterMs, 'still open after 8 s').not.toBeNull();
    expect(closedAfterMs).toBeLessThan(REQUEST_TIMEOUT_S * 1000 + 2000);
  });

  it('ends a stalled header the same way', async () => {
    const { closedAfterMs } = await until(
      (socket) => socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n'),
      8000,
    );
    expect(closedAfterMs, 'still open after 8 s').not.toBeNull();
    expect(closedAfterMs).toBeLessThan(REQUEST_TIMEOUT_S * 1000 + 2000);
  });

  it('closes a connection that sends nothing at all', async () => {
    const { closedAfterMs } = await until(() => {}, 8000);
    expect(closedAfterMs, 'still open after 8 s').not.toBeNull();
    expect(closedAfterMs).toBeLessThan(CONNECTION_TIMEOUT_S * 1000 + 2000);
  });

  it('still answers a request that comes whole, and closes the idle connection after keep-alive', async () => {
    const body = JSON.stringify({ username: 'nobody', password: 'wrong-password' });
    const { closedAfterMs, received } = await until(
      (socket) => socket.write(headers(body.length) + body),
      8000,
    );
    expect(received).toMatch(/^HTTP\/1\.1 401 /);
    expect(closedAfterMs).not.toBeNull();
  });
});
