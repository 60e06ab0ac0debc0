import { findArticle, findLp } from '../../contract/inventur.ts';
import { texts } from '../../contract/texts.ts';
import { api } from './api.ts';

/** A scanned code resolved, or the German message to show (SPEC §8). */
export type Lookup<T> = { ok: true; value: T } | { ok: false; message: string };

export interface FoundLocation {
  id: number;
  code: string;
  name: string;
}

export interface FoundArticle {
  id: number;
  nummer: string;
  name: string;
}

function failure(error: unknown): { ok: false; message: string } {
  return { ok: false, message: error instanceof Error ? error.message : texts.errors.network };
}

export async function lookUpLocation(code: string): Promise<Lookup<FoundLocation>> {
  try {
    const result = await api.call(findLp, { params: { code } });
    if (!result.found || result.id === null)
      return { ok: false, message: texts.lookup.locationNotFound(code) };
    return { ok: true, value: { id: result.id, code, name: result.name ?? code } };
  } catch (error) {
    return failure(error);
  }
}

export async function lookUpArticle(scanned: string): Promise<Lookup<FoundArticle>> {
  try {
    const result = await api.call(findArticle, { params: { number: scanned } });
    if (result.count > 1) return { ok: false, message: texts.lookup.articleAmbiguous(scanned) };
    if (!result.found || result.id === null)
      return { ok: false, message: texts.lookup.articleNotFound(scanned) };
    return { ok: true, value: { id: result.id, nummer: result.nummer ?? scanned, name: result.name ?? '' } };
  } catch (error) {
    return failure(error);
  }
}

/** The message of anything a call threw: the server's or the client's German text. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : texts.errors.network;
}
