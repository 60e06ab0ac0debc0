import { type Kysely, sql } from 'kysely';
import {
  ZOLLWAGEN_CLOSED_MAX,
  type ZollwagenRow,
  zollwagenTexts,
} from '../../../../contract/leitstand/zollwagen.ts';
import { texts } from '../../../../contract/texts.ts';
import type { Database } from '../../../db/schema.ts';
import { conflict, notFound } from '../../../domain/errors.ts';
import { recordAudit } from '../../../repositories/audit.repository.ts';
import { closeCart } from '../../../repositories/cart.repository.ts';

type Db = Kysely<Database>;

const iso = (at: Date | string) => new Date(at).toISOString();

/**
 * The open carts (longest open first) and those closed in the last `days` days (latest first), each with
 * the parcels of its current or last round. A cart is used again after closing (the next scan of its number
 * opens it), and carts keep no rounds of their own: a round's parcels are those put on since it was opened
 * (the one opening the cart keeps, opened_at). Earlier rounds are in the export API's customs feed.
 */
export async function zollwagenList(db: Db, days: number) {
  const carts = await db
    .selectFrom('carts as c')
    .leftJoin('users as u', 'u.id', 'c.opened_by')
    .select([
      'c.id',
      'c.wagennummer',
      'c.bezeichnung',
      'c.status',
      'u.name as openedBy',
      'c.opened_at',
      'c.closed_at',
    ])
    .where((eb) =>
      eb.or([
        eb('c.status', '=', 'offen'),
        eb('c.closed_at', '>', sql<Date>`now() - ${days}::int * interval '1 day'`),
      ]),
    )
    // Open first (longest open first), then the latest closed.
    .orderBy(sql`c.status = 'offen' desc, c.closed_at desc nulls first, c.opened_at, c.wagennummer`)
    .limit(ZOLLWAGEN_CLOSED_MAX + 50)
    .execute();
  const parcels =
    carts.length === 0
      ? []
      : await db
          .selectFrom('customs_parcels as p')
          .innerJoin('carts as c', 'c.id', 'p.cart_id')
          .innerJoin('delivery_notes as d', 'd.id', 'p.delivery_note_id')
          .leftJoin('users as u', 'u.id', 'p.user_id')
          .select(['p.cart_id', 'd.belegnr', 'u.name', 'p.at'])
          .where(
            'p.cart_id',
            'in',
            carts.map((c) => c.id),
          )
          .where((eb) => eb.or([eb('c.opened_at', 'is', null), eb('p.at', '>=', eb.ref('c.opened_at'))]))
          .orderBy('p.at', 'desc')
          .orderBy('p.id', 'desc')
          .execute();
  const byCart = new Map<number, ZollwagenRow['pakete']>();
  for (const p of parcels) {
    const list = byCart.get(p.cart_id) ?? [];
    list.push({ lieferschein: p.belegnr, von: p.name ?? zollwagenTexts.unknownUser, am: iso(p.at) });
    byCart.set(p.cart_id, list);
  }
  const rows: ZollwagenRow[] = carts.map((c) => ({
    id: c.id,
    wagennummer: c.wagennummer,
    bezeichnung: c.bezeichnung,
    status: c.status,
    geoeffnetVon: c.openedBy,
    geoeffnetAm: c.opened_at ? iso(c.opened_at) : null,
    abgeschlossenAm: c.closed_at ? iso(c.closed_at) : null,
    pakete: byCart.get(c.id) ?? [],
  }));
  return {
    offen: rows.filter((r) => r.status === 'offen'),
    abgeschlossen: rows.filter((r) => r.status === 'abgeschlossen').slice(0, ZOLLWAGEN_CLOSED_MAX),
    tage: days,
  };
}

/**
 * Closes a cart left open, exactly as 'Abschließen' on the handheld does (closeCart), and journals it. The
 * row lock orders it against a handheld putting a parcel on or closing the same cart: whichever comes
 * second finds it closed ('Wagen … ist schon abgeschlossen.' here, '… ist nicht offen.' on the handheld).
 */
export async function zollwagenAbschliessen(
  db: Db,
  input: { cartId: number; userId: number; requestKey: string | null },
) {
  const cart = await db
    .selectFrom('carts')
    .select(['id', 'wagennummer', 'bezeichnung', 'status', 'opened_at'])
    .where('id', '=', input.cartId)
    .forUpdate()
    .executeTakeFirst();
  if (!cart) throw notFound(zollwagenTexts.notFound(input.cartId));
  if (cart.status !== 'offen') throw conflict(texts.zollpaket.cartAlreadyClosed(cart.bezeichnung));
  const parcels = await db
    .selectFrom('customs_parcels')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('cart_id', '=', cart.id)
    .$if(cart.opened_at !== null, (q) => q.where('at', '>=', cart.opened_at as Date))
    .executeTakeFirstOrThrow();
  await closeCart(db, cart.id);
  await recordAudit(db, {
    userId: input.userId,
    action: 'zollwagen.close',
    subject: cart.wagennummer,
    detail: {
      bezeichnung: cart.bezeichnung,
      pakete: Number(parcels.count),
      geoeffnetAm: cart.opened_at ? iso(cart.opened_at) : null,
    },
    requestKey: input.requestKey,
  });
  return { success: true as const, message: zollwagenTexts.closedMessage(cart.bezeichnung) };
}
