import { z } from 'zod';
import { endpoint, scanText, scanTextOrEmpty, successMessage } from './endpoint.ts';
import { scanLimits } from './limits.ts';

/** The open customs cart, if any (one open cart per site). */
export const checkWagen = endpoint({
  name: 'checkWagen',
  method: 'GET',
  path: '/api/zollpaketerfassung/checkWagen',
  response: z.object({
    found: z.boolean(),
    wagennummer: z.string().nullable(),
    bezeichnung: z.string().nullable(),
  }),
});

/** Looks up a cart by its scanned number and opens it. */
export const findWagen = endpoint({
  name: 'findWagen',
  method: 'GET',
  path: '/api/zollpaketerfassung/findWagen/:wagennummer',
  params: z.object({ wagennummer: scanText(scanLimits.cart) }),
  response: z.object({ found: z.boolean(), wagennummer: z.string().nullable(), message: z.string() }),
});

/** Adds a delivery note to the open cart, or closes the cart (`close: true`, note may be empty). */
export const zollPaket = endpoint({
  name: 'zollPaket',
  method: 'PUT',
  path: '/api/zollpaketerfassung/paket',
  body: z.object({
    lieferschein: scanTextOrEmpty(),
    wagennummer: scanText(scanLimits.cart),
    close: z.boolean(),
  }),
  response: successMessage,
});

export const zollHistoryRow = z.object({
  time: z.string(),
  lieferschein: z.string(),
  wagennummer: z.string(),
});

export const zollHistory = endpoint({
  name: 'zollHistory',
  method: 'GET',
  path: '/api/zollpaketerfassung/history',
  response: z.object({ data: z.array(zollHistoryRow) }),
});
