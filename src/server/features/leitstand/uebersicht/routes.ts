import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import * as contract from '../../../../contract/leitstand/uebersicht.ts';
import type { Deps } from '../../../http/route.ts';
import { registerSteppedEndpoint } from '../../../http/stepped-route.ts';
import { registerStream } from '../../../http/stream.ts';
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
  registerStream(
    app,
    deps,
    contract.leitstandLive,
    async (request, reply, { stillAllowed }) => {
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
      // An ended stream (its login gone, the server stopping) takes no more writes: a write after its end
      // would be an error event on the response.
      const send = (text: string) => {
        if (!stream.writableEnded && !stream.destroyed) stream.write(text);
      };
      send('retry: 2000\n\nevent: ready\ndata: {}\n\n');
      open.add(stream);
      // Each event goes out only while the login still allows it (a logout, a lowered role, a user switched
      // off end the stream instead).
      const unsubscribe = deps.changes.subscribe((topics) => {
        void stillAllowed().then((allowed) => {
          if (allowed) send(`event: change\ndata: ${JSON.stringify({ topics })}\n\n`);
        });
      });
      const heartbeat = setInterval(() => send(': ping\n\n'), HEARTBEAT_MS);
      stream.on('close', () => {
        clearInterval(heartbeat);
        unsubscribe();
        open.delete(stream);
      });
    },
    { tooMany: contract.leitstandTexts.tooManyStreams },
  );
}
