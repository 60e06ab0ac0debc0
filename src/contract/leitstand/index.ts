import type { Endpoint } from '../endpoint.ts';
import * as klaerfaelle from './klaerfaelle.ts';

/**
 * The Leitstand's calls (issue 20, DESIGN §9): one file per area beside this one, each exporting its
 * endpoints; every call lives under `/api/leitstand/` (schichtleitung) or `/api/admin/` (admin). Listed here
 * so the route-table test walks them all.
 */
export const leitstandContract: readonly Endpoint[] = [
  klaerfaelle.klaerfaelleList,
  klaerfaelle.klaerfallErledigt,
  klaerfaelle.klaerfallZurueck,
];
