import { type Kysely, sql } from 'kysely';
import type { ReplenishmentRow } from '../../contract/nachschub.ts';
import type { Database } from '../db/schema.ts';

type Db = Kysely<Database>;

/**
 * Pick places below their minimum, most urgent (largest share missing) first, each with a suggested source:
 * the other location holding the most of that article, where taking it does not push that location below
 * its own minimum. The handheld's Nachschub list and the Leitstand's 'Unter Minimum' are this one rule.
 * Stock is added up only where a minimum is set (the slot's unique index) and, for a source, only for that
 * article (stock_article_idx): adding up all of the stock first took 4–6 s on the large warehouse's 500,000
 * rows, a handheld's Nachschub list included.
 */
export async function belowMinimum(db: Db): Promise<ReplenishmentRow[]> {
  const { rows } = await sql<{
    locationId: number;
    location: string;
    articleId: number;
    nummer: string;
    name: string;
    amount: number;
    minimum: number;
    sourceId: number | null;
    sourceCode: string | null;
    sourceAmount: number | null;
  }>`
    with low as (
      select m.location_id, m.article_id, m.minimum, on_hand.amount
      from replenishment_minimums m
      cross join lateral (
        select coalesce(sum(s.amount), 0)::int as amount from stock s
        where s.location_id = m.location_id and s.article_id = m.article_id
      ) on_hand
      where on_hand.amount < m.minimum
    )
    select low.location_id as "locationId", l.code as location, low.article_id as "articleId",
           a.nummer, a.name, low.amount, low.minimum,
           src.location_id as "sourceId", src.code as "sourceCode", src.spare as "sourceAmount"
    from low
    join locations l on l.id = low.location_id
    join articles a on a.id = low.article_id
    left join lateral (
      select o.location_id, sl.code, (o.amount - coalesce(sm.minimum, 0))::int as spare
      from (
        select s.location_id, sum(s.amount)::int as amount from stock s
        where s.article_id = low.article_id and s.location_id <> low.location_id
        group by s.location_id
      ) o
      join locations sl on sl.id = o.location_id
      left join replenishment_minimums sm on sm.location_id = o.location_id and sm.article_id = low.article_id
      where o.amount - coalesce(sm.minimum, 0) > 0
      order by o.amount - coalesce(sm.minimum, 0) desc, sl.code
      limit 1
    ) src on true
    order by (low.minimum - low.amount)::float / low.minimum desc, l.code, a.nummer
    limit 200`.execute(db);
  return rows.map((r) => ({
    locationId: r.locationId,
    location: r.location,
    articleId: r.articleId,
    nummer: r.nummer,
    name: r.name,
    amount: r.amount,
    minimum: r.minimum,
    missing: r.minimum - r.amount,
    source:
      r.sourceId !== null && r.sourceCode !== null && r.sourceAmount !== null
        ? { locationId: r.sourceId, location: r.sourceCode, amount: r.sourceAmount }
        : null,
  }));
}

export interface MinimumWithStock {
  locationId: number;
  location: string;
  articleId: number;
  nummer: string;
  name: string;
  minimum: number;
  /** All charges and MHDs of the article on the location together. */
  amount: number;
}

/**
 * The minimums by location code and article nummer, each with the stock there now. `search` keeps those
 * whose location code, article nummer or name contains it (any case); `limit` caps the rows.
 *
 * Read from the minimums out: each one's location and article by its key (`offset 0` keeps the planner from
 * turning the lookups into joins). The embedded database never analyses a table by itself, and a planner
 * that guessed 2,000 minimums where there were 66 walked all 20,000 locations in code order to spare the
 * sort: 726 ms of the one session on the large warehouse.
 */
export async function minimumsWithStock(
  db: Db,
  { search = '', limit }: { search?: string; limit?: number } = {},
): Promise<MinimumWithStock[]> {
  const pattern = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const matching =
    search === ''
      ? sql``
      : sql`where l.code ilike ${pattern} or a.nummer ilike ${pattern} or a.name ilike ${pattern}`;
  const { rows } = await sql<MinimumWithStock>`
    select m.location_id as "locationId", l.code as location, m.article_id as "articleId", a.nummer, a.name,
           m.minimum,
           coalesce((select sum(s.amount) from stock s
             where s.location_id = m.location_id and s.article_id = m.article_id), 0)::int as amount
    from replenishment_minimums m
    cross join lateral (select code from locations where id = m.location_id offset 0) l
    cross join lateral (select nummer, name from articles where id = m.article_id offset 0) a
    ${matching}
    order by l.code, a.nummer
    ${limit === undefined ? sql`` : sql`limit ${limit}::integer`}`.execute(db);
  return rows;
}

/**
 * Sets the minimum of an article on a location; 0 removes it. Answers the minimum it had before (0: none),
 * so the caller can say what changed.
 */
export async function setMinimum(
  db: Db,
  { locationId, articleId, minimum }: { locationId: number; articleId: number; minimum: number },
): Promise<number> {
  const before = await db
    .selectFrom('replenishment_minimums')
    .select('minimum')
    .where('location_id', '=', locationId)
    .where('article_id', '=', articleId)
    .forUpdate()
    .executeTakeFirst();
  if (minimum === 0) {
    if (before)
      await db
        .deleteFrom('replenishment_minimums')
        .where('location_id', '=', locationId)
        .where('article_id', '=', articleId)
        .execute();
  } else {
    await db
      .insertInto('replenishment_minimums')
      .values({ location_id: locationId, article_id: articleId, minimum })
      .onConflict((oc) => oc.columns(['location_id', 'article_id']).doUpdateSet({ minimum }))
      .execute();
  }
  return before?.minimum ?? 0;
}
