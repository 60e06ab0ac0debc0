import { type Kysely, sql } from 'kysely';
import type { ReplenishmentRow } from '../../../contract/nachschub.ts';
import type { Database } from '../../db/schema.ts';

/**
 * Pick places below their minimum, most urgent (largest share missing) first, each with a suggested source:
 * the other location holding the most of that article, where taking it does not push that location below
 * its own minimum.
 */
export async function replenishmentList(db: Kysely<Database>): Promise<ReplenishmentRow[]> {
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
    with on_hand as (
      select location_id, article_id, sum(amount)::int as amount from stock group by 1, 2
    ),
    low as (
      select m.location_id, m.article_id, m.minimum, coalesce(o.amount, 0) as amount
      from replenishment_minimums m
      left join on_hand o using (location_id, article_id)
      where coalesce(o.amount, 0) < m.minimum
    )
    select low.location_id as "locationId", l.code as location, low.article_id as "articleId",
           a.nummer, a.name, low.amount, low.minimum,
           src.location_id as "sourceId", src.code as "sourceCode", src.spare as "sourceAmount"
    from low
    join locations l on l.id = low.location_id
    join articles a on a.id = low.article_id
    left join lateral (
      select o.location_id, sl.code, (o.amount - coalesce(sm.minimum, 0))::int as spare
      from on_hand o
      join locations sl on sl.id = o.location_id
      left join replenishment_minimums sm on sm.location_id = o.location_id and sm.article_id = o.article_id
      where o.article_id = low.article_id and o.location_id <> low.location_id
        and o.amount - coalesce(sm.minimum, 0) > 0
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
