import { type Kysely, sql } from 'kysely';
import {
  WARENEINGANG_CLOSED_DAYS,
  WARENEINGANG_CLOSED_MAX,
  type WareneingangRow,
} from '../../../../contract/leitstand/wareneingang.ts';
import type { Database } from '../../../db/schema.ts';

type Db = Kysely<Database>;

/**
 * Open receipts (oldest first) and those closed in the last 30 days (latest first), each with its lines and
 * their difference: received minus expected (for a closed receipt, as recorded at 'Abschließen').
 */
export async function wareneingangList(db: Db) {
  const heads = await db
    .selectFrom('receipts as r')
    .leftJoin('users as u', 'u.id', 'r.closed_by')
    .select([
      'r.id',
      'r.nummer',
      'r.lieferant',
      'r.status',
      'r.created_at',
      'r.closed_at',
      'u.name as closed_by',
    ])
    .where((eb) =>
      eb.or([
        eb('r.status', '=', 'offen'),
        eb('r.closed_at', '>=', sql<Date>`now() - make_interval(days => ${WARENEINGANG_CLOSED_DAYS})`),
      ]),
    )
    .orderBy('r.id')
    .execute();
  const open = heads.filter((h) => h.status === 'offen');
  const closed = heads
    .filter((h) => h.status === 'abgeschlossen')
    .sort((a, b) => (b.closed_at?.getTime() ?? 0) - (a.closed_at?.getTime() ?? 0) || b.id - a.id)
    .slice(0, WARENEINGANG_CLOSED_MAX);
  const ids = [...open, ...closed].map((h) => h.id);
  const lines =
    ids.length === 0
      ? []
      : await db
          .selectFrom('receipt_lines as l')
          .innerJoin('articles as a', 'a.id', 'l.article_id')
          .select(['l.receipt_id', 'a.nummer', 'a.name', 'l.charge', 'l.mhd', 'l.expected', 'l.received'])
          .where('l.receipt_id', 'in', ids)
          .orderBy('l.receipt_id')
          .orderBy('l.id')
          .execute();
  const row = (h: (typeof heads)[number]): WareneingangRow => {
    const positionen = lines
      .filter((l) => l.receipt_id === h.id)
      .map((l) => ({
        nummer: l.nummer,
        name: l.name,
        charge: l.charge,
        mhd: l.mhd,
        erwartet: l.expected,
        erhalten: l.received,
        differenz: l.received - l.expected,
      }));
    return {
      nummer: h.nummer,
      lieferant: h.lieferant,
      status: h.status,
      angelegtAm: h.created_at.toISOString(),
      abgeschlossenAm: h.closed_at?.toISOString() ?? null,
      abgeschlossenVon: h.closed_by,
      fehlmenge: positionen.reduce((sum, p) => sum + Math.max(-p.differenz, 0), 0),
      mehrmenge: positionen.reduce((sum, p) => sum + Math.max(p.differenz, 0), 0),
      positionen,
    };
  };
  return { offen: open.map(row), abgeschlossen: closed.map(row), tage: WARENEINGANG_CLOSED_DAYS };
}
