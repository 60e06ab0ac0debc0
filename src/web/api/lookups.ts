import { type Gs1Data, parseGs1 } from '../../contract/gs1.ts';
import { findArticle, findLp } from '../../contract/inventur.ts';
import { texts } from '../../contract/texts.ts';
import { api } from './api.ts';

/** A scanned code resolved, or the German message to show (SPEC §8). */
export type LookupResult<T> = { ok: true; value: T } | { ok: false; message: string };

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

/**
 * What a scan into an article field names: a GS1 code's GTIN (the server matches it to the EAN with or
 * without leading 0), else the text as scanned. A broken GS1 code is refused with its German message.
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

type Failure = { ok: false; message: string };

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

/** The message of anything a call threw: the server's or the client's German text. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : texts.errors.network;
}
