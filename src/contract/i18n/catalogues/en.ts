import type { PartialCatalogue } from '../catalogue.ts';

/**
 * English (en): not translated yet — every text falls back to German. A translator fills this file (decision 35);
 * catalogues.test.ts lists it among the languages still incomplete until every key is here.
 */
export default {} satisfies PartialCatalogue;
