import type { Kysely } from 'kysely';
import type { ArticleId, LocationId } from '../../../contract/ids.ts';
import type { InventurHistoryRow } from '../../../contract/inventur.ts';
import type { Database } from '../../db/schema.ts';
import { book, firstOut, lockStockRows } from '../../domain/stock.ts';
import { articleById } from '../../repositories/article.repository.ts';
import { clearCountMark, locationById } from '../../repositories/location.repository.ts';

type Db = Kysely<Database>;

/**
 * An inventory count: the counted amount becomes the stock of that article on that location (all charges and
 * MHDs of it together are counted as one). The difference is journalled in the same transaction.
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

  // Lock every stock row of this article on this location so a parallel booking waits for the count.
  const rows = await lockStockRows(db, input.articleId, [input.locationId]);
  const previous = rows.reduce((sum, row) => sum + row.amount, 0);

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

  // The count becomes the stock (at most the contract's 1,000,000), so it never goes above
  // MAX_STOCK_PER_LOCATION — also where the location held more before; nothing to check here.
  const delta = input.amount - previous;
  const booking = {
    kind: 'inventur' as const,
    article_id: input.articleId,
    user_id: input.userId,
    request_key: input.requestKey,
  };
  if (delta > 0) {
    // More than expected: it goes to the plain (no charge, no MHD) stock row.
    await book(db, {
      add: {
        slot: { location_id: input.locationId, article_id: input.articleId, charge: null, mhd: null },
        amount: delta,
      },
      movement: { ...booking, to_location_id: input.locationId, amount: delta },
    });
    return;
  }

  // Less than expected (or the same: nothing to do): take the difference off, oldest MHD first.
  let missing = -delta;
  for (const row of [...rows].sort(firstOut)) {
    if (missing === 0) break;
    const take = Math.min(row.amount, missing);
    if (take === 0) continue;
    missing -= take;
    await book(db, {
      take: { row, amount: take },
      movement: {
        ...booking,
        from_location_id: input.locationId,
        amount: take,
        charge: row.charge,
        mhd: row.mhd,
      },
    });
  }
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
