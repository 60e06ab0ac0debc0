import { type Insertable, type Kysely, type QueryCreator, sql } from 'kysely';
import { MAX_STOCK_PER_LOCATION } from '../../contract/limits.ts';
import { texts } from '../../contract/texts.ts';
import type { Database, MovementsTable } from '../db/schema.ts';
import { invalid } from './errors.ts';

/**
 * Stock bookings shared by every feature that moves goods. Stock never changes without a journal row in
 * the same transaction (DESIGN §3); these helpers are the only writers of `stock` besides the seed.
 */
type Db = Kysely<Database>;

export interface StockRow {
  id: number;
  location_id: number;
  amount: number;
  charge: string | null;
  mhd: string | null;
}

export type StockSlot = {
  location_id: number;
  article_id: number;
  charge: string | null;
  mhd: string | null;
};

/** Oldest best-before first, rows without MHD last: what leaves a location first. */
export function firstOut(a: StockRow, b: StockRow): number {
  return (a.mhd ?? '9999-12-31').localeCompare(b.mhd ?? '9999-12-31') || a.id - b.id;
}

/**
 * Locks the stock rows of one article on the given locations, always in the same order (location id, row
 * id), so two bookings in opposite directions wait for each other instead of deadlocking.
 */
export function lockStockRows(db: Db, articleId: number, locationIds: number[]): Promise<StockRow[]> {
  return db
    .selectFrom('stock')
    .select(['id', 'location_id', 'amount', 'charge', 'mhd'])
    .where('article_id', '=', articleId)
    .where('location_id', 'in', locationIds)
    .orderBy('location_id')
    .orderBy('id')
    .forUpdate()
    .execute();
}

/**
 * Refuses a booking that would take the stock of an article on a location (all slots together) above
 * MAX_STOCK_PER_LOCATION. `held` must come from rows the booking has locked, so it is what the booking adds to.
 */
export function ensureRoom(held: number, adding: number, what: { article: string; location: string }): void {
  if (held + adding > MAX_STOCK_PER_LOCATION)
    throw invalid(texts.stock.overMaximum(what.article, what.location, MAX_STOCK_PER_LOCATION));
}

/**
 * One booking as one statement (one round trip): take from a locked stock row (the row goes when it reaches
 * 0) and/or add to a slot (location, article, charge, MHD; created if needed), and the journal row. The
 * parts are data-modifying CTEs of the journal insert, so they commit or fail together.
 */
export async function book(
  db: Db,
  booking: {
    take?: { row: StockRow; amount: number };
    add?: { slot: StockSlot; amount: number };
    movement: Insertable<MovementsTable>;
  },
): Promise<void> {
  const { take, add, movement } = booking;
  let query: QueryCreator<Database> = db;
  if (take) {
    query =
      take.amount === take.row.amount
        ? query.with('taken', (q) => q.deleteFrom('stock').where('id', '=', take.row.id))
        : query.with('taken', (q) =>
            q
              .updateTable('stock')
              .set({ amount: take.row.amount - take.amount, updated_at: sql`now()` })
              .where('id', '=', take.row.id),
          );
  }
  if (add) {
    query = query.with('added', (q) =>
      q
        .insertInto('stock')
        .values({ ...add.slot, amount: add.amount })
        .onConflict((oc) =>
          oc
            .constraint('stock_slot_unique')
            .doUpdateSet({ amount: sql`stock.amount + excluded.amount`, updated_at: sql`now()` }),
        ),
    );
  }
  await query.insertInto('movements').values(movement).execute();
}

/**
 * Takes `amount` off these locked rows of one location, oldest MHD first (`firstOut`), one booking each row
 * it touches — a pick, or packing what was not picked — journalled as `movement` says with each row's charge
 * and MHD. Answers what is still to take (0 when the rows held enough).
 */
export async function takeOut(
  db: Db,
  rows: StockRow[],
  amount: number,
  movement: Omit<Insertable<MovementsTable>, 'amount' | 'charge' | 'mhd'>,
): Promise<number> {
  let remaining = amount;
  for (const row of rows.filter((r) => r.amount > 0).sort(firstOut)) {
    if (remaining === 0) break;
    const take = Math.min(row.amount, remaining);
    remaining -= take;
    await book(db, {
      take: { row, amount: take },
      movement: { ...movement, amount: take, charge: row.charge, mhd: row.mhd },
    });
  }
  return remaining;
}
