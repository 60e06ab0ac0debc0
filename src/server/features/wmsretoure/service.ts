import type { Kysely } from 'kysely';
import type { ArticleCode, ArticleId, LocationCode, LocationId } from '../../../contract/ids.ts';
import { texts } from '../../../contract/texts.ts';
import { wmsRetoureAmount } from '../../../contract/wmsretoure.ts';
import type { Database } from '../../db/schema.ts';
import { invalid } from '../../domain/errors.ts';
import { book, ensureRoom, lockStockRows } from '../../domain/stock.ts';
import { articleByCode, articleById, findArticleById } from '../../repositories/article.repository.ts';
import { findLocationByCode, locationById } from '../../repositories/location.repository.ts';

type Db = Kysely<Database>;

/** The shared article lookup (articleByCode, as findArticle), plus whether a booking needs a Charge and an MHD. */
export async function wmsItem(db: Db, scanned: ArticleCode) {
  const found = await articleByCode(db, scanned);
  const flags = found.id === null ? undefined : await findArticleById(db, found.id as ArticleId);
  return {
    ...found,
    charge: flags?.chargeRequired ?? false,
    mindesthaltbarkeit: flags?.mhdRequired ?? false,
  };
}

/** A load carrier (LHM) by its code; an ordinary location is not one. */
export async function wmsStorage(db: Db, code: LocationCode) {
  const location = await findLocationByCode(db, code);
  const lhm = location?.isLhm ? location : undefined;
  return { found: lhm !== undefined, id: lhm?.id ?? null, name: lhm?.name ?? null };
}

/** Books a returned article onto a load carrier, with Charge, MHD and quality, journalled. */
export async function bookWmsRetoure(
  db: Db,
  input: {
    articleId: ArticleId;
    locationId: LocationId;
    amount: number;
    charge: string | null;
    mhd: string | null;
    quality: number;
    userId: number;
    requestKey: string | null;
  },
) {
  if (!wmsRetoureAmount.safeParse(input.amount).success) throw invalid(texts.wmsretoure.amountInvalid);
  const article = await articleById(db, input.articleId);
  const lhm = await locationById(db, input.locationId);
  if (!lhm.isLhm) throw invalid(texts.wmsretoure.notLhm);
  const charge = input.charge?.trim() || null;
  if (article.chargeRequired && !charge) throw invalid(texts.wmsretoure.chargeMissing);
  if (article.mhdRequired && !input.mhd) throw invalid(texts.wmsretoure.mhdMissing);

  // The LHM's rows of this article, locked: what the return adds to must stay within the maximum.
  const rows = await lockStockRows(db, article.id, [lhm.id]);
  ensureRoom(
    rows.reduce((sum, row) => sum + row.amount, 0),
    input.amount,
    { article: article.nummer, location: lhm.code },
  );
  const slot = { location_id: lhm.id, article_id: article.id, charge, mhd: input.mhd };
  await book(db, {
    add: { slot, amount: input.amount },
    movement: {
      kind: 'wmsretoure',
      article_id: article.id,
      to_location_id: lhm.id,
      amount: input.amount,
      charge,
      mhd: input.mhd,
      user_id: input.userId,
      request_key: input.requestKey,
    },
  });
  await db
    .insertInto('wms_returns')
    .values({
      article_id: article.id,
      location_id: lhm.id,
      amount: input.amount,
      charge,
      mhd: input.mhd,
      quality: input.quality,
      user_id: input.userId,
      request_key: input.requestKey,
    })
    .execute();
  return { success: true, message: texts.wmsretoure.booked(input.amount, article.nummer, lhm.code) };
}
