import { type Kysely, sql } from 'kysely';
import {
  AUDIT_LIST_COLUMNS,
  rangeRefusal,
  inventurAuswertungTexts as T,
} from '../../../../contract/leitstand/inventur-auswertung.ts';
import type { Database } from '../../../db/schema.ts';
import { invalid } from '../../../domain/errors.ts';
import { StepSize, type Steps } from '../../../http/back-office.ts';
import { csvHeader, csvRows } from '../../../http/csv.ts';
import { postedAt } from './coverage.ts';

type Db = Kysely<Database>;

/** The most rows one step of the list reads; fewer when rows take longer (StepSize). */
const LIST_STEP_MAX = 2_000;

/** The list's range as instants: from the first day's start to the day after the last, in the site's zone. */
export interface ListRange {
  von: string;
  bis: string;
  from: string;
  to: string;
}

/** The query's days checked (a German 400) and turned into instants. */
export async function listRange(
  db: Db,
  query: { von: string; bis: string },
  timeZone: string,
): Promise<ListRange> {
  const refusal = rangeRefusal(query.von, query.bis);
  if (refusal) throw invalid(refusal);
  const { rows } = await sql<{ from: string; to: string }>`
    select ((${query.von}::date)::timestamp at time zone ${timeZone}::text)::text as "from",
           ((${query.bis}::date + 1)::timestamp at time zone ${timeZone}::text)::text as "to"`.execute(db);
  const row = rows[0];
  if (!row) throw new Error('list range: no row');
  return { ...query, ...row };
}

/** Where a row of the list came from. */
type Source = 'plan' | 'fehlmenge' | 'nachzaehlung' | 'frei';

/** One row of the Inventurliste: a counted article on a location, as posted. */
export interface AuditListRow {
  location: string;
  nummer: string;
  name: string;
  counted: number;
  book: number;
  countedBy: string;
  countedAt: Date;
  /** The lead who posted it; null: posted at once (within tolerance), or a free count. */
  approvedBy: string | null;
  source: Source;
}

/** The keyset of the list: posted at, then count tasks before free counts, then the task's or count's id, the line. */
interface Position {
  at: string;
  src: number;
  id: number;
  line: number;
}

interface Row {
  posted: Date;
  at: string;
  src: number;
  id: number;
  line: number;
  location: string;
  nummer: string | null;
  name: string | null;
  counted: number;
  book: number;
  counted_by: string | null;
  counted_at: Date;
  approved_by: string | null;
  source: Source;
}

/**
 * A slice of the list, oldest posting first: the posted count tasks' lines (every article counted or in stock
 * at 'Fertig', with the book stock then; a location found empty as it was booked, one row without an article)
 * and the free Inventur counts (the stock before it as the book), each branch along its time index.
 */
async function listSlice(db: Db, range: ListRange, after: Position, limit: number): Promise<Row[]> {
  // Each branch ordered and limited along its own index, so a slice reads `limit` rows of each at most.
  const { rows } = await sql<Row>`
    select * from (
      (select ${postedAt('t')} as posted, ${postedAt('t')}::text as at, 0 as src, t.id, coalesce(cl.id, 0) as line,
             l.code as location, a.nummer, a.name, coalesce(cl.counted, 0) as counted, coalesce(cl.book, 0) as book,
             cu.name as counted_by, t.finished_at as counted_at, au.name as approved_by, t.reason as source
      from count_tasks t
      join locations l on l.id = t.location_id
      left join count_lines cl on cl.task_id = t.id
      left join articles a on a.id = cl.article_id
      left join users cu on cu.id = t.counted_by
      left join users au on au.id = t.approved_by
      where t.status = 'gebucht'
        and ${postedAt('t')} >= ${after.at}::timestamptz and ${postedAt('t')} < ${range.to}::timestamptz
        and (${postedAt('t')}, 0, t.id, coalesce(cl.id, 0))
          > (${after.at}::timestamptz, ${after.src}::integer, ${after.id}::integer, ${after.line}::integer)
      order by ${postedAt('t')}, t.id, coalesce(cl.id, 0)
      limit ${limit}::integer)
      union all
      (select ic.at, ic.at::text, 1, ic.id, 0, l.code, a.nummer, a.name, ic.counted, ic.previous,
             u.name, ic.at, null, 'frei'
      from inventory_counts ic
      join locations l on l.id = ic.location_id
      join articles a on a.id = ic.article_id
      left join users u on u.id = ic.user_id
      where ic.at >= ${after.at}::timestamptz and ic.at < ${range.to}::timestamptz
        and (ic.at, 1, ic.id) > (${after.at}::timestamptz, ${after.src}::integer, ${after.id}::integer)
      order by ic.at, ic.id
      limit ${limit}::integer)
    ) x
    order by x.posted, x.src, x.id, x.line
    limit ${limit}::integer`.execute(db);
  return rows;
}

/**
 * The list's rows, a keyset slice per step behind the floor (DESIGN §10): a year of counts on the large
 * warehouse is half a million rows, and the list never sits in memory whole.
 */
export async function* auditListRows(steps: Steps, db: Db, range: ListRange): AsyncGenerator<AuditListRow[]> {
  const size = new StepSize({ max: LIST_STEP_MAX, start: 100 });
  // Just before the range: the first slice's tuple comparison lets every row of the range through.
  let after: Position = { at: range.from, src: -1, id: 0, line: 0 };
  for (;;) {
    const slice = await steps.run(() =>
      size.timed(async (limit) => {
        const rows = await listSlice(db, range, after, limit);
        return { rows: rows.length, list: rows, complete: rows.length < limit };
      }),
    );
    if (slice.list.length > 0) yield slice.list.map(rowOf);
    const last = slice.list.at(-1);
    if (slice.complete || !last) break;
    after = { at: last.at, src: last.src, id: last.id, line: last.line };
  }
}

function rowOf(r: Row): AuditListRow {
  return {
    location: r.location,
    nummer: r.nummer ?? '',
    name: r.name ?? '',
    counted: r.counted,
    book: r.book,
    countedBy: r.counted_by ?? '–',
    countedAt: new Date(r.counted_at),
    approvedBy: r.approved_by,
    source: r.source,
  };
}

/** "2026-11-24 10:15" in the site's time zone: a time German Excel reads as one. */
export function localTime(timeZone: string): (at: Date) => string {
  const format = new Intl.DateTimeFormat('sv-SE', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  return (at) => format.format(at);
}

/** A row's cells, in AUDIT_LIST_COLUMNS' order (the CSV's and the PDF's). */
export function cellsOf(row: AuditListRow, time: (at: Date) => string): (string | number)[] {
  return [
    row.location,
    row.nummer,
    row.name,
    row.counted,
    row.book,
    row.counted - row.book,
    row.countedBy,
    time(row.countedAt),
    row.source === 'frei' ? T.freeCount : (row.approvedBy ?? T.withinTolerance),
    T.arten[row.source],
  ];
}

/** The list as CSV for German Excel (`;`, UTF-8 with a byte order mark), a slice per step. */
export async function* auditListCsv(
  steps: Steps,
  db: Db,
  range: ListRange,
  timeZone: string,
): AsyncGenerator<string> {
  const time = localTime(timeZone);
  yield csvHeader(AUDIT_LIST_COLUMNS, ';');
  for await (const rows of auditListRows(steps, db, range)) {
    const records = rows.map((row) => {
      const cells = cellsOf(row, time);
      return Object.fromEntries(AUDIT_LIST_COLUMNS.map((column, i) => [column, cells[i]]));
    });
    yield csvRows(records, AUDIT_LIST_COLUMNS, ';');
  }
}

/** The files' names: inventurliste-2026-01-01-bis-2026-11-28.csv. */
export const listFileName = (range: ListRange, extension: 'csv' | 'pdf') =>
  `inventurliste-${range.von}-bis-${range.bis}.${extension}`;
