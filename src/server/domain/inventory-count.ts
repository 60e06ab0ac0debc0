import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { book, firstOut, lockStockRows } from './stock.ts';

type Db = Kysely<Database>;

/**
 * The booking rule of every inventory count — the free Inventur's, and a count task's posting (decision 34):
 * the counted amount becomes the stock of that article on that location, all its charges and MHDs together
 * counted as one. The difference is journalled (kind 'inventur') in the caller's transaction; a count task's
 * rows name the task (`countTaskId`). Answers the stock before.
 */
export async function bookCountedStock(
  db: Db,
  input: {
    locationId: number;
    articleId: number;
    amount: number;
    userId: number;
    requestKey: string | null;
    countTaskId?: number;
  },
): Promise<number> {
  // Lock every stock row of this article on this location so a parallel booking waits for the count.
  const rows = await lockStockRows(db, input.articleId, [input.locationId]);
  const previous = rows.reduce((sum, row) => sum + row.amount, 0);

  // The count becomes the stock (at most the contract's 1,000,000), so it never goes above
  // MAX_STOCK_PER_LOCATION — also where the location held more before; nothing to check here.
  const delta = input.amount - previous;
  const booking = {
    kind: 'inventur' as const,
    article_id: input.articleId,
    user_id: input.userId,
    request_key: input.requestKey,
    count_task_id: input.countTaskId ?? null,
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
    return previous;
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
  return previous;
}
