import type { FastifyInstance } from 'fastify';
import { exportEndpoints, FEEDS } from '../../../contract/export.ts';
import { contractAnswer } from '../../http/gate.ts';
import type { Deps } from '../../http/route.ts';
import { registerIntegrationRead } from '../../http/stepped-route.ts';
import { exportPage, pageCsv, pageRequest } from './feeds.ts';

/**
 * GET /api/export/{feed}: one page as JSON `{ items, nextCursor, hasMore }` or, with format=csv, as CSV
 * with the cursor in `X-Next-Cursor` and `X-Has-More`. Integration tokens only; the token and the query wait
 * in the back office's lane like a Leitstand call, the page is then read a step at a time behind the floor
 * (registerIntegrationRead, DESIGN §10).
 */
export function exportRoutes(app: FastifyInstance, deps: Deps): void {
  for (const feed of FEEDS) {
    const endpoint = exportEndpoints[feed];
    registerIntegrationRead(
      app,
      deps,
      endpoint,
      (request) => pageRequest(feed, request.query),
      async (asked, { integration, steps, request, reply }) => {
        const page = await exportPage(steps, deps.db, feed, asked);
        // A page outside the contract is our bug (500), as for every other route.
        const checked = contractAnswer(endpoint, page);
        request.log.info({ integration: integration.name, feed, rows: page.items.length }, 'export page');
        if (asked.csv === null) return reply.send(checked);
        return reply
          .type('text/csv; charset=utf-8')
          .header('x-next-cursor', page.nextCursor)
          .header('x-has-more', String(page.hasMore))
          .send(pageCsv(feed, page.items, asked.csv));
      },
    );
  }
}
