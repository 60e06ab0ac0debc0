import type { Kysely } from 'kysely';
import type { ArticleId, LocationId } from '../../../contract/ids.ts';
import type { InventurHistoryRow } from '../../../contract/inventur.ts';
import type { Database } from '../../db/schema.ts';
import { bookCountedStock } from '../../domain/inventory-count.ts';
import { articleById } from '../../repositories/article.repository.ts';
import { clearCountMark, locationById } from '../../repositories/location.repository.ts';

type Db = Kysely<Database>;

/**
 * An inventory count: the counted amount becomes the stock of that article on that location (all charges and
 * MHDs of it together are counted as one; domain/inventory-count.ts, the rule a count task's posting shares).
 * The difference is journalled in the same transaction.
 */
export async function bookInventur(
  db: Db,
  input: {
    locationId: LocationId;
    articleId: ArticleId;
    amount: number;
    userId: number;
    requestKey: string | null;
  },
): Promise<void> {
  await locationById(db, input.locationId);
  await articleById(db, input.articleId);

  // A count answers a location marked for one (a picker's Fehlmenge found its book stock wrong, issue 36):
  // the count is the stock now, and picking offers the location again.
  await clearCountMark(db, input.locationId);

  // The count's own record (the user's history); the stock before is read under the booking's row locks,
  // so the record is written after it.
  const previous = await bookCountedStock(db, input);
  await db
    .insertInto('inventory_counts')
    .values({
      location_id: input.locationId,
      article_id: input.articleId,
      counted: input.amount,
      previous,
      user_id: input.userId,
      request_key: input.requestKey,
    })
    .execute();
}

/** The user's latest 20 counts, newest first. */
export async function inventurHistory(db: Db, userId: number): Promise<InventurHistoryRow[]> {
  const rows = await db
    .selectFrom('inventory_counts as c')
    .innerJoin('articles as a', 'a.id', 'c.article_id')
    .innerJoin('locations as l', 'l.id', 'c.location_id')
    .select(['c.at', 'a.nummer', 'a.name', 'l.code', 'c.counted'])
    .where('c.user_id', '=', userId)
    .orderBy('c.at', 'desc')
    .orderBy('c.id', 'desc')
    .limit(20)
    .execute();
  return rows.map((r) => ({
    time: r.at.toISOString(),
    article: r.nummer,
    articleName: r.name,
    lp: r.code,
    amount: r.counted,
  }));
}
