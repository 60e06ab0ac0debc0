import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import * as contract from '../../../../contract/leitstand/bestand.ts';
import { hasRole } from '../../../../contract/roles.ts';
import { texts } from '../../../../contract/texts.ts';
import type { Database } from '../../../db/schema.ts';
import { forbidden } from '../../../domain/errors.ts';
import { csvHeader, csvRows } from '../../../http/csv.ts';
import { type Deps, parseInput, registerEndpoint, requireUser } from '../../../http/route.ts';
import * as service from './service.ts';

/** Rows per query while the CSV streams: each a short statement, so other requests run between them. */
const CSV_PAGE = 1000;

export function bestandRoutes(app: FastifyInstance, deps: Deps): void {
  registerEndpoint(app, deps, contract.bestandArtikel, async ({ query }, { db }) => ({
    success: true as const,
    ...(await service.bestandArtikel(db, query.q)),
  }));

  registerEndpoint(app, deps, contract.bestandLagerplatz, async ({ params }, { db }) => ({
    success: true as const,
    ...(await service.bestandLagerplatz(db, params.code)),
  }));

  registerEndpoint(app, deps, contract.journal, async ({ query }, { db, config }) => {
    const filter = await service.journalFilter(db, query, config.timeZone);
    const after = query.cursor === undefined ? null : service.decodeCursor(query.cursor);
    const page = await service.journalPage(db, filter, after, query.limit ?? contract.JOURNAL_PAGE);
    return { success: true as const, zeilen: page.zeilen, weiter: page.weiter };
  });

  // The CSV is no JSON answer, so not registerEndpoint: the same login and role check, the same query
  // parsing and German refusals (before the first byte), then every matching row, streamed.
  const endpoint = contract.journalCsv;
  app.route({
    method: endpoint.method,
    url: endpoint.path,
    handler: async (request, reply) => {
      const user = await requireUser(deps, request);
      if (endpoint.role && !hasRole(user.role, endpoint.role))
        throw forbidden(texts.errors.role[endpoint.role]);
      const query = parseInput(endpoint, endpoint.query, request.query ?? {}) as contract.JournalFilterQuery;
      const filter = await service.journalFilter(deps.db, query, deps.config.timeZone);
      const rows = journalCsv(deps.db, filter, deps.config.timeZone, (count) =>
        request.log.info({ user: user.id, rows: count }, 'journal csv'),
      );
      return reply
        .type('text/csv; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('content-disposition', `attachment; filename="journal-${fileDate(deps.config.timeZone)}.csv"`)
        .send(Readable.from(rows));
    },
  });
}

/** Today in the site's time zone, for the file name: 2026-11-24. */
function fileDate(timeZone: string): string {
  return new Intl.DateTimeFormat('sv-SE', { timeZone }).format(new Date());
}

/**
 * The filtered journal as CSV for German Excel (`;`, UTF-8 with a byte order mark, every text cell
 * neutralised by csvCell), newest first, a keyset page at a time: the whole journal never sits in memory.
 */
async function* journalCsv(
  db: Kysely<Database>,
  filter: service.JournalFilter,
  timeZone: string,
  done: (rows: number) => void,
): AsyncGenerator<string> {
  const columns = contract.JOURNAL_CSV_COLUMNS;
  // "2026-11-24 10:15:02" in the site's time zone: a time German Excel reads as one.
  const local = new Intl.DateTimeFormat('sv-SE', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });
  yield csvHeader(columns, ';');
  let after: service.Position | null = null;
  let count = 0;
  for (;;) {
    const page = await service.journalPage(db, filter, after, CSV_PAGE);
    count += page.zeilen.length;
    const rows = page.zeilen.map((z) => ({
      Zeit: local.format(new Date(z.at)),
      Art: contract.bestandTexts.kinds[z.art],
      Artikelnummer: z.artikel.nummer,
      Bezeichnung: z.artikel.name,
      Von: z.von,
      Nach: z.nach,
      Menge: z.menge,
      Charge: z.charge,
      MHD: z.mhd,
      Benutzer: z.benutzer,
      Buchungsnummer: z.id,
    }));
    if (rows.length > 0) yield csvRows(rows, columns, ';');
    if (!page.weiter || !page.last) break;
    after = page.last;
  }
  done(count);
}
