import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import * as contract from '../../../../contract/leitstand/bestand.ts';
import { type Deps, registerEndpoint } from '../../../http/route.ts';
import { registerDownload, registerSteppedEndpoint } from '../../../http/stepped-route.ts';
import * as journal from './journal.ts';
import { csvFileName, journalCsv } from './journal-csv.ts';
import * as service from './service.ts';

export function bestandRoutes(app: FastifyInstance, deps: Deps): void {
  registerSteppedEndpoint(app, deps, contract.bestandArtikel, async ({ query }, { db, steps }) => ({
    success: true as const,
    ...(await service.bestandArtikel(steps, db, query.q, query.limit)),
  }));

  registerEndpoint(app, deps, contract.bestandLagerplatz, async ({ params }, { db }) => ({
    success: true as const,
    ...(await service.bestandLagerplatz(db, params.code)),
  }));

  registerEndpoint(app, deps, contract.journal, async ({ query }, { db, config }) => {
    const filter = await journal.journalFilter(db, query, config.timeZone);
    const after = query.cursor === undefined ? null : journal.decodeCursor(query.cursor);
    const page = await journal.journalPage(db, filter, after, query.limit ?? contract.JOURNAL_PAGE);
    return { success: true as const, zeilen: page.zeilen, weiter: page.weiter };
  });

  // The CSV is no JSON answer, so not registerEndpoint: the same login and role check, the same query
  // parsing and German refusals (before the first byte), then every matching row, streamed a step at a time
  // behind the floor (DESIGN §10) — a heavy operation: at most HEAVY_OPERATIONS_MAX at once.
  registerDownload(
    app,
    deps,
    contract.journalCsv,
    async ({ query }, { user, steps, request, reply }) => {
      const filter = await steps.run(() => journal.journalFilter(deps.db, query, deps.config.timeZone));
      const rows = journalCsv(deps.db, steps, filter, deps.config.timeZone, (count) =>
        request.log.info({ user: user.id, rows: count }, 'journal csv'),
      );
      return reply
        .type('text/csv; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('content-disposition', `attachment; filename="${csvFileName(deps.config.timeZone)}"`)
        .send(Readable.from(rows));
    },
    { heavy: true },
  );
}
