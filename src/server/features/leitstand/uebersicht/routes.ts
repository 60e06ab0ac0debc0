import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import * as contract from '../../../../contract/leitstand/uebersicht.ts';
import { type Deps, registerSteppedEndpoint, registerStream } from '../../../http/route.ts';
import * as service from './service.ts';

/** A comment line now and then keeps proxies and the browser from closing a quiet stream. */
const HEARTBEAT_MS = 15_000;

export function uebersichtRoutes(app: FastifyInstance, deps: Deps): void {
  registerSteppedEndpoint(app, deps, contract.leitstandUebersicht, async (_input, { db, config, steps }) => ({
    success: true as const,
    data: await service.leitstandUebersicht(steps, db, config.timeZone),
  }));

  // Open streams end when the server stops, so a rolling restart is not held up by a Leitstand left open
  // (the page reconnects to the next instance by itself).
  const open = new Set<ServerResponse>();
  app.addHook('preClose', async () => {
    for (const stream of open) stream.end();
  });
  registerStream(app, deps, contract.leitstandLive, async (request, reply) => {
    reply.hijack();
    const stream = reply.raw;
    stream.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      // nginx: pass each event on at once instead of buffering the response.
      'x-accel-buffering': 'no',
      'x-content-type-options': 'nosniff',
      'x-request-id': request.id,
    });
    stream.write('retry: 2000\n\nevent: ready\ndata: {}\n\n');
    open.add(stream);
    const unsubscribe = deps.changes.subscribe((topics) => {
      stream.write(`event: change\ndata: ${JSON.stringify({ topics })}\n\n`);
    });
    const heartbeat = setInterval(() => stream.write(': ping\n\n'), HEARTBEAT_MS);
    stream.on('close', () => {
      clearInterval(heartbeat);
      unsubscribe();
      open.delete(stream);
    });
  });
}
