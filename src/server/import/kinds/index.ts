import { articles } from './articles.ts';
import { deliveryNotes } from './delivery-notes.ts';
import { locations } from './locations.ts';
import { pickCarts } from './pick-carts.ts';
import { projects } from './projects.ts';
import { receipts } from './receipts.ts';
import { batches, carts, shipments } from './small.ts';
import { stock } from './stock.ts';
import { users } from './users.ts';

/** The kinds `npm run import -- <kind> <file.csv>` knows, in the order a new site imports them. */
export const KINDS = {
  users,
  articles,
  locations,
  stock,
  batches,
  projects,
  'delivery-notes': deliveryNotes,
  shipments,
  carts,
  'pick-carts': pickCarts,
  receipts,
} as const;

export type KindName = keyof typeof KINDS;

export function isKindName(name: string): name is KindName {
  return Object.hasOwn(KINDS, name);
}
