import { type ExpressionBuilder, type Kysely, type RawBuilder, sql } from 'kysely';
import { eanVariants } from '../../contract/ean.ts';
import type { ArticleCode, ArticleId } from '../../contract/ids.ts';
import type { ArticleLookup } from '../../contract/lookup.ts';
import { texts } from '../../contract/texts.ts';
import type { Database } from '../db/schema.ts';
import { invalid, notFound } from '../domain/errors.ts';

/**
 * Articles as every feature finds them (decision 32): a reference in — the id, or a code as scanned (nummer,
 * EAN, herstellernummer) — the article out, or the one refusal: 404 'Artikel nicht gefunden.' for an id,
 * 'Artikel "x" nicht gefunden!' for a code (SPEC §8). No feature reads the table itself
 * (test/structure/boundaries.test.ts).
 */
type Db = Kysely<Database>;

export interface Article {
  id: ArticleId;
  nummer: string;
  name: string;
  ean: string | null;
  herstellernummer: string | null;
  kurzbezeichnung: string;
  /** A booking of it needs a Charge, or an MHD. */
  chargeRequired: boolean;
  mhdRequired: boolean;
}

const columns = [
  'id',
  'nummer',
  'name',
  'ean',
  'herstellernummer',
  'kurzbezeichnung',
  'charge_required',
  'mhd_required',
] as const;

function article(row: {
  id: number;
  nummer: string;
  name: string;
  ean: string | null;
  herstellernummer: string | null;
  kurzbezeichnung: string;
  charge_required: boolean;
  mhd_required: boolean;
}): Article {
  return {
    id: row.id as ArticleId,
    nummer: row.nummer,
    name: row.name,
    ean: row.ean,
    herstellernummer: row.herstellernummer,
    kurzbezeichnung: row.kurzbezeichnung,
    chargeRequired: row.charge_required,
    mhdRequired: row.mhd_required,
  };
}

/** The refusal for an article id that names none. */
export const unknownArticle = () => notFound(texts.lookup.unknownArticle);

/** The article with this id, or undefined. */
export async function findArticleById(db: Db, id: ArticleId): Promise<Article | undefined> {
  const row = await db.selectFrom('articles').select(columns).where('id', '=', id).executeTakeFirst();
  return row && article(row);
}

/** The article with this id, or 404 'Artikel nicht gefunden.'. */
export async function articleById(db: Db, id: ArticleId): Promise<Article> {
  const found = await findArticleById(db, id);
  if (!found) throw unknownArticle();
  return found;
}

/** The articles of these nummern that exist, by nummer (a label run names many at once; it refuses the rest). */
export async function articlesByNummer(db: Db, nummern: readonly string[]): Promise<Map<string, Article>> {
  if (nummern.length === 0) return new Map();
  const rows = await db
    .selectFrom('articles')
    .select(columns)
    .where('nummer', 'in', [...nummern])
    .execute();
  return new Map(rows.map((row) => [row.nummer, article(row)]));
}

/**
 * The nummer of the article with this id as a subquery (null: none), for a booking that checks all its ids in
 * the one statement it needs anyway (see `locationCodeOf`). Refuse a null with `unknownArticle()`.
 */
export function articleNummerOf(id: ArticleId): RawBuilder<string | null> {
  return sql<string | null>`(select nummer from articles where id = ${id})`;
}

/**
 * The three ways a code names an article, best first (DESIGN §4): its nummer (rank 1), its EAN with or
 * without one leading 0, as EAN-13 and UPC/GTIN-14 scanners differ (rank 2), its herstellernummer (rank 3).
 * `where` matches any of them; `rank` says which (4: none). Written once, for every lookup by code.
 */
export function articleCodeMatch(scanned: string): {
  where: (
    eb: ExpressionBuilder<Database, 'articles'>,
  ) => ReturnType<ExpressionBuilder<Database, 'articles'>['or']>;
  rank: RawBuilder<number>;
} {
  const eans = eanVariants(scanned);
  const byEan = eans.length > 0 ? sql`when ean in (${sql.join(eans)}) then 2` : sql``;
  return {
    where: (eb) =>
      eb.or([
        eb('nummer', '=', scanned),
        ...(eans.length > 0 ? [eb('ean', 'in', eans)] : []),
        eb('herstellernummer', '=', scanned),
      ]),
    rank: sql<number>`case when nummer = ${scanned} then 1 ${byEan} when herstellernummer = ${scanned} then 3 else 4 end`,
  };
}

/**
 * Finds an article by what was scanned: its nummer, else its EAN (also when the scanner adds or drops one
 * leading 0, as UPC/EAN scanners do), else its herstellernummer. `found` only when exactly one matches.
 */
export async function articleByCode(db: Db, scanned: ArticleCode): Promise<ArticleLookup> {
  // One statement for the three ways a code names an article; only the best kind that matches counts; up to
  // 50 of it are counted.
  const match = articleCodeMatch(scanned);
  const rows = await db
    .selectFrom('articles')
    .select(['id', 'nummer', 'name', match.rank.as('rank')])
    .where(match.where)
    .orderBy('rank')
    .limit(51 * 3)
    .execute();
  const best = rows[0]?.rank;
  const matches = rows.filter((row) => row.rank === best).slice(0, 50);
  const only = matches.length === 1 ? matches[0] : undefined;
  return {
    found: only !== undefined,
    count: matches.length,
    id: only?.id ?? null,
    nummer: only?.nummer ?? null,
    name: only?.name ?? null,
  };
}

/**
 * The one article a code names, or the refusal: 404 'Artikel "x" nicht gefunden!' for none, 400 'Nummer "x"
 * nicht eindeutig!' when several match.
 */
export async function uniqueArticleByCode(
  db: Db,
  scanned: ArticleCode,
): Promise<{ id: ArticleId; nummer: string }> {
  const found = await articleByCode(db, scanned);
  if (found.count > 1) throw invalid(texts.lookup.articleAmbiguous(scanned));
  if (!found.found || found.id === null || found.nummer === null)
    throw notFound(texts.lookup.articleNotFound(scanned));
  return { id: found.id as ArticleId, nummer: found.nummer };
}
