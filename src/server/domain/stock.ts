import { type Insertable, type Kysely, type QueryCreator, sql } from 'kysely';
import { MAX_STOCK_PER_LOCATION } from '../../contract/limits.ts';
import { texts } from '../../contract/texts.ts';
import type { Database, MovementsTable } from '../db/schema.ts';
import { invalid } from './errors.ts';

/**
 * Stock bookings shared by every feature that moves goods. Stock never changes without a journal row in
 * the same transaction (DESIGN §3); these functions are the only writers of `stock` — the bookings, the
 * CSV import's slots (`replaceSlots`) and the demo warehouse's opening stock (`bookOpeningStock`) — which
 * test/structure/boundaries.test.ts checks.
 *
 * One exception, named there too: the large benchmark warehouse (src/server/seed/large.ts) generates its
 * half a million stock rows inside the database (`insert … select from generate_series`: no row is built in
 * Node or sent to the database) and writes their journal from them in the same transaction. Through these
 * functions each row would be built in Node and sent over; it is a benchmark's fixture, written once on top
 * of the demo seed, and test/api/large-seed.test.ts checks that its journal adds up to its stock.
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

/**
 * Deletes these locked rows whole: the taking side of bookings already journalled with `book` (a location
 * moved whole lands on the target row by row, each with its journal row, then its source rows go at once).
 * Only the rows given: a row another booking put on the location meanwhile stays there.
 */
export async function removeRows(db: Db, rowIds: number[]): Promise<void> {
  if (rowIds.length === 0) return;
  await db.deleteFrom('stock').where('id', 'in', rowIds).execute();
}

/** Rows per insert statement of the opening stock. */
const OPENING_CHUNK = 500;

/**
 * The opening stock of a warehouse being seeded (the demo's, src/server/seed/demo.ts): the rows as they are,
 * then one 'seed' journal row each, in their order and OPENING_CHUNK rows per statement. For a stock table
 * still empty: nothing is locked or added to.
 */
export async function bookOpeningStock(
  db: Db,
  rows: { location_id: number; article_id: number; amount: number }[],
): Promise<void> {
  for (let i = 0; i < rows.length; i += OPENING_CHUNK)
    await db
      .insertInto('stock')
      .values(rows.slice(i, i + OPENING_CHUNK))
      .execute();
  const journal = rows.map((s) => ({
    kind: 'seed' as const,
    article_id: s.article_id,
    to_location_id: s.location_id,
    amount: s.amount,
  }));
  for (let i = 0; i < journal.length; i += OPENING_CHUNK)
    await db
      .insertInto('movements')
      .values(journal.slice(i, i + OPENING_CHUNK))
      .execute();
}

/** A slot and the amount the ERP says it holds (0: empty). */
export type SlotAmount = StockSlot & { amount: number };

/**
 * Sets these slots to their amounts, as the CSV import of stock does (the ERP's truth replaces the stored
 * amount; 0 empties the slot), each change journalled as kind 'import' with the difference into or out of
 * the location. Answers how many slots went up and down, and how many a booking created between the read and
 * the write (`raced`: the import then refuses the whole file, src/server/import/kinds/stock.ts).
 */
export async function replaceSlots(
  db: Db,
  slots: SlotAmount[],
): Promise<{ up: number; down: number; raced: number } | undefined> {
  const locations = slots.map((s) => s.location_id);
  const articles = slots.map((s) => s.article_id);
  // Lock the slots' stock rows first, in the order bookings lock them (location, row id), so a booking
  // running meanwhile on PostgreSQL either commits before (and the statement below sees its amount) or
  // waits for this import: the journal's difference is always taken from the amount really replaced.
  await sql`
    select s.id from stock s
    join unnest(${locations}::int[], ${articles}::int[]) k(location_id, article_id)
      on s.location_id = k.location_id and s.article_id = k.article_id
    order by s.location_id, s.id
    for update of s`.execute(db);
  // One statement: the stored amounts are read before the upsert and delete change them (all parts of a
  // statement see the same snapshot), and the journal gets the differences.
  const { rows: result } = await sql<{ up: number; down: number; raced: number }>`
    with input as (
      select * from unnest(
        ${locations}::int[], ${articles}::int[], ${slots.map((s) => s.charge)}::text[],
        ${slots.map((s) => s.mhd)}::date[], ${slots.map((s) => s.amount)}::int[]
      ) as i(location_id, article_id, charge, mhd, amount)
    ),
    old as (
      select i.*, s.id as stock_id, coalesce(s.amount, 0) as before
      from input i
      -- lateral + limit (a slot is unique): one index lookup per row, not a hash of the whole stock table
      left join lateral (
        select id, amount from stock s
        where s.location_id = i.location_id and s.article_id = i.article_id
          and s.charge is not distinct from i.charge and s.mhd is not distinct from i.mhd
        limit 1
      ) s on true
    ),
    upserted as (
      insert into stock (location_id, article_id, charge, mhd, amount)
      select location_id, article_id, charge, mhd, amount from old where amount > 0 and amount <> before
      on conflict on constraint stock_slot_unique do update set amount = excluded.amount, updated_at = now()
      returning location_id, article_id, charge, mhd, (xmax = 0) as inserted
    ),
    emptied as (
      delete from stock where id in (select stock_id from old where amount = 0 and stock_id is not null)
    ),
    journal as (
      insert into movements (kind, article_id, from_location_id, to_location_id, amount, charge, mhd)
      select 'import', article_id,
             case when amount < before then location_id end, case when amount > before then location_id end,
             abs(amount - before), charge, mhd
      from old where amount <> before
      returning from_location_id is null as up
    )
    select
      (select count(*) from journal where up)::int as up,
      (select count(*) from journal where not up)::int as down,
      -- a slot that was not there when read but was when written: a booking created it meanwhile
      (select count(*) from upserted u join old o
         on o.location_id = u.location_id and o.article_id = u.article_id
        and o.charge is not distinct from u.charge and o.mhd is not distinct from u.mhd
       where o.stock_id is null and not u.inserted)::int as raced`.execute(db);
  return result[0];
}
