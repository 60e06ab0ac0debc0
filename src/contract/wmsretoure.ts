import { z } from 'zod';
import { amount, endpoint, scanTextOrEmpty, successMessage } from './endpoint.ts';
import { articleCode, articleId, locationCode, locationId } from './ids.ts';
import { AMOUNT_MAX, scanLimits } from './limits.ts';
import { locationLookup } from './lookup.ts';

export const wmsArticle = z.object({
  found: z.boolean(),
  count: z.number().int(),
  id: z.number().int().nullable(),
  nummer: z.string().nullable(),
  name: z.string().nullable(),
  /** The article needs a Charge (batch/lot) on booking. */
  charge: z.boolean(),
  /** The article needs an MHD (best-before date) on booking. */
  mindesthaltbarkeit: z.boolean(),
});

export const wmsItem = endpoint({
  name: 'wmsItem',
  method: 'GET',
  path: '/api/wmsretoure/item/:article',
  params: z.object({ article: articleCode() }),
  response: wmsArticle,
});

/** Load carrier (LHM) lookup. */
export const wmsStorage = endpoint({
  name: 'wmsStorage',
  method: 'GET',
  path: '/api/wmsretoure/storage/:lhm',
  params: z.object({ lhm: locationCode() }),
  response: locationLookup,
});

/**
 * What a return's amount must be: a whole number from 1 to AMOUNT_MAX. The body's schema bounds it only above,
 * so that a smaller amount reaches the service, which refuses it by this schema with the spec's 'Menge
 * korrigieren!', not with a field message; the screen checks with it before it asks to book.
 */
export const wmsRetoureAmount = amount(1);

export const bookWmsRetoure = endpoint({
  name: 'bookWmsRetoure',
  method: 'PUT',
  path: '/api/wmsretoure',
  body: z.object({
    article: articleId,
    /** The LHM's id (decision 32: on the wire `lagerplatz`, behind the route a LocationId). */
    lagerplatz: locationId,
    /** Below 1 the service answers 'Menge korrigieren!' (wmsRetoureAmount). */
    amount: z.number().int().max(AMOUNT_MAX),
    charge: scanTextOrEmpty(scanLimits.batch).nullable(),
    /** ISO date YYYY-MM-DD. */
    mhd: z.iso.date().nullable(),
    quality: z.number().int().min(1).max(9).default(2),
  }),
  response: successMessage,
});
