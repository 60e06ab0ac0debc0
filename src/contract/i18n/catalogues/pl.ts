import type { PartialCatalogue } from '../catalogue.ts';

/**
 * Polski (pl): the first texts, written for warehouse staff (short imperative, a picker's words); every text
 * not here yet falls back to German. A translator fills the rest (decision 35); catalogues.test.ts lists this
 * language among those still incomplete until every key is here.
 */
export default {} satisfies PartialCatalogue;
