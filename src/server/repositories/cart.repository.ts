import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * Closes a customs cart: what 'Abschließen' does on the handheld's Zollpaket screen and in the Leitstand
 * alike, so a cart closed at the desk is in exactly the state one closed on the floor is — status
 * 'abgeschlossen', closed now; its parcels stay on it (a delivery note is on one cart, ever), and the next
 * scan of its number opens it again. The caller holds the cart's row lock and has checked it is open.
 */
export async function closeCart(db: Kysely<Database>, cartId: number): Promise<void> {
  await db
    .updateTable('carts')
    .set({ status: 'abgeschlossen', closed_at: sql`now()` })
    .where('id', '=', cartId)
    .execute();
}
