import type { FastifyInstance } from 'fastify';
import {
  DEFAULT_LIMIT,
  exportColumns,
  exportEndpoints,
  exportMessages,
  FEEDS,
} from '../../../contract/export.ts';
import { invalid } from '../../domain/errors.ts';
import { stepsIn } from '../../http/back-office.ts';
import { csvHeader, csvRows } from '../../http/csv.ts';
import { admissionKind, type Deps, requireIntegration } from '../../http/route.ts';
import { decodeCursor, exportPage } from './feeds.ts';

/**
 * GET /api/export/{feed}: one page as JSON `{ items, nextCursor, hasMore }` or, with format=csv, as CSV
 * with the cursor in `X-Next-Cursor` and `X-Has-More`. Integration tokens only (requireIntegration).
 */
export function exportRoutes(app: FastifyInstance, deps: Deps): void {
  for (const feed of FEEDS) {
    const endpoint = exportEndpoints[feed];
    const kind = deps.admission.kind(admissionKind(endpoint));
    app.route({
      method: endpoint.method,
      url: endpoint.path,
      handler: async (request, reply) => {
        const client = request.raw.socket;
        // The login and the query's checks wait in the back office's lane like a Leitstand call (503 when
        // its line is too long); the page is then read a step at a time behind the floor (DESIGN §10).
        const { integration, query, cursor } = await deps.admission.run(
          async () => {
            const integration = await requireIntegration(deps, request);
            const parsed = endpoint.query.safeParse(request.query ?? {});
            if (!parsed.success)
              throw invalid(parsed.error.issues[0]?.message ?? exportMessages.sinceOrCursor);
            const query = parsed.data;
            const cursor = query.cursor === undefined ? null : decodeCursor(feed, query.cursor);
            if (query.cursor !== undefined && !cursor) throw invalid(exportMessages.cursor);
            if (!cursor && query.since === undefined) throw invalid(exportMessages.sinceOrCursor);
            if (query.sep !== undefined && query.format !== 'csv') throw invalid(exportMessages.sep);
            return { integration, query, cursor };
          },
          client,
          kind,
          'backOffice',
        );
        const page = await exportPage(stepsIn(deps.admission, kind, client), deps.db, feed, {
          since: query.since ?? null,
          cursor,
          limit: query.limit ?? DEFAULT_LIMIT,
        });
        // A page outside the contract is our bug (500), as for every other route.
        const checked = endpoint.response.safeParse(page);
        if (!checked.success)
          throw new Error(`${endpoint.name}: answer breaks the contract: ${checked.error.message}`);
        request.log.info({ integration: integration.name, feed, rows: page.items.length }, 'export page');
        if (query.format !== 'csv') return reply.send(checked.data);
        const sep = query.sep ?? ',';
        const columns = exportColumns[feed];
        return reply
          .type('text/csv; charset=utf-8')
          .header('x-next-cursor', page.nextCursor)
          .header('x-has-more', String(page.hasMore))
          .send(csvHeader(columns, sep) + csvRows(page.items, columns, sep));
      },
    });
  }
}
