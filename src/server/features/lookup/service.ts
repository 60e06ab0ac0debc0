import type { Kysely } from 'kysely';
import type { ArticleCode, LocationCode } from '../../../contract/ids.ts';
import type { ArticleLookup, LocationLookup } from '../../../contract/lookup.ts';
import type { Database } from '../../db/schema.ts';
import { articleByCode } from '../../repositories/article.repository.ts';
import { findLocationByCode } from '../../repositories/location.repository.ts';

type Db = Kysely<Database>;

/** The article a scan names: the repository's lookup, as SPEC §3's lookup result. */
export async function findArticle(db: Db, articleCode: ArticleCode): Promise<ArticleLookup> {
  return articleByCode(db, articleCode);
}

/** The location a scan names, as SPEC §3's lookup result (`found: false` for none, not a refusal). */
export async function findLp(db: Db, locationCode: LocationCode): Promise<LocationLookup> {
  const location = await findLocationByCode(db, locationCode);
  return { found: location !== undefined, id: location?.id ?? null, name: location?.name ?? null };
}
