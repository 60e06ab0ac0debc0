import { type Kysely, sql } from 'kysely';
import { texts } from '../../../contract/texts.ts';
import type { Database } from '../../db/schema.ts';
import { invalid, notFound } from '../../domain/errors.ts';
import { closeCart } from '../../repositories/cart.repository.ts';
import { deliveryNoteByBelegnr } from '../../repositories/delivery-note.repository.ts';

type Db = Kysely<Database>;

/** The open customs cart, if any: one per site (a unique index on open carts keeps it so). */
export async function checkWagen(db: Db) {
  const cart = await db
    .selectFrom('carts')
    .select(['wagennummer', 'bezeichnung'])
    .where('status', '=', 'offen')
    .executeTakeFirst();
  return {
    found: cart !== undefined,
    wagennummer: cart?.wagennummer ?? null,
    bezeichnung: cart?.bezeichnung ?? null,
  };
}

function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}

/**
 * A scanned cart number: when the cart exists it is opened for packing. While another cart is open it is
 * refused with the open cart's name; two workers opening carts at once end with one open cart.
 */
export async function findWagen(db: Db, input: { wagennummer: string; userId: number }) {
  const cart = await db
    .selectFrom('carts')
    .select(['id', 'wagennummer', 'bezeichnung', 'status'])
    .where('wagennummer', '=', input.wagennummer)
    .executeTakeFirst();
  if (!cart)
    return { found: false, wagennummer: null, message: texts.zollpaket.cartNotFound(input.wagennummer) };
  if (cart.status === 'offen') return { found: true, wagennummer: cart.wagennummer, message: '' };
  try {
    await db
      .updateTable('carts')
      .set({ status: 'offen', opened_by: input.userId, opened_at: sql`now()`, closed_at: null })
      .where('id', '=', cart.id)
      .execute();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const open = await checkWagen(db);
    return {
      found: false,
      wagennummer: null,
      message: texts.zollpaket.cartStillOpen(open.bezeichnung ?? ''),
    };
  }
  return { found: true, wagennummer: cart.wagennummer, message: '' };
}

/** Adds a delivery note to the open cart, or (close) closes the cart, with a last note if one is given. */
export async function zollPaket(
  db: Db,
  input: { lieferschein: string; wagennummer: string; close: boolean; userId: number },
) {
  const cart = await db
    .selectFrom('carts')
    .select(['id', 'wagennummer', 'bezeichnung', 'status'])
    .where('wagennummer', '=', input.wagennummer)
    .forUpdate()
    .executeTakeFirst();
  if (!cart) throw notFound(texts.zollpaket.cartNotFound(input.wagennummer));
  if (cart.status !== 'offen') {
    throw invalid(
      input.close
        ? texts.zollpaket.cartAlreadyClosed(cart.bezeichnung)
        : texts.zollpaket.cartNotOpen(cart.bezeichnung),
    );
  }
  const belegnr = input.lieferschein.trim();
  if (belegnr !== '') {
    const note = await deliveryNoteByBelegnr(db, belegnr);
    const onCart = await db
      .selectFrom('customs_parcels as p')
      .innerJoin('carts as c', 'c.id', 'p.cart_id')
      .select('c.bezeichnung')
      .where('p.delivery_note_id', '=', note.id)
      .executeTakeFirst();
    if (onCart) throw invalid(texts.zollpaket.noteOnCart(belegnr, onCart.bezeichnung));
    await db
      .insertInto('customs_parcels')
      .values({ cart_id: cart.id, delivery_note_id: note.id, user_id: input.userId })
      .execute();
  } else if (!input.close) {
    throw invalid(texts.zollpaket.noteMissing);
  }
  if (input.close) {
    await closeCart(db, cart.id);
    return { success: true, message: texts.zollpaket.cartClosed };
  }
  return { success: true, message: texts.zollpaket.captured };
}

/** The latest customs parcels, newest first. */
export async function zollHistory(db: Db) {
  const rows = await db
    .selectFrom('customs_parcels as p')
    .innerJoin('delivery_notes as d', 'd.id', 'p.delivery_note_id')
    .innerJoin('carts as c', 'c.id', 'p.cart_id')
    .select(['p.at', 'd.belegnr', 'c.bezeichnung'])
    .orderBy('p.at', 'desc')
    .orderBy('p.id', 'desc')
    .limit(30)
    .execute();
  return {
    data: rows.map((r) => ({
      time: r.at.toISOString(),
      lieferschein: r.belegnr,
      wagennummer: r.bezeichnung,
    })),
  };
}
