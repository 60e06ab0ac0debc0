import { type Kysely, sql } from 'kysely';
import { journalQuery } from '../src/contract/leitstand/bestand.ts';
import type { Database } from '../src/server/db/schema.ts';
import * as journal from '../src/server/features/leitstand/bestand/journal.ts';
import * as bestand from '../src/server/features/leitstand/bestand/service.ts';
import { directSteps } from '../src/server/http/back-office.ts';
import {
  type LargeSizes,
  largeArticleNummer,
  largeLocationCode,
  largeSizes,
} from '../src/server/seed/large.ts';
import type { LargeIds, Request, Workload } from './workloads.ts';

/**
 * The Leitstand's movement journal on the large warehouse (issue 20.3): one page (50 rows, newest first) per
 * filter, alone and combined, and a page deep in the journal (a cursor months back) — over HTTP and
 * straight through the service, as the other workloads. The large seed's journal has 2 M rows, but no user
 * and two kinds only; `addJournalBookings` adds what the Leitstand filters by.
 */
export const JOURNAL_TIME_ZONE = 'Europe/Berlin';
const PAGE = 50;
const DAY_MS = 86_400_000;

/**
 * Recent bookings by the bench's users in four kinds over the last 90 days — pairs there and back between
 * two shelves of the article, so the books still balance — in one INSERT … SELECT generate_series; and as
 * many plain rows as the journal lacks of `minimum` (2 M at full scale), pairs too. Then ANALYZE.
 */
export async function addJournalBookings(
  db: Kysely<Database>,
  options: { scale: number; userIds: number[]; ids: LargeIds },
): Promise<{ rows: number; added: number }> {
  const sizes = largeSizes(options.scale);
  const shelves = sizes.locations - sizes.lhms;
  const before = await sql<{ n: number }>`select count(*)::int as n from movements`.execute(db);
  const minimum = Math.round(2_000_000 * options.scale);
  const recentPairs = Math.max(10, Math.round(100_000 * options.scale));
  const missingPairs = Math.max(0, Math.ceil((minimum - (before.rows[0]?.n ?? 0)) / 2));
  const pairs = recentPairs + missingPairs;
  // The bench's users come from one INSERT, so their ids follow each other.
  const firstUser = Math.min(...options.userIds);
  const users = options.userIds.length;
  if (Math.max(...options.userIds) - firstUser + 1 !== users) throw new Error('bench user ids have gaps');
  await sql`
    insert into movements (kind, article_id, from_location_id, to_location_id, amount, user_id, at)
    select k.kind, ${options.ids.article0}::integer + n % ${sizes.articles}::integer, m.a, m.b, 1 + n % 9,
           ${firstUser}::integer + n % ${users}::integer,
           now() - ((n::bigint * 7919) % (90 * 86400)) * interval '1 second'
    from generate_series(0, ${pairs - 1}::integer) n
    cross join lateral (select (array['umbuchung', 'inventur', 'korrektur', 'wmsretoure'])[1 + (n / 7) % 4] as kind) k
    cross join lateral (
      select ${options.ids.location0}::integer + (n * 13) % ${shelves}::integer as x,
             ${options.ids.location0}::integer + (n * 13 + 1 + n % 97) % ${shelves}::integer as y
    ) l
    cross join lateral (values (l.x, l.y), (l.y, l.x)) m(a, b)`.execute(db);
  await sql`analyze movements`.execute(db);
  const after = await sql<{ n: number }>`select count(*)::int as n from movements`.execute(db);
  return { rows: after.rows[0]?.n ?? 0, added: pairs * 2 };
}

const int = (below: number) => Math.floor(Math.random() * below);

/** The journal workloads; `usernames` are the bench users' (bench1 …), who booked the recent rows. */
export function journalWorkloads(scale: number, usernames: string[]): Workload[] {
  const sizes: LargeSizes = largeSizes(scale);
  const shelves = sizes.locations - sizes.lhms;
  const article = () => largeArticleNummer(1 + int(sizes.articles));
  const shelf = () => largeLocationCode(1 + int(shelves));
  const user = () => usernames[int(usernames.length)] ?? 'bench1';
  /** A day of the last 700 as local dates: [von, bis] of one day. */
  const day = () => {
    const date = new Date(Date.now() - (1 + int(700)) * DAY_MS).toISOString().slice(0, 10);
    return { von: date, bis: date };
  };
  /** A cursor months back: the page after a random time of the last two years. */
  const deep = () =>
    journal.encodeCursor({
      at: new Date(Date.now() - (30 + int(700)) * DAY_MS).toISOString().replace('Z', '000Z'),
      id: 2_147_483_647,
    });
  const page = (name: string, query: () => Record<string, string>): Workload => ({
    name: `GET leitstand/journal ${name}`,
    kind: 'journal',
    next: (): Request => {
      const q = query();
      return {
        method: 'GET',
        path: `/api/leitstand/journal?${new URLSearchParams({ ...q, limit: String(PAGE) })}`,
        direct: (db) => journalDirect(db, q),
      };
    },
  });
  return [
    page('(no filter)', () => ({})),
    page('?artikel', () => ({ artikel: article() })),
    page('?lagerplatz', () => ({ lagerplatz: shelf() })),
    page('?benutzer', () => ({ benutzer: user() })),
    page('?art (a common kind)', () => ({ art: 'umlagerung' })),
    page('?art (a rare kind)', () => ({ art: 'inventur' })),
    page('?von&bis (one day)', day),
    page('?artikel&lagerplatz (one of its shelves)', () => {
      // Article n lies on shelves ((n − 1)·13 + k·4001) mod S, k < 5 (src/server/seed/large.ts).
      const n = 1 + int(sizes.articles);
      const k = int(Math.max(1, Math.min(5, Math.floor(sizes.stockRows / sizes.articles))));
      return {
        artikel: largeArticleNummer(n),
        lagerplatz: largeLocationCode(1 + (((n - 1) * 13 + k * 4001) % shelves)),
      };
    }),
    page('?benutzer&art', () => ({ benutzer: user(), art: 'korrektur' })),
    page('?lagerplatz&von&bis', () => ({ lagerplatz: shelf(), ...day() })),
    page('?benutzer&art&von&bis', () => ({ benutzer: user(), art: 'umbuchung', ...day() })),
    page('deep (cursor months back)', () => ({ cursor: deep() })),
    {
      name: 'GET leitstand/bestand/artikel (part of a name)',
      kind: 'journal',
      next: () => {
        const q = `Artikel ${1 + int(sizes.articles)} `;
        return {
          method: 'GET',
          path: `/api/leitstand/bestand/artikel?q=${encodeURIComponent(q)}`,
          direct: (db) => bestand.bestandArtikel(directSteps, db, q),
        };
      },
    },
  ];
}

/** What the journal route does, without HTTP. */
async function journalDirect(db: Kysely<Database>, q: Record<string, string>) {
  const query = journalQuery.parse(q);
  const filter = await journal.journalFilter(db, query, JOURNAL_TIME_ZONE);
  const after = query.cursor ? journal.decodeCursor(query.cursor) : null;
  return journal.journalPage(db, filter, after, PAGE);
}

/**
 * The indexes the plan of one request of a journal workload reads (EXPLAIN on the large warehouse), and
 * whether it reads the whole table anywhere: the proof that a filter has its index at 2 M rows too.
 */
export async function journalPlan(db: Kysely<Database>, workload: Workload): Promise<string> {
  const request = workload.next();
  const url = new URL(request.path, 'http://x');
  if (!url.pathname.endsWith('/journal')) return '';
  const q = journalQuery.parse(Object.fromEntries(url.searchParams));
  const filter = await journal.journalFilter(db, q, JOURNAL_TIME_ZONE);
  const after = q.cursor ? journal.decodeCursor(q.cursor) : null;
  const query = journal.journalPageQuery(filter, after, PAGE + 1).compile(db);
  const { rows } = await db.executeQuery<{ 'QUERY PLAN': string }>({ ...query, sql: `explain ${query.sql}` });
  const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
  const indexes = [...new Set([...plan.matchAll(/(?:using|on) (movements_\w+)/g)].map((m) => m[1]))];
  const seq = /Seq Scan on movements/.test(plan) ? ', **reads the whole table**' : '';
  const bitmap = /Bitmap Index Scan/.test(plan) ? ' (bitmap)' : '';
  return `plan: ${indexes.join(' + ') || 'no index'}${bitmap}${seq}`;
}
