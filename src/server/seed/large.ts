import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * A large warehouse for benchmarks (issue 7), added on top of the demo warehouse: generated inside the
 * database with set-based `insert … select from generate_series` (bulk, no row-by-row round trips), the same
 * SQL on PostgreSQL and PGlite. Stock is journalled like every booking ('seed'), and the history is pairs of
 * moves there and back, so the journal still adds up to the stock. It writes `stock` itself: the one
 * exception to src/server/domain/stock.ts being its only writer, named there with the reason.
 *
 * Codes do not collide with the demo data: articles 2000001…, locations from aisle D, LHM1…, LS5…, tracking
 * numbers with their own prefixes.
 */
export const LARGE = {
  articles: 100_000,
  locations: 20_000,
  /** Of the locations, load carriers (LHM). */
  lhms: 1_000,
  /** Five shelves per article at most. */
  stockRows: 500_000,
  /** Seed rows (one per stock row) plus history pairs. */
  journalRows: 2_000_000,
  deliveryNotes: 50_000,
  linesPerNote: 5,
  shipments: 100_000,
} as const;

export type LargeSizes = { -readonly [K in keyof typeof LARGE]: number };

/** The sizes at a scale (1 = the benchmark's warehouse; tests and the CI smoke run use 0.01). */
export function largeSizes(scale = 1): LargeSizes {
  const of = (n: number) => Math.max(10, Math.round(n * scale));
  const stockRows = of(LARGE.stockRows);
  return {
    articles: of(LARGE.articles),
    locations: of(LARGE.locations),
    lhms: of(LARGE.lhms),
    stockRows,
    // Stock rows plus an even number of history rows.
    journalRows: stockRows + 2 * Math.round((of(LARGE.journalRows) - stockRows) / 2),
    deliveryNotes: of(LARGE.deliveryNotes),
    linesPerNote: LARGE.linesPerNote,
    shipments: of(LARGE.shipments),
  };
}

/** Article nummer n (1-based) — the benchmark scans these. */
export const largeArticleNummer = (n: number) => String(2_000_000 + n);
/** Shelf location code n (1-based, up to locations − lhms). */
export function largeLocationCode(n: number): string {
  const i = n - 1;
  const aisle = String.fromCharCode(68 + Math.floor(i / 1000)); // D, E, …
  const rack = Math.floor((i % 1000) / 20) + 1;
  const level = Math.floor((i % 20) / 4) + 1;
  const place = (i % 4) + 1;
  const two = (x: number) => String(x).padStart(2, '0');
  return `${aisle}-${two(rack)}-${two(level)}-${two(place)}`;
}
export const largeBelegnr = (n: number) => `LS${5_000_000 + n}`;
/** EAN of article n as stored: every tenth is a UPC-A with a leading 0 (scanners often drop it). */
export function largeEan(n: number): string {
  const body = n % 10 === 0 ? `0${String(n).padStart(11, '0')}` : `42${String(n).padStart(10, '0')}`;
  return body + eanCheckDigit(body);
}

export function eanCheckDigit(first12: string): string {
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(first12[i]) * (i % 2 === 0 ? 1 : 3);
  return String((10 - (sum % 10)) % 10);
}

/** SQL for `largeEan(n)` over a column `n`. */
const EAN_SQL = `(case when n % 10 = 0 then '0' || lpad(n::text, 11, '0') else '42' || lpad(n::text, 10, '0') end)`;
const CHECK_SQL = (body: string) =>
  `((10 - ((${[...Array(12).keys()].map((i) => `substr(${body}, ${i + 1}, 1)::int * ${i % 2 === 0 ? 1 : 3}`).join(' + ')}) % 10)) % 10)::text`;

export async function seedLarge(
  db: Kysely<Database>,
  options: { scale?: number; progress?: (step: string, rows: number, ms: number) => void } = {},
): Promise<LargeSizes> {
  const LARGE = largeSizes(options.scale);
  const progress = options.progress ?? (() => {});
  const step = async (name: string, rows: number, statement: string) => {
    const started = performance.now();
    await sql.raw(statement).execute(db);
    progress(name, rows, performance.now() - started);
  };
  const shelves = LARGE.locations - LARGE.lhms;
  const history = (LARGE.journalRows - LARGE.stockRows) / 2;

  await db.transaction().execute(async (trx) => {
    // One statement per call: PGlite's driver runs prepared statements, which hold exactly one.
    const run = async (name: string, rows: number, statements: string) => {
      const started = performance.now();
      for (const statement of statements.split(/;\n/)) await sql.raw(statement).execute(trx);
      progress(name, rows, performance.now() - started);
    };
    await run(
      'articles',
      LARGE.articles,
      `insert into articles (nummer, ean, herstellernummer, name, kurzbezeichnung, charge_required, mhd_required)
       select (2000000 + n)::text, ean || ${CHECK_SQL('ean')}, 'HL-' || n, 'Artikel ' || n || ' (Stk)',
              'Art. ' || n, n % 20 = 0, n % 20 = 0
       from (select n, ${EAN_SQL} as ean from generate_series(1, ${LARGE.articles}) n) g`,
    );
    await run(
      'locations',
      LARGE.locations,
      `insert into locations (code, name, lagertyp, is_lhm)
       select code, code, (array['Fachboden', 'Palette', 'Kommissionierung'])[1 + (i % 20) / 4 % 3], false
       from (select i, chr(68 + i / 1000) || '-' || lpad((((i % 1000) / 20) + 1)::text, 2, '0') || '-' ||
                   lpad((((i % 20) / 4) + 1)::text, 2, '0') || '-' || lpad(((i % 4) + 1)::text, 2, '0') as code
             from generate_series(0, ${shelves - 1}) i) g;
       insert into locations (code, name, lagertyp, is_lhm)
       select 'LHM' || (100000 + n), 'Ladungsträger ' || (100000 + n), 'LHM', true
       from generate_series(1, ${LARGE.lhms}) n`,
    );
    // Stock row i: article i % A, on 5 different shelves per article (i / A picks which).
    await run(
      'stock',
      LARGE.stockRows,
      `create temporary table large_ids on commit drop as
         select (select min(id) from articles where nummer = '2000001') as article0,
                (select min(id) from locations where code = 'D-01-01-01') as location0;
       insert into stock (location_id, article_id, amount)
       select ids.location0 + ((a * 13 + k * 4001) % ${shelves}), ids.article0 + a, 1 + (i::bigint * 7919) % 200
       from large_ids ids, generate_series(0, ${LARGE.stockRows - 1}) i,
            lateral (select i % ${LARGE.articles} as a, i / ${LARGE.articles} as k) x;
       create temporary table large_stock0 on commit drop as
         select min(s.id) as id from stock s, large_ids ids where s.article_id >= ids.article0`,
    );
    await run(
      'journal',
      LARGE.journalRows,
      `insert into movements (kind, article_id, to_location_id, amount, at)
       select 'seed', s.article_id, s.location_id, s.amount, now() - interval '800 days'
       from stock s, large_ids ids where s.article_id >= ids.article0;
       insert into movements (kind, article_id, from_location_id, to_location_id, amount, at)
       select 'umlagerung', s.article_id, m.a, m.b, 1 + s.amount / 2, now() - (h % 700 || ' days')::interval
       from large_stock0 s0
       cross join large_ids ids
       cross join generate_series(0, ${history - 1}) h
       join stock s on s.id = s0.id + (h::bigint * 7) % ${LARGE.stockRows}
       cross join lateral (
         select ids.location0 + ((s.location_id - ids.location0 + 1 + h % 97) % ${shelves}) as other
       ) o
       cross join lateral (values (s.location_id, o.other), (o.other, s.location_id)) m(a, b)`,
    );
    await run(
      'delivery notes',
      LARGE.deliveryNotes,
      `insert into delivery_notes (belegnr, eu, versandart, status, created_at)
       select 'LS' || (5000000 + n), n % 7 <> 0, case when n % 7 <> 0 then 'DHL037' else 'DHL042' end,
              case when n % 4 = 0 then 'offen' else 'gepackt' end, now() - (n % 400 || ' days')::interval
       from generate_series(1, ${LARGE.deliveryNotes}) n`,
    );
    await run(
      'delivery note lines',
      LARGE.deliveryNotes * LARGE.linesPerNote,
      `insert into delivery_note_lines (delivery_note_id, article_id, lsmenge, pemenge)
       select d.id, ids.article0 + ((d.id * 31 + l * 7) % ${LARGE.articles}), 1 + (d.id + l) % 4,
              case when d.status = 'gepackt' then 1 + (d.id + l) % 4 else 0 end
       from delivery_notes d, large_ids ids, generate_series(1, ${LARGE.linesPerNote}) l
       where d.belegnr like 'LS5%'`,
    );
    await run(
      'shipments',
      LARGE.shipments,
      `insert into shipments (tracking, delivery_note_id, carrier)
       select '00340434169' || lpad(n::text, 9, '0'), d.id, 'dhl'
       from generate_series(1, ${LARGE.shipments}) n
       join delivery_notes d on d.belegnr = 'LS' || (5000000 + 1 + (n - 1) % ${LARGE.deliveryNotes})`,
    );
  });
  // Only the tables filled here. A table analysed while empty is planned as empty, and a prepared statement's
  // kept plan then reads the whole table for each row it looks up — the idempotency table's update by key took
  // 0.1 ms at the server's start and 1.2 ms 70,000 bookings later — until the server's maintenance analyses it
  // again (decision 29: on PGlite a minute after the start at the earliest). Vacuumed and frozen here too, as
  // a site's maintained tables are: the first vacuum of 2 M journal rows is one step of a second or more,
  // which a server's maintenance would put off until its floor is quiet.
  await step(
    'vacuum, analyze',
    0,
    'vacuum (freeze, analyze) articles, locations, stock, movements, delivery_notes, delivery_note_lines, shipments',
  );
  return LARGE;
}
