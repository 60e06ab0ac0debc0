import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { ArticleCode, LocationCode } from '../../../../contract/ids.ts';
import {
  type ArtikelTreffer,
  BESTAND_ROWS_PER_ARTICLE,
  bestandTexts,
  type JournalFilterQuery,
  type JournalZeile,
  type MovementKindName,
  SEARCH_LIMIT,
} from '../../../../contract/leitstand/bestand.ts';
import { texts } from '../../../../contract/texts.ts';
import type { Database, MovementKind } from '../../../db/schema.ts';
import { invalid, notFound } from '../../../domain/errors.ts';
import { StepSize, type Steps } from '../../../http/back-office.ts';
import { articleByCode, articleCodeMatch } from '../../../repositories/article.repository.ts';
import { locationByCode } from '../../../repositories/location.repository.ts';

/**
 * The Leitstand's Bestand (issue 20.3): search, a location's content, and the movement journal read newest
 * first a page at a time by keyset — the page after (at, id) of the last row, never OFFSET — so page 10,000
 * of 2 M rows costs what page 1 costs. Each filter has an index that delivers its rows in that order
 * (migration 2026-11-25-02-journal-indexes); the location filter reads two (the rows that left it and the
 * rows that reached it) and merges them.
 */
type Db = Kysely<Database>;

// The contract's list of kinds and the database's are the same (a compile error here if one grows alone).
const kindsMatch: [MovementKind, MovementKindName] extends [MovementKindName, MovementKind] ? true : never =
  true;
void kindsMatch;

/** A time as UTC text with the database's microseconds: 2026-11-24T09:15:02.123456Z. */
const utcOf = (time: RawBuilder<unknown>) =>
  sql<string>`to_char(${time} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
const utc = (column: string) => utcOf(sql.raw(column));
const day = (column: string) => sql.raw<string | null>(`to_char(${column}, 'YYYY-MM-DD')`);

/** `%text%` for ILIKE, the pattern characters in the text taken literally. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

// ── Search and location content ─────────────────────────────────────────────────────────────────────────

/** The columns a search hit carries. */
interface Hit {
  id: number;
  nummer: string;
  name: string;
  ean: string | null;
  herstellernummer: string | null;
  /** How it was found: 1 nummer, 2 EAN, 3 herstellernummer, 4 a part of the name. */
  rank: number;
}

/** Articles whose code is `q` (nummer, EAN ± one leading 0, herstellernummer): b-tree indexes, best first. */
export function articleCodeQuery(db: Db, q: string) {
  const match = articleCodeMatch(q);
  return db
    .selectFrom('articles')
    .select(['id', 'nummer', 'name', 'ean', 'herstellernummer', match.rank.as('rank')])
    .where(match.where)
    .orderBy('rank')
    .orderBy('nummer')
    .limit(SEARCH_LIMIT + 1);
}

/**
 * The articles whose name holds `q`, at most NAME_CANDIDATES + 1 of them, as the trigram index
 * (articles_name_trgm_idx, migration 2026-11-26-04) finds them: a name that rare is collected whole in one
 * step. (Trigrams need 3 characters; shorter text goes the window's way.)
 */
export function nameCandidatesQuery(db: Db, q: string) {
  return db
    .selectFrom('articles')
    .select('id')
    .where('name', 'ilike', containing(q))
    .limit(NAME_CANDIDATES + 1);
}

/**
 * A name shared by more articles than this is read in nummer order, a window of the nummer index at a time,
 * until the page is full: collecting and sorting every match of 'a' among 100,000 articles held the embedded
 * database for 58–338 ms, and a broad name fills the page within the first windows.
 */
const NAME_CANDIDATES = 500;

/** The most articles one window of the nummer index reads (fewer when a window takes longer than a step). */
const NAME_WINDOW_MAX = 5000;

/**
 * Articles whose name holds `q` (case-insensitively), not among `skip`, by nummer: at most `want`. Each read
 * is one step (DESIGN §10).
 */
async function nameMatches(steps: Steps, db: Db, q: string, want: number, skip: Set<number>): Promise<Hit[]> {
  const hits: Hit[] = [];
  const columns = ['id', 'nummer', 'name', 'ean', 'herstellernummer', sql<number>`4`.as('rank')] as const;
  if (q.length >= 3) {
    const candidates = await steps.run(() => nameCandidatesQuery(db, q).execute());
    if (candidates.length <= NAME_CANDIDATES) {
      const ids = candidates.map((c) => c.id).filter((id) => !skip.has(id));
      if (ids.length === 0) return [];
      return steps.run(() =>
        db
          .selectFrom('articles')
          .select(columns)
          .where('id', 'in', ids)
          .orderBy('nummer')
          .limit(want)
          .execute(),
      );
    }
  }
  const size = new StepSize({ max: NAME_WINDOW_MAX, start: 500 });
  let after: string | null = null;
  while (hits.length < want) {
    const window = await steps.run(() =>
      size.timed(async (rows) => {
        const { rows: found } = await sql<{ seen: number; last: string | null; hits: Hit[] | null }>`
          with w as (
            select id, nummer, name, ean, herstellernummer from articles
            ${after === null ? sql`` : sql`where nummer > ${after}`}
            order by nummer limit ${rows}::integer)
          select (select count(*) from w)::integer as seen, (select max(nummer) from w) as last,
                 (select json_agg(json_build_object('id', id, 'nummer', nummer, 'name', name, 'ean', ean,
                                                    'herstellernummer', herstellernummer, 'rank', 4)
                                  order by nummer)
                  from w where name ilike ${containing(q)}) as hits`.execute(db);
        const window = found[0] ?? { seen: 0, last: null, hits: null };
        return {
          rows: window.seen,
          last: window.last,
          hits: window.hits ?? [],
          complete: window.seen < rows,
        };
      }),
    );
    for (const hit of window.hits) if (!skip.has(hit.id) && hits.length < want) hits.push(hit);
    if (window.complete || window.last === null) break;
    after = window.last;
  }
  return hits;
}

/**
 * Articles named by `q`: its nummer, EAN (± one leading 0) or herstellernummer exactly (the rule of
 * `articleCodeMatch`), or a part of the name, case-insensitively. Code matches first, then by nummer; at
 * most `pageSize` (SEARCH_LIMIT), each with the first BESTAND_ROWS_PER_ARTICLE locations holding it, the
 * count of the others and the whole stock. Read in steps: the code matches, the names (one step for a rare
 * name, windows for a common one), the stock.
 */
export async function bestandArtikel(
  steps: Steps,
  db: Db,
  q: string,
  pageSize: number = SEARCH_LIMIT,
): Promise<{ artikel: ArtikelTreffer[]; mehr: boolean }> {
  const size = Math.min(Math.max(1, pageSize), SEARCH_LIMIT);
  const limit = size + 1;
  const found: Hit[] = (await steps.run(() => articleCodeQuery(db, q).execute())).slice(0, limit);
  if (found.length < limit)
    found.push(...(await nameMatches(steps, db, q, limit - found.length, new Set(found.map((a) => a.id)))));
  const mehr = found.length > size;
  const articles = found.slice(0, size);
  const stock =
    articles.length === 0
      ? []
      : await steps.run(async () => {
          const { rows } = await sql<StockRow>`
            select article_id, lagerplatz, "lagerplatzName", lagertyp, menge, charge, mhd, rows, total
            from (
              select s.article_id, l.code as lagerplatz, l.name as "lagerplatzName", l.lagertyp,
                     s.amount as menge, s.charge, to_char(s.mhd, 'YYYY-MM-DD') as mhd,
                     row_number() over w as place,
                     count(*) over (partition by s.article_id)::integer as rows,
                     sum(s.amount) over (partition by s.article_id)::float8 as total
              from stock s join locations l on l.id = s.location_id
              where s.article_id = any(${articles.map((a) => a.id)}::integer[]) and s.amount > 0
              window w as (partition by s.article_id order by l.code, s.mhd nulls last, s.charge)
            ) listed
            where place <= ${BESTAND_ROWS_PER_ARTICLE}::integer
            order by article_id, place`.execute(db);
          return rows;
        });
  const TREFFER = ['nummer', 'ean', 'herstellernummer', 'name'] as const;
  return {
    artikel: articles.map((a) => {
      const own = stock.filter((s) => s.article_id === a.id);
      const bestand = own.map(({ article_id: _, rows: __, total: ___, ...row }) => row);
      const rows = own[0]?.rows ?? 0;
      return {
        id: a.id,
        nummer: a.nummer,
        name: a.name,
        ean: a.ean,
        herstellernummer: a.herstellernummer,
        treffer: TREFFER[Number(a.rank) - 1] ?? 'name',
        gesamt: Number(own[0]?.total ?? 0),
        bestand,
        bestandWeitere: rows - bestand.length,
      };
    }),
    mehr,
  };
}

/** One listed stock row of a search, with its article's count of rows and whole stock. */
interface StockRow {
  article_id: number;
  lagerplatz: string;
  lagerplatzName: string;
  lagertyp: string;
  menge: number;
  charge: string | null;
  mhd: string | null;
  rows: number;
  total: number;
}

/** A location's content per article, charge and MHD; 404 for an unknown code. */
export async function bestandLagerplatz(db: Db, code: LocationCode) {
  const lagerplatz = await locationByCode(db, code);
  const inhalt = await db
    .selectFrom('stock as s')
    .innerJoin('articles as a', 'a.id', 's.article_id')
    .select([
      'a.id as artikelId',
      'a.nummer',
      'a.name',
      's.amount as menge',
      's.charge',
      day('s.mhd').as('mhd'),
    ])
    .where('s.location_id', '=', lagerplatz.id)
    .where('s.amount', '>', 0)
    .orderBy('a.nummer')
    .orderBy(sql`s.mhd nulls last`)
    .orderBy('s.charge')
    .execute();
  return {
    lagerplatz: {
      code: lagerplatz.code,
      name: lagerplatz.name,
      lagertyp: lagerplatz.lagertyp,
      lhm: lagerplatz.isLhm,
      zaehlenSeit: lagerplatz.zaehlenSeit ? new Date(lagerplatz.zaehlenSeit).toISOString() : null,
    },
    inhalt,
  };
}

// ── The journal ──────────────────────────────────────────────────────────────────────────────────────────

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
