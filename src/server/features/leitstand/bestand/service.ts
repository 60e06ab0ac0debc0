import { type Kysely, sql } from 'kysely';
import type { LocationCode } from '../../../../contract/ids.ts';
import {
  type ArtikelTreffer,
  BESTAND_ROWS_PER_ARTICLE,
  type MovementKindName,
  SEARCH_LIMIT,
} from '../../../../contract/leitstand/bestand.ts';
import type { Database, MovementKind } from '../../../db/schema.ts';
import { StepSize, type Steps } from '../../../http/back-office.ts';
import { articleCodeMatch } from '../../../repositories/article.repository.ts';
import { locationByCode } from '../../../repositories/location.repository.ts';

import { containing, day } from './sql.ts';

/**
 * The Leitstand's Bestand (issue 20.3): the search and a location's content. The movement journal is
 * journal.ts.
 */
type Db = Kysely<Database>;

// The contract's list of kinds and the database's are the same (a compile error here if one grows alone).
const kindsMatch: [MovementKind, MovementKindName] extends [MovementKindName, MovementKind] ? true : never =
  true;
void kindsMatch;

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
