import { type Kysely, type RawBuilder, sql } from 'kysely';
import {
  DEFAULT_LIMIT,
  type ExportRow,
  exportColumns,
  exportMessages,
  exportQuery,
  FEEDS,
  type Feed,
  isoTime,
} from '../../../contract/export.ts';
import type { Database } from '../../db/schema.ts';
import { carrierFromTracking } from '../../domain/carrier.ts';
import { invalid } from '../../domain/errors.ts';
import { StepSize, type Steps } from '../../http/back-office.ts';
import { csvHeader, csvRows, type Separator } from '../../http/csv.ts';

/**
 * The export feeds: each journal read in (time, id) order, a page at a time (keyset pagination on the
 * (at, id) index of each table, so page 1,000 costs what page 1 costs). Times go out in UTC with the
 * database's microseconds: a cursor carries the exact time, so no row is skipped or repeated at a page edge.
 */
type Db = Kysely<Database>;

/** Where a page starts: after this (time, id). `id` 0 with a `since` time means "from that time on". */
export interface Position {
  time: string;
  id: number;
}

export interface ExportPage<F extends Feed> {
  items: ExportRow[F][];
  nextCursor: string;
  hasMore: boolean;
}

const cursorTime = isoTime();
const MAX_ID = 2_147_483_647;

/** The cursor is opaque to callers: base64url of "feed|time|id". */
export function encodeCursor(feed: Feed, position: Position): string {
  return Buffer.from(`${feed}|${position.time}|${position.id}`, 'utf8').toString('base64url');
}

/** The position a cursor of this feed names, or null if it is not one this feed handed out. */
export function decodeCursor(feed: Feed, cursor: string): Position | null {
  const [name, time, id, extra] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (name !== feed || time === undefined || id === undefined || extra !== undefined) return null;
  if (!cursorTime.safeParse(time).success || !/^(0|[1-9][0-9]{0,9})$/.test(id) || Number(id) > MAX_ID)
    return null;
  return { time, id: Number(id) };
}

const utc = (column: string) =>
  sql.raw(`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`);
const day = (column: string) => sql.raw(`to_char(${column}, 'YYYY-MM-DD')`);

/**
 * One SELECT per feed; `page` adds the keyset condition, order and limit on the journal's alias `j`. The
 * names beside a row are looked up one by one (`name`), not joined: PostgreSQL plans each page's statement
 * anew, and searching the join order of the journal's seven tables took 17 ms a call on PGlite's large
 * warehouse — steps of a few rows, an export page of 10,000 rows in seconds. Looked up, a row costs what its
 * index reads cost.
 */
const name = (column: string, table: string, key: string) =>
  sql.raw(`(select ${column} from ${table} where id = j.${key})`);

const queries: Record<Feed, (page: RawBuilder<unknown>) => RawBuilder<unknown>> = {
  movements: (page) => sql`
    select j.id, ${utc('j.at')} as time, j.kind, ${name('nummer', 'articles', 'article_id')} as article,
           ${name('code', 'locations', 'from_location_id')} as "from", ${name('code', 'locations', 'to_location_id')} as "to",
           j.amount, j.charge, ${day('j.mhd')} as mhd, ${name('name', 'users', 'user_id')} as "user",
           ${name('nummer', 'receipts', 'receipt_id')} as receipt, ${name('belegnr', 'delivery_notes', 'delivery_note_id')} as belegnr
    from movements j
    ${page}`,
  inventory: (page) => sql`
    select j.id, ${utc('j.at')} as time, ${name('code', 'locations', 'location_id')} as location,
           ${name('nummer', 'articles', 'article_id')} as article, j.counted, j.previous, ${name('name', 'users', 'user_id')} as "user"
    from inventory_counts j
    ${page}`,
  wmsreturns: (page) => sql`
    select j.id, ${utc('j.at')} as time, ${name('nummer', 'articles', 'article_id')} as article,
           ${name('code', 'locations', 'location_id')} as location, j.amount, j.charge,
           ${day('j.mhd')} as mhd, j.quality, ${name('name', 'users', 'user_id')} as "user"
    from wms_returns j
    ${page}`,
  parcels: (page) => sql`
    select j.id, ${utc('j.at')} as time, j.kind, s.tracking, s.carrier,
           (select belegnr from delivery_notes where id = s.delivery_note_id) as belegnr, ${name('name', 'users', 'user_id')} as "user"
    from parcel_scans j
    join shipments s on s.id = j.shipment_id
    ${page}`,
  customs: (page) => sql`
    select j.id, ${utc('j.at')} as time, ${name('wagennummer', 'carts', 'cart_id')} as cart,
           ${name('belegnr', 'delivery_notes', 'delivery_note_id')} as belegnr, ${name('name', 'users', 'user_id')} as "user"
    from customs_parcels j
    ${page}`,
  receiptdifferences: (page) => sql`
    select j.id, ${utc('j.at')} as time, r.nummer as receipt, r.lieferant as supplier,
           ${name('nummer', 'articles', 'article_id')} as article, j.charge, ${day('j.mhd')} as mhd, j.expected,
           j.received, j.fehlmenge as short, j.mehrmenge as over, ${name('name', 'users', 'user_id')} as "user"
    from receipt_differences j
    join receipts r on r.id = j.receipt_id
    ${page}`,
  pickshortages: (page) => sql`
    select j.id, ${utc('j.at')} as time, ${name('belegnr', 'delivery_notes', 'delivery_note_id')} as belegnr,
           ${name('nummer', 'articles', 'article_id')} as article, j.amount, ${name('name', 'users', 'user_id')} as "user"
    from pick_shortages j
    ${page}`,
};

/** The SQL of one page (also for EXPLAIN in the tests). */
export function pageQuery(
  feed: Feed,
  from: { after: Position; since: string | null; limit: number },
): RawBuilder<Record<string, unknown>> {
  const since = from.since === null ? sql`` : sql`and j.at >= ${from.since}::timestamptz`;
  const page = sql`where (j.at, j.id) > (${from.after.time}::timestamptz, ${from.after.id}::integer) ${since}
    order by j.at, j.id limit ${from.limit}::integer`;
  return queries[feed](page) as RawBuilder<Record<string, unknown>>;
}

/**
 * One page of a feed: the rows after `cursor` (or from `since` on), at most `limit`. `nextCursor` continues
 * after the last row; with no row it stays where the caller was, so it can always be stored and used later.
 * A page of up to 10,000 rows is read in steps of about STEP_TARGET_MS each (keyset, as the pages are), so a
 * large page never holds the embedded database for long at a time.
 */
export async function exportPage<F extends Feed>(
  steps: Steps,
  db: Db,
  feed: F,
  from: { since: string | null; cursor: Position | null; limit: number },
): Promise<ExportPage<F>> {
  const start = from.cursor ?? { time: from.since ?? '-infinity', id: 0 };
  const rows: Record<string, unknown>[] = [];
  const size = new StepSize({ max: from.limit + 1, start: Math.min(from.limit + 1, 500) });
  let after = start;
  // One row beyond the limit says whether there is more.
  while (rows.length < from.limit + 1) {
    const want = from.limit + 1 - rows.length;
    const part = await steps.run(() =>
      size.timed(async (most) => {
        const limit = Math.min(most, want);
        const { rows } = await pageQuery(feed, { after, since: from.since, limit }).execute(db);
        return { found: rows, rows: rows.length, complete: rows.length < limit };
      }),
    );
    rows.push(...part.found);
    const last = part.found.at(-1) as { time: string; id: number } | undefined;
    if (part.complete || !last) break;
    after = { time: last.time, id: last.id };
  }
  const hasMore = rows.length > from.limit;
  const items = (hasMore ? rows.slice(0, from.limit) : rows) as ExportRow[F][];
  if (feed === 'parcels') {
    for (const row of items as ExportRow['parcels'][])
      row.carrier = row.carrier ?? carrierFromTracking(row.tracking);
  }
  const last = items.at(-1);
  return {
    items,
    nextCursor: encodeCursor(feed, last ? { time: last.time, id: last.id } : start),
    hasMore,
  };
}

/** A page as asked for: where it starts, how long it is, and the CSV separator (null: JSON). */
export interface PageRequest {
  since: string | null;
  cursor: Position | null;
  limit: number;
  csv: Separator | null;
}

/**
 * A page's query string, checked for the integrator (English 400s, `exportMessages`): a cursor this feed
 * handed out or a `since` time, and `sep` only with `format=csv`.
 */
export function pageRequest(feed: Feed, raw: unknown): PageRequest {
  const parsed = exportQuery.safeParse(raw ?? {});
  if (!parsed.success) throw invalid(parsed.error.issues[0]?.message ?? exportMessages.sinceOrCursor);
  const query = parsed.data;
  const cursor = query.cursor === undefined ? null : decodeCursor(feed, query.cursor);
  if (query.cursor !== undefined && !cursor) throw invalid(exportMessages.cursor);
  if (!cursor && query.since === undefined) throw invalid(exportMessages.sinceOrCursor);
  if (query.sep !== undefined && query.format !== 'csv') throw invalid(exportMessages.sep);
  return {
    since: query.since ?? null,
    cursor,
    limit: query.limit ?? DEFAULT_LIMIT,
    csv: query.format === 'csv' ? (query.sep ?? ',') : null,
  };
}

/** A page's rows as CSV with its header line (`;` for German Excel, with a byte order mark). */
export function pageCsv<F extends Feed>(feed: F, items: ExportRow[F][], sep: Separator): string {
  const columns = exportColumns[feed];
  return csvHeader(columns, sep) + csvRows(items, columns, sep);
}

export const isFeed = (name: string): name is Feed => (FEEDS as readonly string[]).includes(name);
