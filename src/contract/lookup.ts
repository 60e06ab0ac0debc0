import { z } from 'zod';
import { endpoint } from './endpoint.ts';
import { articleCode, locationCode } from './ids.ts';

/**
 * The lookups every scanning screen shares (SPEC §7's first two calls, §3's lookup results): an article or a
 * location by what was scanned. Their paths stay under /api/inventur/, where SPEC puts them; the server
 * answers them from its repositories (src/server/features/lookup/, decision 32). A miss is `found: false`,
 * not a refusal: the screen says 'Artikel "x" nicht gefunden!' itself.
 */

export const articleLookup = z.object({
  found: z.boolean(),
  /** How many articles match the scanned text; `found` only when exactly one does. */
  count: z.number().int(),
  id: z.number().int().nullable(),
  nummer: z.string().nullable(),
  name: z.string().nullable(),
});
export type ArticleLookup = z.infer<typeof articleLookup>;

export const locationLookup = z.object({
  found: z.boolean(),
  id: z.number().int().nullable(),
  name: z.string().nullable(),
});
export type LocationLookup = z.infer<typeof locationLookup>;

/** Article by nummer, EAN (with or without one leading 0) or herstellernummer. */
export const findArticle = endpoint({
  name: 'findArticle',
  method: 'GET',
  path: '/api/inventur/findarticle/:number',
  params: z.object({ number: articleCode() }),
  response: articleLookup,
});

/** Location by its scanned code. */
export const findLp = endpoint({
  name: 'findLp',
  method: 'GET',
  path: '/api/inventur/findlp/:code',
  params: z.object({ code: locationCode() }),
  response: locationLookup,
});
