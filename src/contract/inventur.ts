import { z } from 'zod';
import { amount, endpoint, id, scanText, successOnly } from './endpoint.ts';

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
  params: z.object({ number: scanText() }),
  response: articleLookup,
});

/** Location by its scanned code. */
export const findLp = endpoint({
  name: 'findLp',
  method: 'GET',
  path: '/api/inventur/findlp/:code',
  params: z.object({ code: scanText() }),
  response: locationLookup,
});

/** Records a count and sets the stock of that article on that location to it. */
export const bookInventur = endpoint({
  name: 'bookInventur',
  method: 'POST',
  path: '/api/inventur/',
  body: z.object({ lp: id, article: id, amount: amount(0) }),
  response: successOnly,
});

export const inventurHistoryRow = z.object({
  time: z.string(),
  /** Article nummer. */
  article: z.string(),
  articleName: z.string(),
  /** Location code. */
  lp: z.string(),
  amount: z.number().int(),
});
export type InventurHistoryRow = z.infer<typeof inventurHistoryRow>;

/** The calling user's latest 20 counts, newest first. */
export const inventurHistory = endpoint({
  name: 'inventurHistory',
  method: 'GET',
  path: '/api/inventur/history',
  response: z.object({ data: z.array(inventurHistoryRow) }),
});
