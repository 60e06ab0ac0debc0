import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { ArticleCode, LocationCode } from '../../../../contract/ids.ts';
import {
  bestandTexts,
  type JournalFilterQuery,
  type JournalZeile,
} from '../../../../contract/leitstand/bestand.ts';
import { texts } from '../../../../contract/texts.ts';
import type { Database, MovementKind } from '../../../db/schema.ts';
import { invalid, notFound } from '../../../domain/errors.ts';
import { articleByCode } from '../../../repositories/article.repository.ts';
import { locationByCode } from '../../../repositories/location.repository.ts';
import { day, utc, utcOf } from './sql.ts';

/**
 * The Leitstand's movement journal (issue 20.3), read newest first a page at a time by keyset — the page after
 * (at, id) of the last row, never OFFSET — so page 10,000 of 2 M rows costs what page 1 costs. Each filter has
 * an index that delivers its rows in that order (migration 2026-11-25-02-journal-indexes); the location
 * filter reads two (the rows that left it and the rows that reached it) and merges them.
 */
type Db = Kysely<Database>;

/** The journal's filters as ids and UTC times; every field optional. */
export interface JournalFilter {
  articleId?: number;
  locationId?: number;
  userId?: number;
  kind?: MovementKind;
  /** At or after (UTC, microseconds). */
  from?: string;
  /** Before (UTC, microseconds). */
  to?: string;
}

/** Where a page starts: right after this row (newest first, so: older than it). */
export interface Position {
  at: string;
  id: number;
}

/**
 * The filters as the database knows them: article, location and user by what staff type, the times in
 * the site's time zone where they carry none. An unknown name is a 404, an ambiguous one or von ≥ bis a 400.
 */
export async function journalFilter(
  db: Db,
  query: JournalFilterQuery,
  timeZone: string,
): Promise<JournalFilter> {
  const filter: JournalFilter = {};
  if (query.art) filter.kind = query.art;
  if (query.artikel !== undefined) {
    // The filter's text is an article's code as the lead typed it.
    const found = await articleByCode(db, query.artikel as ArticleCode);
    if (found.count === 0 || found.id === null) {
      if (found.count > 1) throw invalid(bestandTexts.errors.articleAmbiguous(query.artikel, found.count));
      throw notFound(texts.lookup.articleNotFound(query.artikel));
    }
    filter.articleId = found.id;
  }
  if (query.lagerplatz !== undefined) {
    filter.locationId = (await locationByCode(db, query.lagerplatz as LocationCode)).id;
  }
  if (query.benutzer !== undefined) filter.userId = await userByName(db, query.benutzer);
  if (query.von !== undefined || query.bis !== undefined) {
    const time = (value: string | undefined, edge: 'start' | 'end') =>
      value === undefined ? sql`null` : utcOf(instant(value, timeZone, edge));
    const { rows } = await sql<{ from: string | null; to: string | null }>`
      select ${time(query.von, 'start')} as "from", ${time(query.bis, 'end')} as "to"`.execute(db);
    const times = rows[0];
    if (times?.from) filter.from = times.from;
    if (times?.to) filter.to = times.to;
    if (filter.from && filter.to && filter.from >= filter.to) throw invalid(bestandTexts.errors.range);
  }
  return filter;
}

/** A user by username, else by name when exactly one user has it (card-only users have no username). */
async function userByName(db: Db, name: string): Promise<number> {
  const byUsername = await db
    .selectFrom('users')
    .select('id')
    .where('username', '=', name)
    .executeTakeFirst();
  if (byUsername) return byUsername.id;
  const byName = await db
    .selectFrom('users')
    .select('id')
    .where(sql`lower(name)`, '=', name.toLowerCase())
    .limit(2)
    .execute();
  if (byName.length > 1) throw invalid(bestandTexts.errors.userAmbiguous(name));
  const only = byName[0];
  if (!only) throw notFound(bestandTexts.errors.userNotFound(name));
  return only.id;
}

/**
 * The instant a filter's time names (the contract lets only dates and ISO times through): a date is its
 * day's start in the site's time zone (`end`: the next day's start, so "bis 24.11." includes that day), a
 * time without zone is local there.
 */
function instant(value: string, timeZone: string, edge: 'start' | 'end'): RawBuilder<unknown> {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value))
    return sql`((${value}::date + ${edge === 'end' ? 1 : 0}::integer)::timestamp at time zone ${timeZone}::text)`;
  if (/(Z|[+-]\d{2}(:?\d{2})?)$/.test(value)) return sql`${value}::timestamptz`;
  return sql`(${value}::timestamp at time zone ${timeZone}::text)`;
}

/** The cursor is opaque to callers: base64url of "j|at|id". */
export function encodeCursor(position: Position): string {
  return Buffer.from(`j|${position.at}|${position.id}`, 'utf8').toString('base64url');
}

const CURSOR_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

/** The position a cursor names; a 400 if it is not one this journal handed out. */
export function decodeCursor(cursor: string): Position {
  const [tag, at, id, extra] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (
    tag !== 'j' ||
    at === undefined ||
    !CURSOR_TIME.test(at) ||
    Number.isNaN(Date.parse(at)) ||
    id === undefined ||
    !/^[1-9][0-9]{0,9}$/.test(id) ||
    Number(id) > 2_147_483_647 ||
    extra !== undefined
  )
    throw invalid(bestandTexts.errors.cursor);
  return { at, id: Number(id) };
}

/**
 * The ids and times of one page: the `limit` newest rows matching `filter` older than `after`. Each branch
 * reads one index backwards and stops after `limit` rows; a location's rows come from two indexes (rows
 * that left it, rows that reached it but did not leave it) merged here.
 */
export function journalPageQuery(
  filter: JournalFilter,
  after: Position | null,
  limit: number,
): RawBuilder<{ id: number; at: Date }> {
  const branch = (side: 'from' | 'to' | null) => {
    const where: RawBuilder<unknown>[] = [];
    if (filter.articleId !== undefined) where.push(sql`m.article_id = ${filter.articleId}::integer`);
    if (side === 'from') where.push(sql`m.from_location_id = ${filter.locationId}::integer`);
    if (side === 'to')
      where.push(
        sql`m.to_location_id = ${filter.locationId}::integer and m.from_location_id is distinct from ${filter.locationId}::integer`,
      );
    if (filter.userId !== undefined) where.push(sql`m.user_id = ${filter.userId}::integer`);
    if (filter.kind !== undefined) where.push(sql`m.kind = ${filter.kind}::text`);
    if (filter.from !== undefined) where.push(sql`m.at >= ${filter.from}::timestamptz`);
    if (filter.to !== undefined) where.push(sql`m.at < ${filter.to}::timestamptz`);
    if (after) where.push(sql`(m.at, m.id) < (${after.at}::timestamptz, ${after.id}::integer)`);
    const condition = where.length > 0 ? sql`where ${sql.join(where, sql` and `)}` : sql``;
    return sql`select m.id, m.at from movements m ${condition}
      order by m.at desc, m.id desc limit ${limit}::integer`;
  };
  if (filter.locationId === undefined) return sql`${branch(null)}`;
  return sql`select id, at from ((${branch('from')}) union all (${branch('to')})) both_sides
    order by at desc, id desc limit ${limit}::integer`;
}

/**
 * One page of the journal (newest first) and the cursor after its last row (null: nothing older). The names
 * beside a row (locations, user, document) are looked up one by one, not joined: PostgreSQL plans a prepared
 * statement anew at each call here (its generic plan, blind to the page's size, reads whole tables), and
 * searching the join order of seven tables cost 3 ms a call on PGlite — most of a CSV step's 5 ms, so the
 * journal's CSV went 50 rows a step. Looked up, a page of 50 rows takes 2.3 ms instead of 4.2.
 */
export async function journalPage(
  db: Db,
  filter: JournalFilter,
  after: Position | null,
  limit: number,
): Promise<{ zeilen: JournalZeile[]; weiter: string | null; last: Position | null }> {
  const { rows } = await sql<{
    id: number;
    at: string;
    art: MovementKind;
    artikel_id: number;
    nummer: string;
    name: string;
    von: string | null;
    nach: string | null;
    menge: number;
    charge: string | null;
    mhd: string | null;
    benutzer: string | null;
    beleg: string | null;
  }>`
    select m.id, ${utc('p.at')} as at, m.kind as art, a.id as artikel_id, a.nummer, a.name,
           (select code from locations where id = m.from_location_id) as von,
           (select code from locations where id = m.to_location_id) as nach,
           m.amount as menge, m.charge, ${day('m.mhd')} as mhd,
           (select name from users where id = m.user_id) as benutzer,
           coalesce((select nummer from receipts where id = m.receipt_id),
                    (select belegnr from delivery_notes where id = m.delivery_note_id)) as beleg
    from (${journalPageQuery(filter, after, limit + 1)}) p
    join movements m on m.id = p.id
    join articles a on a.id = m.article_id
    order by p.at desc, p.id desc`.execute(db);
  const more = rows.length > limit;
  const page = more ? rows.slice(0, limit) : rows;
  const zeilen = page.map((r) => ({
    id: r.id,
    at: r.at,
    art: r.art,
    artikel: { id: r.artikel_id, nummer: r.nummer, name: r.name },
    von: r.von,
    nach: r.nach,
    menge: r.menge,
    charge: r.charge,
    mhd: r.mhd,
    benutzer: r.benutzer,
    beleg: r.beleg,
  }));
  const lastRow = zeilen.at(-1);
  const last = lastRow ? { at: lastRow.at, id: lastRow.id } : null;
  return { zeilen, weiter: more && last ? encodeCursor(last) : null, last };
}
