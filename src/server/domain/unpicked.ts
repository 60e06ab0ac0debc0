import type { Kysely } from 'kysely';
import type { DeliveryNoteId } from '../../contract/ids.ts';
import type { Database } from '../db/schema.ts';
import { lockStockRows, takeOut } from './stock.ts';

type Db = Kysely<Database>;

/**
 * Packing what was never picked (PACK_UNPICKED=book, issue 36): the pieces a packer scans beyond what the
 * picker took leave the stock here, journalled as 'kommissionierung' with the packer and the scan's request
 * key — else a note packed without picking shipped goods that stayed on the books.
 *
 * From where: the first location in walking order (its code) that holds them all, else location after
 * location; a location marked for a count (its book stock in doubt) only when the others do not hold enough.
 * Every stock row of the article on those locations is locked first (location id, row id: the order of every
 * booking), so a pick or an Umbuchung at the same moment waits.
 *
 * Answers how many were booked: less than asked when the books hold less. The packer holds the piece, so the
 * scan still counts (this mode keeps the spec's packing flow; PACK_UNPICKED=refuse is for a site that wants
 * none of this) — and the line keeps saying 'nicht kommissioniert' for what no stock was booked for.
 */
export async function bookOutUnpicked(
  db: Db,
  input: {
    deliveryNoteId: DeliveryNoteId;
    articleId: number;
    amount: number;
    userId: number;
    requestKey: string | null;
  },
): Promise<number> {
  const places = await db
    .selectFrom('stock as s')
    .innerJoin('locations as p', 'p.id', 's.location_id')
    .select(['p.id', 'p.code', 'p.zaehlen_seit'])
    .distinct()
    .where('s.article_id', '=', input.articleId)
    .where('s.amount', '>', 0)
    .execute();
  const rows =
    places.length === 0
      ? []
      : await lockStockRows(
          db,
          input.articleId,
          places.map((p) => p.id),
        );
  const held = (id: number) =>
    rows.filter((r) => r.location_id === id && r.amount > 0).reduce((sum, r) => sum + r.amount, 0);
  places.sort(
    (a, b) =>
      Number(a.zaehlen_seit !== null) - Number(b.zaehlen_seit !== null) ||
      (a.code < b.code ? -1 : a.code > b.code ? 1 : 0),
  );
  const available = places.reduce((sum, p) => sum + held(p.id), 0);
  const amount = Math.min(input.amount, available);
  const whole = places.find((p) => held(p.id) >= amount);
  let remaining = amount;
  for (const place of whole ? [whole] : places) {
    if (remaining === 0) break;
    remaining = await takeOut(
      db,
      rows.filter((r) => r.location_id === place.id),
      remaining,
      {
        kind: 'kommissionierung',
        article_id: input.articleId,
        from_location_id: place.id,
        to_location_id: null,
        user_id: input.userId,
        request_key: input.requestKey,
        delivery_note_id: input.deliveryNoteId,
      },
    );
  }
  return amount;
}
