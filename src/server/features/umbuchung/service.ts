import { type Kysely, sql } from 'kysely';
import type { ArticleId, LocationId } from '../../../contract/ids.ts';
import { MAX_STOCK_PER_LOCATION } from '../../../contract/limits.ts';
import { texts } from '../../../contract/texts.ts';
import type { Database } from '../../db/schema.ts';
import { invalid } from '../../domain/errors.ts';
import { book, ensureRoom, firstOut, lockStockRows, removeRows } from '../../domain/stock.ts';
import { articleById, articleNummerOf, unknownArticle } from '../../repositories/article.repository.ts';
import { locationById, locationCodeOf, unknownLocation } from '../../repositories/location.repository.ts';

type Db = Kysely<Database>;

/** How much of the article lies on the location (0 if none): the most that can be moved from there. */
export async function checkLpArticle(
  db: Db,
  locationId: LocationId,
  articleId: ArticleId,
): Promise<{ amount: number }> {
  // One statement: both must exist (a typo'd id is not "0 in stock"), then the sum.
  const row = await sql<{ location: string | null; article: string | null; amount: number }>`
    select ${locationCodeOf(locationId)} as location,
           ${articleNummerOf(articleId)} as article,
           (select coalesce(sum(amount), 0)::int from stock
             where location_id = ${locationId} and article_id = ${articleId}) as amount`.execute(db);
  const found = row.rows[0];
  if (found?.location == null) throw unknownLocation();
  if (found.article == null) throw unknownArticle();
  return { amount: found.amount };
}

/** Where the article lies: location name, type and amount, by location code. */
export async function articleInfo(db: Db, articleId: ArticleId) {
  await articleById(db, articleId);
  return db
    .selectFrom('stock as s')
    .innerJoin('locations as l', 'l.id', 's.location_id')
    .select(['l.name as kurzbezeichnung', 'l.lagertyp', sql<number>`sum(s.amount)::int`.as('amount')])
    .where('s.article_id', '=', articleId)
    .groupBy(['l.id', 'l.name', 'l.lagertyp', 'l.code'])
    .having(sql<boolean>`sum(s.amount) > 0`)
    .orderBy('l.code')
    .execute();
}

/** What lies on a location, per article. */
export async function locationContent(db: Db, locationId: LocationId) {
  await locationById(db, locationId);
  return db
    .selectFrom('stock as s')
    .innerJoin('articles as a', 'a.id', 's.article_id')
    .select(['a.nummer as number', 'a.name', sql<number>`sum(s.amount)::int`.as('amount')])
    .where('s.location_id', '=', locationId)
    .groupBy(['a.id', 'a.nummer', 'a.name'])
    .having(sql<boolean>`sum(s.amount) > 0`)
    .orderBy('a.nummer')
    .execute();
}

/**
 * Moves an amount of one article from one location to another, in one transaction: the source rows are
 * locked, the amount checked against what is there, taken off oldest MHD first (keeping charge and MHD),
 * added to the target and journalled part by part.
 */
export async function moveArticle(
  db: Db,
  input: {
    from: LocationId;
    to: LocationId;
    articleId: ArticleId;
    amount: number;
    userId: number;
    requestKey: string | null;
  },
): Promise<void> {
  if (input.from === input.to) throw invalid(texts.umlagern.sameLocation);
  // Both locations and the article must exist: one statement for the three checks.
  const names = await sql<{ from: string | null; to: string | null; article: string | null }>`
    select ${locationCodeOf(input.from)} as "from",
           ${locationCodeOf(input.to)} as "to",
           ${articleNummerOf(input.articleId)} as article`.execute(db);
  const known = names.rows[0];
  if (known?.from == null || known.to == null) throw unknownLocation();
  if (known.article == null) throw unknownArticle();

  const rows = await lockStockRows(db, input.articleId, [input.from, input.to]);
  const sourceRows = rows.filter((r) => r.location_id === input.from && r.amount > 0).sort(firstOut);
  const available = sourceRows.reduce((sum, r) => sum + r.amount, 0);
  if (input.amount > available)
    throw invalid(texts.umlagern.notEnoughStock(known.from, available, known.article));
  const onTarget = rows.filter((r) => r.location_id === input.to).reduce((sum, r) => sum + r.amount, 0);
  ensureRoom(onTarget, input.amount, { article: known.article, location: known.to });

  let remaining = input.amount;
  for (const row of sourceRows) {
    if (remaining === 0) break;
    const take = Math.min(row.amount, remaining);
    remaining -= take;
    const slot = { location_id: input.to, article_id: input.articleId, charge: row.charge, mhd: row.mhd };
    await book(db, {
      take: { row, amount: take },
      add: { slot, amount: take },
      movement: {
        kind: 'umlagerung',
        article_id: input.articleId,
        from_location_id: input.from,
        to_location_id: input.to,
        amount: take,
        charge: row.charge,
        mhd: row.mhd,
        user_id: input.userId,
        request_key: input.requestKey,
      },
    });
  }
}

/** Moves everything on one location to another, all articles in one transaction. */
export async function moveLocation(
  db: Db,
  input: { from: LocationId; to: LocationId; userId: number; requestKey: string | null },
): Promise<{ success: true; message: string }> {
  if (input.from === input.to) throw invalid(texts.umlagern.sameLocation);
  const from = await locationById(db, input.from);
  const to = await locationById(db, input.to);

  // Lock both locations' rows in one fixed order.
  const rows = await db
    .selectFrom('stock')
    .select(['id', 'location_id', 'article_id', 'amount', 'charge', 'mhd'])
    .where('location_id', 'in', [input.from, input.to])
    .orderBy('location_id')
    .orderBy('article_id')
    .orderBy('id')
    .forUpdate()
    .execute();
  const moving = rows.filter((r) => r.location_id === input.from && r.amount > 0);
  if (moving.length === 0) throw invalid(texts.lookup.locationEmpty);
  // Each article lands on what the target already holds of it: that must stay within the maximum.
  const perArticle = (location: number) => {
    const sums = new Map<number, number>();
    for (const r of rows)
      if (r.location_id === location) sums.set(r.article_id, (sums.get(r.article_id) ?? 0) + r.amount);
    return sums;
  };
  const onTarget = perArticle(input.to);
  for (const [articleId, amount] of perArticle(input.from)) {
    const held = onTarget.get(articleId) ?? 0;
    // A stock row's article_id is an article's id (a foreign key).
    const article = () => articleById(db, articleId as ArticleId);
    if (held + amount > MAX_STOCK_PER_LOCATION)
      ensureRoom(held, amount, { article: (await article()).nummer, location: to.code });
  }

  for (const row of moving) {
    // The source rows go all at once below; here each lands on the target with its journal row.
    await book(db, {
      add: {
        slot: { location_id: input.to, article_id: row.article_id, charge: row.charge, mhd: row.mhd },
        amount: row.amount,
      },
      movement: {
        kind: 'umbuchung',
        article_id: row.article_id,
        from_location_id: input.from,
        to_location_id: input.to,
        amount: row.amount,
        charge: row.charge,
        mhd: row.mhd,
        user_id: input.userId,
        request_key: input.requestKey,
      },
    });
  }
  // Only the rows moved (and locked) above: a row another booking put on the location meanwhile stays there
  // — deleting by location would lose it, though its booking is journalled (found by the chaos run).
  await removeRows(
    db,
    rows.filter((r) => r.location_id === input.from).map((r) => r.id),
  );
  const articles = new Set(moving.map((r) => r.article_id)).size;
  return { success: true, message: texts.umbuchung.done(articles, from.code, to.code) };
}
