import { type Kysely, sql } from 'kysely';
import type { ArticleLookup, InventurHistoryRow, LocationLookup } from '../../../contract/inventur.ts';
import { texts } from '../../../contract/texts.ts';
import type { Database } from '../../db/schema.ts';
import { badRequest } from '../../http/errors.ts';

type Db = Kysely<Database>;

/**
 * Finds an article by what was scanned: its nummer, else its EAN (also when the scanner adds or drops one
 * leading 0, as UPC/EAN scanners do), else its herstellernummer. `found` only when exactly one matches.
 */
export async function artikelFinden(db: Db, scanned: string): Promise<ArticleLookup> {
  const byNummer = await db
    .selectFrom('articles')
    .select(['id', 'nummer', 'name'])
    .where('nummer', '=', scanned)
    .execute();
  let matches = byNummer;
  if (matches.length === 0 && /^\d+$/.test(scanned)) {
    const eans = [scanned, `0${scanned}`];
    if (scanned.startsWith('0')) eans.push(scanned.slice(1));
    matches = await db
      .selectFrom('articles')
      .select(['id', 'nummer', 'name'])
      .where('ean', 'in', eans)
      .limit(50)
      .execute();
  }
  if (matches.length === 0) {
    matches = await db
      .selectFrom('articles')
      .select(['id', 'nummer', 'name'])
      .where('herstellernummer', '=', scanned)
      .limit(50)
      .execute();
  }
  const only = matches.length === 1 ? matches[0] : undefined;
  return {
    found: only !== undefined,
    count: matches.length,
    id: only?.id ?? null,
    nummer: only?.nummer ?? null,
    name: only?.name ?? null,
  };
}

export async function lagerplatzFinden(db: Db, code: string): Promise<LocationLookup> {
  const location = await db
    .selectFrom('locations')
    .select(['id', 'name'])
    .where('code', '=', code)
    .executeTakeFirst();
  return { found: location !== undefined, id: location?.id ?? null, name: location?.name ?? null };
}

/**
 * An inventory count: the counted amount becomes the stock of that article on that location (all charges and
 * MHDs of it together are counted as one). The difference is journalled in the same transaction.
 */
export async function inventurBuchen(
  db: Db,
  input: { lp: number; article: number; amount: number; userId: number; requestKey: string | null },
): Promise<void> {
  const location = await db
    .selectFrom('locations')
    .select(['id'])
    .where('id', '=', input.lp)
    .executeTakeFirst();
  if (!location) throw badRequest(texts.inventur.unknownLocation);
  const article = await db
    .selectFrom('articles')
    .select(['id'])
    .where('id', '=', input.article)
    .executeTakeFirst();
  if (!article) throw badRequest(texts.inventur.unknownArticle);

  // Lock every stock row of this article on this location so a parallel booking waits for the count.
  const rows = await db
    .selectFrom('stock')
    .select(['id', 'amount', 'charge', 'mhd'])
    .where('location_id', '=', input.lp)
    .where('article_id', '=', input.article)
    .orderBy('id')
    .forUpdate()
    .execute();
  const previous = rows.reduce((sum, row) => sum + row.amount, 0);

  await db
    .insertInto('inventory_counts')
    .values({
      location_id: input.lp,
      article_id: input.article,
      counted: input.amount,
      previous,
      user_id: input.userId,
      request_key: input.requestKey,
    })
    .execute();

  const delta = input.amount - previous;
  if (delta === 0) return;
  const journal = {
    kind: 'inventur' as const,
    article_id: input.article,
    user_id: input.userId,
    request_key: input.requestKey,
  };

  if (delta > 0) {
    // More than expected: add it to the plain (no charge, no MHD) stock row.
    await db
      .insertInto('stock')
      .values({ location_id: input.lp, article_id: input.article, charge: null, mhd: null, amount: delta })
      .onConflict((oc) =>
        oc
          .constraint('stock_slot_unique')
          .doUpdateSet({ amount: sql`stock.amount + excluded.amount`, updated_at: sql`now()` }),
      )
      .execute();
    await db
      .insertInto('movements')
      .values({ ...journal, to_location_id: input.lp, amount: delta })
      .execute();
    return;
  }

  // Less than expected: take the missing amount off the rows, oldest MHD first, each journalled.
  let missing = -delta;
  const oldestFirst = [...rows].sort(
    (a, b) => (a.mhd ?? '9999').localeCompare(b.mhd ?? '9999') || a.id - b.id,
  );
  for (const row of oldestFirst) {
    if (missing === 0) break;
    const take = Math.min(row.amount, missing);
    if (take === 0) continue;
    missing -= take;
    await db
      .updateTable('stock')
      .set({ amount: row.amount - take, updated_at: sql`now()` })
      .where('id', '=', row.id)
      .execute();
    await db
      .insertInto('movements')
      .values({ ...journal, from_location_id: input.lp, amount: take, charge: row.charge, mhd: row.mhd })
      .execute();
  }
  await db
    .deleteFrom('stock')
    .where('location_id', '=', input.lp)
    .where('article_id', '=', input.article)
    .where('amount', '=', 0)
    .execute();
}

/** The user's latest 20 counts, newest first. */
export async function inventurVerlauf(db: Db, userId: number): Promise<InventurHistoryRow[]> {
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
