import { type ExpressionBuilder, type Kysely, type RawBuilder, sql } from 'kysely';
import { eanVariants } from '../../contract/ean.ts';
import type { ArticleLookup } from '../../contract/inventur.ts';
import type { Database } from '../db/schema.ts';

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
export async function articleByCode(db: Kysely<Database>, scanned: string): Promise<ArticleLookup> {
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
