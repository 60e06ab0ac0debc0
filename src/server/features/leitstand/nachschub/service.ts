import type { Kysely } from 'kysely';
import type { ArticleCode, LocationCode } from '../../../../contract/ids.ts';
import { MINIMA_MAX, type MinimumRow, nachschubTexts } from '../../../../contract/leitstand/nachschub.ts';
import type { Database } from '../../../db/schema.ts';
import { uniqueArticleByCode } from '../../../repositories/article.repository.ts';
import { recordAudit } from '../../../repositories/audit.repository.ts';
import { locationByCode } from '../../../repositories/location.repository.ts';
import {
  belowMinimum,
  minimumsWithStock,
  setMinimum,
} from '../../../repositories/replenishment.repository.ts';

type Db = Kysely<Database>;

/** The minimums (up to MINIMA_MAX, narrowed by `search`) and what is below its minimum now. */
export async function nachschubMinima(db: Db, search: string) {
  const [rows, unterMinimum] = await Promise.all([
    minimumsWithStock(db, { search, limit: MINIMA_MAX + 1 }),
    belowMinimum(db),
  ]);
  const minima: MinimumRow[] = rows.slice(0, MINIMA_MAX).map((r) => ({
    lagerplatzId: r.locationId,
    lagerplatz: r.location,
    artikelId: r.articleId,
    nummer: r.nummer,
    name: r.name,
    minimum: r.minimum,
    bestand: r.amount,
  }));
  return { minima, weitere: rows.length > MINIMA_MAX, unterMinimum };
}

/**
 * Sets the minimum of an article on a location, as `npm run minimum` does; 0 removes it. The location by its
 * code, the article as scanned (nummer, EAN, Herstellernummer — one article only). A change is journalled
 * with the minimum before and after; setting what is there already, or removing what is not, changes
 * nothing and is not journalled.
 */
export async function nachschubMinimumSetzen(
  db: Db,
  input: {
    locationCode: LocationCode;
    articleCode: ArticleCode;
    minimum: number;
    userId: number;
    requestKey: string | null;
  },
) {
  const location = await locationByCode(db, input.locationCode);
  const article = await uniqueArticleByCode(db, input.articleCode);
  const nummer = article.nummer;
  const before = await setMinimum(db, {
    locationId: location.id,
    articleId: article.id,
    minimum: input.minimum,
  });
  if (before === input.minimum) {
    return {
      success: true as const,
      message:
        input.minimum === 0
          ? nachschubTexts.hadNone(nummer, location.code)
          : nachschubTexts.set(nummer, location.code, input.minimum),
    };
  }
  await recordAudit(db, {
    userId: input.userId,
    action: input.minimum === 0 ? 'minimum.remove' : 'minimum.set',
    subject: `${location.code} / ${nummer}`,
    detail: { lagerplatz: location.code, artikel: nummer, vorher: before, nachher: input.minimum },
    requestKey: input.requestKey,
  });
  return {
    success: true as const,
    message:
      input.minimum === 0
        ? nachschubTexts.removed(nummer, location.code)
        : nachschubTexts.set(nummer, location.code, input.minimum),
  };
}
