import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import * as contract from '../../../../contract/leitstand/bestand.ts';
import type { Database } from '../../../db/schema.ts';
import { StepSize, type Steps } from '../../../http/back-office.ts';
import { csvHeader, csvRows } from '../../../http/csv.ts';
import {
  type Deps,
  registerDownload,
  registerEndpoint,
  registerSteppedEndpoint,
} from '../../../http/route.ts';
import * as service from './service.ts';

/** The most rows one step of the CSV reads; fewer when rows take longer (StepSize). */
const CSV_PAGE_MAX = 5000;

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
    const filter = await service.journalFilter(db, query, config.timeZone);
    const after = query.cursor === undefined ? null : service.decodeCursor(query.cursor);
    const page = await service.journalPage(db, filter, after, query.limit ?? contract.JOURNAL_PAGE);
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
      const filter = await steps.run(() => service.journalFilter(deps.db, query, deps.config.timeZone));
      const rows = journalCsv(deps.db, steps, filter, deps.config.timeZone, (count) =>
        request.log.info({ user: user.id, rows: count }, 'journal csv'),
      );
      return reply
        .type('text/csv; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('content-disposition', `attachment; filename="journal-${fileDate(deps.config.timeZone)}.csv"`)
        .send(Readable.from(rows));
    },
    { heavy: true },
  );
}

/** Today in the site's time zone, for the file name: 2026-11-24. */
function fileDate(timeZone: string): string {
  return new Intl.DateTimeFormat('sv-SE', { timeZone }).format(new Date());
}

/**
 * The filtered journal as CSV for German Excel (`;`, UTF-8 with a byte order mark, every text cell
 * neutralised by csvCell), newest first, a keyset page at a time: the whole journal never sits in memory.
 * Each page is one step — read and written as CSV in about STEP_TARGET_MS, however long a row takes here.
 */
async function* journalCsv(
  db: Kysely<Database>,
  steps: Steps,
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
  const size = new StepSize({ max: CSV_PAGE_MAX, start: 200 });
  for (;;) {
    const page = await steps.run(() =>
      size.timed(async (limit) => {
        const page = await service.journalPage(db, filter, after, limit);
        return { ...page, rows: page.zeilen.length, csv: page.zeilen.length > 0 ? csvOf(page.zeilen) : '' };
      }),
    );
    count += page.rows;
    if (page.csv) yield page.csv;
    if (!page.weiter || !page.last) break;
    after = page.last;
  }
  done(count);

  function csvOf(zeilen: contract.JournalZeile[]): string {
    const rows = zeilen.map((z) => ({
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
      Beleg: z.beleg,
    }));
    return csvRows(rows, columns, ';');
  }
}
