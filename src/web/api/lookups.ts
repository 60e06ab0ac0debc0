import { findLp } from '../../contract/lookup.ts';
import { texts } from '../../contract/texts.ts';
import { api } from './api.ts';
import { messageOf } from './message.ts';

/**
 * Looking up what a worker scanned (SPEC §8). What reads GS1 codes (article and load-carrier fields) is in
 * `article-lookups.ts`, so the screens that never read one do not download the GS1 reader and its AI table.
 */

/** A scanned code resolved, or the German message to show (SPEC §8). */
export type LookupResult<T> = { ok: true; value: T } | { ok: false; message: string };

export interface FoundLocation {
  id: number;
  code: string;
  name: string;
}

export function failure(error: unknown): { ok: false; message: string } {
  return { ok: false, message: messageOf(error) };
}

export async function lookUpLocation(code: string): Promise<LookupResult<FoundLocation>> {
  try {
    const result = await api.call(findLp, { params: { code } });
    if (!result.found || result.id === null)
      return { ok: false, message: texts.lookup.locationNotFound(code) };
    return { ok: true, value: { id: result.id, code, name: result.name ?? code } };
  } catch (error) {
    return failure(error);
  }
}
