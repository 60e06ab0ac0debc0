import { type Gs1Data, parseGs1 } from '../../contract/gs1.ts';
import { findArticle } from '../../contract/lookup.ts';
import { texts } from '../../contract/texts.ts';
import { api } from './api.ts';
import { failure, type LookupResult } from './lookups.ts';

export interface FoundArticle {
  id: number;
  nummer: string;
  name: string;
}

type Failure = { ok: false; message: string };

/**
 * What a scan into an article field names: a GS1 code's GTIN (the server matches it to the EAN with or
 * without leading 0), else the text as scanned. A GS1 code that cannot be used (its GTIN broken, keys that
 * contradict each other) is refused with its German message; a broken or unknown other field of the label
 * does not matter here — it is in `gs1.problems` for a screen that fills more than the article.
 */
export function articleCode(scanned: string): { ok: true; code: string; gs1: Gs1Data | null } | Failure {
  const gs1 = parseGs1(scanned);
  if (gs1.kind === 'invalid') return { ok: false, message: gs1.message };
  if (gs1.kind === 'gs1' && gs1.data.gtin) return { ok: true, code: gs1.data.gtin, gs1: gs1.data };
  return { ok: true, code: scanned, gs1: gs1.kind === 'gs1' ? gs1.data : null };
}

/** What a scan into a load-carrier (LHM) field names: a pallet label's SSCC, else the text as scanned. */
export function lhmCode(scanned: string): { ok: true; code: string } | Failure {
  const gs1 = parseGs1(scanned);
  if (gs1.kind === 'invalid') return { ok: false, message: gs1.message };
  return { ok: true, code: gs1.kind === 'gs1' && gs1.data.sscc ? gs1.data.sscc : scanned };
}

export async function lookUpArticle(scanned: string): Promise<LookupResult<FoundArticle>> {
  const named = articleCode(scanned);
  if (!named.ok) return named;
  try {
    const result = await api.call(findArticle, { params: { number: named.code } });
    if (result.count > 1) return { ok: false, message: texts.lookup.articleAmbiguous(named.code) };
    if (!result.found || result.id === null)
      return { ok: false, message: texts.lookup.articleNotFound(named.code) };
    return {
      ok: true,
      value: { id: result.id, nummer: result.nummer ?? named.code, name: result.name ?? '' },
    };
  } catch (error) {
    return failure(error);
  }
}
