import { type Insertable, type Kysely, sql } from 'kysely';
import type { Database, MovementsTable } from '../db/schema.ts';

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

/** Adds to a stock slot (location, article, charge, MHD), creating it if needed. */
export async function addStock(db: Db, slot: StockSlot, amount: number): Promise<void> {
  await db
    .insertInto('stock')
    .values({ ...slot, amount })
    .onConflict((oc) =>
      oc
        .constraint('stock_slot_unique')
        .doUpdateSet({ amount: sql`stock.amount + excluded.amount`, updated_at: sql`now()` }),
    )
    .execute();
}

/** Takes from one locked stock row; the row goes when it reaches 0. */
export async function takeStock(db: Db, row: StockRow, amount: number): Promise<void> {
  if (amount === row.amount) await db.deleteFrom('stock').where('id', '=', row.id).execute();
  else
    await db
      .updateTable('stock')
      .set({ amount: row.amount - amount, updated_at: sql`now()` })
      .where('id', '=', row.id)
      .execute();
}

export async function journal(db: Db, movement: Insertable<MovementsTable>): Promise<void> {
  await db.insertInto('movements').values(movement).execute();
}
