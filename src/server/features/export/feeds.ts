import { type Kysely, type RawBuilder, sql } from 'kysely';
import { type ExportRow, FEEDS, type Feed, isoTime } from '../../../contract/export.ts';
import type { Database } from '../../db/schema.ts';
import { carrierFromTracking } from '../../domain/carrier.ts';
import { StepSize, type Steps } from '../../http/back-office.ts';

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

/** One SELECT per feed; `page` adds the keyset condition, order and limit on the journal's alias `j`. */
const queries: Record<Feed, (page: RawBuilder<unknown>) => RawBuilder<unknown>> = {
  movements: (page) => sql`
    select j.id, ${utc('j.at')} as time, j.kind, a.nummer as article, f.code as "from", t.code as "to",
           j.amount, j.charge, ${day('j.mhd')} as mhd, u.name as "user", r.nummer as receipt, d.belegnr
    from movements j
    join articles a on a.id = j.article_id
    left join locations f on f.id = j.from_location_id
    left join locations t on t.id = j.to_location_id
    left join users u on u.id = j.user_id
    left join receipts r on r.id = j.receipt_id
    left join delivery_notes d on d.id = j.delivery_note_id
    ${page}`,
  inventory: (page) => sql`
    select j.id, ${utc('j.at')} as time, l.code as location, a.nummer as article, j.counted, j.previous,
           u.name as "user"
    from inventory_counts j
    join locations l on l.id = j.location_id
    join articles a on a.id = j.article_id
    left join users u on u.id = j.user_id
    ${page}`,
  wmsreturns: (page) => sql`
    select j.id, ${utc('j.at')} as time, a.nummer as article, l.code as location, j.amount, j.charge,
           ${day('j.mhd')} as mhd, j.quality, u.name as "user"
    from wms_returns j
    join articles a on a.id = j.article_id
    join locations l on l.id = j.location_id
    left join users u on u.id = j.user_id
    ${page}`,
  parcels: (page) => sql`
    select j.id, ${utc('j.at')} as time, j.kind, s.tracking, s.carrier, d.belegnr, u.name as "user"
    from parcel_scans j
    join shipments s on s.id = j.shipment_id
    left join delivery_notes d on d.id = s.delivery_note_id
    left join users u on u.id = j.user_id
    ${page}`,
  customs: (page) => sql`
    select j.id, ${utc('j.at')} as time, c.wagennummer as cart, d.belegnr, u.name as "user"
    from customs_parcels j
    join carts c on c.id = j.cart_id
    join delivery_notes d on d.id = j.delivery_note_id
    left join users u on u.id = j.user_id
    ${page}`,
  receiptdifferences: (page) => sql`
    select j.id, ${utc('j.at')} as time, r.nummer as receipt, r.lieferant as supplier, a.nummer as article,
           j.charge, ${day('j.mhd')} as mhd, j.expected, j.received, j.fehlmenge as short, j.mehrmenge as over,
           u.name as "user"
    from receipt_differences j
    join receipts r on r.id = j.receipt_id
    join articles a on a.id = j.article_id
    left join users u on u.id = j.user_id
    ${page}`,
  pickshortages: (page) => sql`
    select j.id, ${utc('j.at')} as time, d.belegnr, a.nummer as article, j.amount, u.name as "user"
    from pick_shortages j
    join delivery_notes d on d.id = j.delivery_note_id
    join articles a on a.id = j.article_id
    left join users u on u.id = j.user_id
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

export const isFeed = (name: string): name is Feed => (FEEDS as readonly string[]).includes(name);
