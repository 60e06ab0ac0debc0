import { z } from 'zod';
import { amount, endpoint, successMessage, successOnly } from './endpoint.ts';
import { articleId, articleIdParam, locationId, locationIdParam } from './ids.ts';

/** How much of the article lies on the location (0 if none): the most that can be moved from there. */
export const checkLpArticle = endpoint({
  name: 'checkLpArticle',
  method: 'GET',
  path: '/api/umlagern/checklparticle/:lpId/:articleId',
  params: z.object({ lpId: locationIdParam, articleId: articleIdParam }),
  response: z.object({ amount: z.number().int() }),
});

export const articleInfoRow = z.object({
  /** Name of the location holding the article. */
  kurzbezeichnung: z.string(),
  lagertyp: z.string(),
  amount: z.number().int(),
});

/** The locations holding an article. */
export const articleInfo = endpoint({
  name: 'articleInfo',
  method: 'GET',
  path: '/api/umlagern/articleinfo/:articleId',
  params: z.object({ articleId: articleIdParam }),
  response: z.array(articleInfoRow),
});

export const locationContentRow = z.object({
  /** Article nummer. */
  number: z.string(),
  name: z.string(),
  amount: z.number().int(),
});

/** What lies on a location. */
export const locationContent = endpoint({
  name: 'locationContent',
  method: 'GET',
  path: '/api/umbuchung/:lpId',
  params: z.object({ lpId: locationIdParam }),
  response: z.array(locationContentRow),
});

/** Moves an amount of one article from one location to another. */
export const moveArticle = endpoint({
  name: 'moveArticle',
  method: 'POST',
  path: '/api/umbuchung/artikel/',
  body: z.object({ from: locationId, article: articleId, to: locationId, amount: amount(1) }),
  response: successOnly,
});

/** Moves everything on one location to another. */
export const moveLocation = endpoint({
  name: 'moveLocation',
  method: 'POST',
  path: '/api/umbuchung/',
  body: z.object({ from: locationId, to: locationId }),
  response: successMessage,
});
