import type { z } from 'zod';
import { id, idParam, scanText, text } from './endpoint.ts';
import { scanLimits } from './limits.ts';

/**
 * The domain things' ids and scanned codes as branded types (decision 32): a `LocationId` is a number the
 * database gave a location, a `LocationCode` the text on its label as scanned or typed. A request field
 * parses into its brand, the repositories and services take it, so an article's id passed where a location's
 * is wanted — or a scanned code where an id is — does not compile. The brand is a type only: the schema and
 * what goes over the wire are the plain number or text (zod's `.brand()` returns the schema itself), and what
 * a client sends stays unbranded (`z.input`).
 */

/** A location's id in a JSON body. */
export const locationId = id.brand<'LocationId'>();
/** A location's id in a URL segment ("12"). */
export const locationIdParam = idParam.brand<'LocationId'>();
/** A location's code as scanned (also a load carrier's, an LHM). */
export const locationCode = (max: number = scanLimits.code) => scanText(max).brand<'LocationCode'>();
/** A location's code as the Leitstand types it (every control character refused). */
export const typedLocationCode = (max: number = 200) =>
  text(max, { min: 1, controls: 'typed' }).brand<'LocationCode'>();

/** An article's id in a JSON body. */
export const articleId = id.brand<'ArticleId'>();
/** An article's id in a URL segment. */
export const articleIdParam = idParam.brand<'ArticleId'>();
/** What names an article as scanned: its nummer, its EAN (± one leading 0) or its herstellernummer. */
export const articleCode = (max: number = scanLimits.code) => scanText(max).brand<'ArticleCode'>();

/** A delivery note's (Lieferschein's) id in a JSON body (on the wire mostly `id`: packing, cartons, picking). */
export const deliveryNoteId = id.brand<'DeliveryNoteId'>();
/** A delivery note's id in a URL segment. */
export const deliveryNoteIdParam = idParam.brand<'DeliveryNoteId'>();
/** A delivery note line's id (a Position; on the wire the pick's `positionId`). */
export const deliveryNoteLineId = id.brand<'DeliveryNoteLineId'>();

/** A receipt's (Wareneingang's) id. No call takes one — a receipt is named by its number — but its services do. */
export const receiptId = id.brand<'ReceiptId'>();
/** A receipt line's id (a Position; on the wire `position`) in a JSON body. */
export const receiptLineId = id.brand<'ReceiptLineId'>();
/** A receipt line's id in a URL segment. */
export const receiptLineIdParam = idParam.brand<'ReceiptLineId'>();

/** A user's id in a URL segment (the Leitstand's Benutzer page: the user a change is made to). */
export const userIdParam = idParam.brand<'UserId'>();

/** A Klärfall's id in a URL segment (the Leitstand's `klaerfallId`). */
export const klaerfallIdParam = idParam.brand<'KlaerfallId'>();

export type LocationId = z.output<typeof locationId>;
export type LocationCode = z.output<ReturnType<typeof locationCode>>;
export type ArticleId = z.output<typeof articleId>;
export type ArticleCode = z.output<ReturnType<typeof articleCode>>;
export type DeliveryNoteId = z.output<typeof deliveryNoteId>;
export type DeliveryNoteLineId = z.output<typeof deliveryNoteLineId>;
export type ReceiptId = z.output<typeof receiptId>;
export type ReceiptLineId = z.output<typeof receiptLineId>;
export type KlaerfallId = z.output<typeof klaerfallIdParam>;
export type UserId = z.output<typeof userIdParam>;
