import type { Kysely } from 'kysely';
import * as contract from '../../../../contract/leitstand/bestand.ts';
import type { Database } from '../../../db/schema.ts';
import { StepSize, type Steps } from '../../../http/back-office.ts';
import { csvHeader, csvRows } from '../../../http/csv.ts';
import * as journal from './journal.ts';

/** The most rows one step of the CSV reads; fewer when rows take longer (StepSize). */
const CSV_PAGE_MAX = 5000;

/** The CSV's file name, with today in the site's time zone: journal-2026-11-24.csv. */
export function csvFileName(timeZone: string): string {
  return `journal-${new Intl.DateTimeFormat('sv-SE', { timeZone }).format(new Date())}.csv`;
}

/**
 * The filtered journal as CSV for German Excel (`;`, UTF-8 with a byte order mark, every text cell
 * neutralised by csvCell), newest first, a keyset page at a time: the whole journal never sits in memory.
 * Each page is one step — read and written as CSV in about STEP_TARGET_MS, however long a row takes here.
 */
export async function* journalCsv(
  db: Kysely<Database>,
  steps: Steps,
  filter: journal.JournalFilter,
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
  let after: journal.Position | null = null;
  let count = 0;
  const size = new StepSize({ max: CSV_PAGE_MAX, start: 200 });
  for (;;) {
    const page = await steps.run(() =>
      size.timed(async (limit) => {
        const page = await journal.journalPage(db, filter, after, limit);
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
