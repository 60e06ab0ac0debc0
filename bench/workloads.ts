import { randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { BodyOf } from '../src/contract/endpoint.ts';
import type {
  ArticleCode,
  ArticleId,
  DeliveryNoteId,
  LocationCode,
  LocationId,
} from '../src/contract/ids.ts';
import type { scanPackageItem } from '../src/contract/paketinhalt.ts';
import type { moveArticle } from '../src/contract/umbuchung.ts';
import type { Database } from '../src/server/db/schema.ts';
import * as lookup from '../src/server/features/lookup/service.ts';
import * as paketinhalt from '../src/server/features/paketinhalt/service.ts';
import * as umbuchung from '../src/server/features/umbuchung/service.ts';
import { applyOnce, type Outcome, requestHash } from '../src/server/http/idempotency.ts';
import {
  type LargeSizes,
  largeArticleNummer,
  largeBelegnr,
  largeEan,
  largeLocationCode,
  largeSizes,
} from '../src/server/seed/large.ts';

/**
 * The benchmarked calls on the large warehouse (src/server/seed/large.ts). Each workload makes the next
 * request at random (or, for item scans, the next item still open), once as an HTTP request for the load
 * generator and once as the same service call straight on the database (the database floor).
 */
export interface Request {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  /** The same work without HTTP: the SQL the route issues, through the driver. */
  direct: (db: Kysely<Database>, userId: number) => Promise<unknown>;
}

export interface Workload {
  name: string;
  /** journal: the Leitstand's reads, measured at a few connections (a few shift leads, not 64 scanners). */
  kind: 'lookup' | 'write' | 'journal';
  next: () => Request;
  /** For work that runs out (items still to scan): how many requests are left. */
  remaining?: () => number;
}

export interface LargeIds {
  article0: number;
  location0: number;
  /** Open delivery notes' items, one entry per piece still to scan, in a shuffled order. */
  openItems: { noteId: number; belegnr: string; eu: number; versandart: string; nummer: string }[];
}

const int = (below: number) => Math.floor(Math.random() * below);

export async function readLargeIds(db: Kysely<Database>): Promise<LargeIds> {
  const ids = await sql<{ article0: number; location0: number }>`
    select (select id from articles where nummer = ${largeArticleNummer(1)}) as article0,
           (select id from locations where code = ${largeLocationCode(1)}) as location0`.execute(db);
  const first = ids.rows[0];
  if (!first?.article0 || !first.location0)
    throw new Error('the large warehouse is not seeded (npm run seed:large)');
  const { rows } = await sql<{
    id: number;
    belegnr: string;
    eu: boolean;
    versandart: string;
    nummer: string;
    open: number;
  }>`
    select d.id, d.belegnr, d.eu, d.versandart, a.nummer, (l.lsmenge - l.pemenge)::int as open
    from delivery_notes d join delivery_note_lines l on l.delivery_note_id = d.id
    join articles a on a.id = l.article_id
    where d.status = 'offen' and d.belegnr like 'LS5%' and l.pemenge < l.lsmenge`.execute(db);
  const openItems = rows.flatMap((r) =>
    Array.from({ length: r.open }, () => ({
      noteId: r.id,
      belegnr: r.belegnr,
      eu: r.eu ? 1 : 0,
      versandart: r.versandart,
      nummer: r.nummer,
    })),
  );
  for (let i = openItems.length - 1; i > 0; i--) {
    const j = int(i + 1);
    [openItems[i], openItems[j]] = [
      openItems[j] as (typeof openItems)[0],
      openItems[i] as (typeof openItems)[0],
    ];
  }
  return { article0: first.article0, location0: first.location0, openItems };
}

/** Stock row i of the large seed: article i % A on shelf (a·13 + k·4001) mod S, amount 1 + (i·7919) mod 200. */
function stockRow(ids: LargeIds, sizes: LargeSizes, i: number) {
  const shelves = sizes.locations - sizes.lhms;
  const a = i % sizes.articles;
  const k = Math.floor(i / sizes.articles);
  return {
    article: ids.article0 + a,
    location: (kk: number) => ids.location0 + ((a * 13 + kk * 4001) % shelves),
    k,
    amount: 1 + ((i * 7919) % 200),
  };
}

/**
 * The workloads for one phase: the database floor scans the first half of the open items, the HTTP run the
 * second, so neither finds a note the other has already packed.
 */
export function workloads(ids: LargeIds, scale: number, phase: 'floor' | 'http'): Workload[] {
  const sizes = largeSizes(scale);
  const SHELVES = sizes.locations - sizes.lhms;
  const half = Math.floor(ids.openItems.length / 2);
  const items = phase === 'floor' ? ids.openItems.slice(0, half) : ids.openItems.slice(half);
  let item = 0;
  return [
    {
      name: 'GET inventur/findarticle (nummer, EAN ± leading 0)',
      kind: 'lookup',
      next: () => {
        const n = 1 + int(sizes.articles);
        const ean = largeEan(n);
        const forms = [largeArticleNummer(n), ean, ean.startsWith('0') ? ean.slice(1) : `0${ean}`];
        const scanned = forms[int(3)] ?? ean;
        return {
          method: 'GET',
          path: `/api/inventur/findarticle/${scanned}`,
          direct: (db) => lookup.findArticle(db, scanned as ArticleCode),
        };
      },
    },
    {
      name: 'GET inventur/findlp',
      kind: 'lookup',
      next: () => {
        const code = largeLocationCode(1 + int(SHELVES));
        return {
          method: 'GET',
          path: `/api/inventur/findlp/${code}`,
          direct: (db) => lookup.findLp(db, code as LocationCode),
        };
      },
    },
    {
      name: 'GET umlagern/checklparticle',
      kind: 'lookup',
      next: () => {
        const row = stockRow(ids, sizes, int(sizes.stockRows));
        const lp = row.location(row.k);
        return {
          method: 'GET',
          path: `/api/umlagern/checklparticle/${lp}/${row.article}`,
          direct: (db) => umbuchung.checkLpArticle(db, lp as LocationId, row.article as ArticleId),
        };
      },
    },
    {
      name: 'GET packagecontent/{belegnr}',
      kind: 'lookup',
      next: () => {
        const belegnr = largeBelegnr(1 + int(sizes.deliveryNotes));
        return {
          method: 'GET',
          path: `/api/packagecontent/${belegnr}`,
          direct: (db) => paketinhalt.packageContent(db, belegnr),
        };
      },
    },
    {
      name: 'POST umbuchung/artikel/ (1 piece, own key)',
      kind: 'write',
      next: () => {
        // Only rows holding 100 or more: a run never empties one, so every move is valid.
        let row = stockRow(ids, sizes, int(sizes.stockRows));
        while (row.amount < 100) row = stockRow(ids, sizes, int(sizes.stockRows));
        const body: BodyOf<typeof moveArticle> = {
          from: row.location(row.k),
          to: row.location((row.k + 1) % 5),
          article: row.article,
          amount: 1,
        };
        const route = 'POST /api/umbuchung/artikel/';
        return {
          method: 'POST',
          path: '/api/umbuchung/artikel/',
          body,
          direct: (db, user) => {
            const key = randomUUID();
            return applyOnce(db, { key, userId: user, route, hash: requestHash(route, {}, body) }, (trx) =>
              umbuchung.moveArticle(trx, {
                from: body.from as LocationId,
                to: body.to as LocationId,
                articleId: body.article as ArticleId,
                amount: body.amount,
                userId: user,
                requestKey: key,
              }),
            ).then(failOnRefusal);
          },
        };
      },
    },
    {
      name: 'POST packagecontent/{itemNr} (next open item)',
      kind: 'write',
      remaining: () => items.length - item,
      next: () => {
        const open = items[item++];
        if (!open) throw new Error('no open delivery note items left');
        const body: BodyOf<typeof scanPackageItem> = {
          id: open.noteId,
          versandart: open.versandart,
          itemNr: open.nummer,
          belegnr: open.belegnr,
          eu: open.eu,
          user_id: 1, // the server takes the user from the login, not from here
          paketinhalt: [],
        };
        const route = 'POST /api/packagecontent/:itemNr';
        return {
          method: 'POST',
          path: `/api/packagecontent/${open.nummer}`,
          body,
          direct: (db, user) => {
            const key = randomUUID();
            return applyOnce(
              db,
              { key, userId: user, route, hash: requestHash(route, { itemNr: open.nummer }, body) },
              (trx) =>
                paketinhalt.scanPackageItem(trx, null, {
                  deliveryNoteId: open.noteId as DeliveryNoteId,
                  itemNr: open.nummer,
                  userId: user,
                  mayCheat: false,
                }),
            ).then(failOnRefusal);
          },
        };
      },
    },
  ];
}

/** A refusal is an answer for the exactly-once store, but an error for the bench: it did not book. */
function failOnRefusal(outcome: Outcome<unknown>): unknown {
  if (outcome.refused) throw new Error(`${outcome.status}: ${outcome.body.message}`);
  return outcome.body;
}
