import { z } from 'zod';
import { amount, endpoint, successOnly } from './endpoint.ts';
import { articleId, locationId } from './ids.ts';

/** Records a count and sets the stock of that article on that location to it. */
export const bookInventur = endpoint({
  name: 'bookInventur',
  method: 'POST',
  path: '/api/inventur/',
  body: z.object({ lp: locationId, article: articleId, amount: amount(0) }),
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
