import { type Kysely, sql } from 'kysely';
import {
  ABC_DAYS,
  ABC_SHARES,
  inventurAuswertungTexts as T,
} from '../../../../contract/leitstand/inventur-auswertung.ts';
import type { Database } from '../../../db/schema.ts';
import { conflict } from '../../../domain/errors.ts';
import { StepSize, type Steps } from '../../../http/back-office.ts';

type Db = Kysely<Database>;
type Klasse = 'A' | 'B' | 'C';

/**
 * Journal rows that are no handling of goods: a count or a correction (a count would make a location counted
 * often count more often still), an import's or the first stock's rows. Every other kind is one movement.
 */
const NOT_HANDLING = ['inventur', 'korrektur', 'import', 'seed'] as const;

/** Where the last computation's summary is kept (the page's 'Zuletzt berechnet' and the articles per class). */
export const ABC_RUN_KEY = 'inventur.abc.lastRun';

/** The summary kept under ABC_RUN_KEY. */
export interface AbcRun {
  at: string;
  userId: number;
  movements: number;
  articles: Record<Klasse, number>;
  locations: Record<Klasse, number>;
}

/** The most journal rows one step of the count reads; StepSize follows the measured time below it. */
const MOVEMENT_STEP_MAX = 5_000;
/** The most locations one step of the classing reads (with their stock rows, ~25 each on the large seed). */
const LOCATION_STEP_MAX = 1_000;

/** Computations running now, per database: a second one is refused (it would only write the same again). */
const running = new WeakSet<Db>();

/**
 * Each article's movements in the window, read along the journal's (at, id) index a slice at a time, oldest
 * first: only the window's rows are read, however long the journal's history. A slice's rows are grouped by
 * article in the database; only the sums come here.
 */
async function movementsPerArticle(
  steps: Steps,
  db: Db,
  window: { since: Date; until: Date },
): Promise<Map<number, number>> {
  const counts = new Map<number, number>();
  // The first slice also plans its statement and reads cold pages: it starts small (decision 31).
  const size = new StepSize({ max: MOVEMENT_STEP_MAX, start: 100 });
  let after = { at: window.since.toISOString(), id: 0 };
  for (;;) {
    const slice = await steps.run(() =>
      size.timed(async (limit) => {
        const { rows } = await sql<Slice>`
          with w as (
            select m.id, m.at, m.article_id, m.kind from movements m
            where (m.at, m.id) > (${after.at}::timestamptz, ${after.id}::integer)
              and m.at <= ${window.until.toISOString()}::timestamptz
            order by m.at, m.id
            limit ${limit}::integer),
          last as (select w.at::text as at, w.id from w order by w.at desc, w.id desc limit 1),
          sums as (
            select w.article_id, count(*)::integer as n from w
            where w.kind not in (${sql.join(NOT_HANDLING.map((k) => sql`${k}`))})
            group by w.article_id)
          select s.article_id, s.n, (select count(*)::integer from w) as read,
                 (select at from last) as last_at, (select id from last) as last_id
          from (select 1) one left join sums s on true`.execute(db);
        const read = rows[0]?.read ?? 0;
        return { rows: read, sums: rows, last: rows[0], complete: read < limit };
      }),
    );
    for (const { article_id, n } of slice.sums)
      if (article_id !== null && n !== null) counts.set(article_id, (counts.get(article_id) ?? 0) + n);
    if (slice.complete || slice.last?.last_at == null || slice.last.last_id == null) break;
    after = { at: slice.last.last_at, id: slice.last.last_id };
  }
  return counts;
}

/** One slice of the count: a row per article (none: one row of nulls), each with the slice's figures. */
interface Slice {
  article_id: number | null;
  n: number | null;
  read: number;
  last_at: string | null;
  last_id: number | null;
}

/**
 * The articles by their movements, most first (ties by id, so the same journal gives the same classes): an
 * article is A while the movements of the articles before it are less than ABC_SHARES.A % of all, B while
 * less than A + B %, else C. So A holds at least 80 % of the movements, A and B at least 95 %. Articles
 * without a movement are not in the map: C.
 */
export function classify(counts: Map<number, number>): Map<number, Klasse> {
  const total = [...counts.values()].reduce((sum, n) => sum + n, 0);
  const ranked = [...counts.entries()].filter(([, n]) => n > 0).sort((x, y) => y[1] - x[1] || x[0] - y[0]);
  const classes = new Map<number, Klasse>();
  let before = 0;
  for (const [articleId, n] of ranked) {
    const share = (100 * before) / total;
    classes.set(articleId, share < ABC_SHARES.A ? 'A' : share < ABC_SHARES.A + ABC_SHARES.B ? 'B' : 'C');
    before += n;
  }
  return classes;
}

const RANK: Record<Klasse, number> = { A: 0, B: 1, C: 2 };

/**
 * Every location's class, a slice of locations (by id) at a time: the best class of the articles it holds
 * (stock above 0; an article without movements is C), none for a location holding nothing. Each slice
 * replaces that id range's rows of `location_abc` in one transaction, so a location that became empty loses
 * its class, and the table is never half-empty for the plans that read it.
 */
async function classLocations(
  steps: Steps,
  db: Db,
  classes: Map<number, Klasse>,
  computedAt: Date,
): Promise<Record<Klasse, number>> {
  const tally: Record<Klasse, number> = { A: 0, B: 0, C: 0 };
  const size = new StepSize({ max: LOCATION_STEP_MAX, start: 20 });
  let after = 0;
  for (;;) {
    const slice = await steps.run(() =>
      size.timed(async (limit) => {
        const { rows } = await sql<{ id: number; article_id: number | null }>`
          with w as (select l.id from locations l where l.id > ${after}::integer order by l.id limit ${limit}::integer)
          select w.id, s.article_id from w
          left join stock s on s.location_id = w.id and s.amount > 0
          order by w.id`.execute(db);
        const best = new Map<number, Klasse | null>();
        for (const { id, article_id } of rows) {
          const was = best.get(id) ?? null;
          const now = article_id === null ? null : (classes.get(article_id) ?? 'C');
          best.set(id, was === null ? now : now === null || RANK[was] <= RANK[now] ? was : now);
        }
        const ids = [...best.keys()];
        const last = ids.length === 0 ? null : Math.max(...ids);
        const classed = [...best.entries()].filter((e): e is [number, Klasse] => e[1] !== null);
        if (last !== null)
          await db.transaction().execute(async (trx) => {
            await trx
              .deleteFrom('location_abc')
              .where('location_id', '>', after)
              .where('location_id', '<=', last)
              .execute();
            if (classed.length > 0)
              await trx
                .insertInto('location_abc')
                .values(
                  classed.map(([location_id, abc_class]) => ({
                    location_id,
                    abc_class,
                    computed_at: computedAt,
                  })),
                )
                .execute();
          });
        return { rows: rows.length, locations: ids.length, last, classed };
      }),
    );
    for (const [, klasse] of slice.classed) tally[klasse]++;
    if (slice.last === null) {
      // Past the last location: a class left over for a location id above it goes (none normally).
      await steps.run(() => db.deleteFrom('location_abc').where('location_id', '>', after).execute());
      break;
    }
    after = slice.last;
  }
  return tally;
}

/**
 * 'ABC-Klassen berechnen' in steps behind the floor (DESIGN §10): the journal's last ABC_DAYS days counted per
 * article, the articles split by ABC_SHARES, each location given its best article's class. Taken as one
 * statement, counting alone held the embedded database 325–600 ms on the large seed (290,000 rows in the
 * window): every handheld would have waited. What the page shows of the run is kept in `settings`.
 */
export async function computeAbc(
  steps: Steps,
  db: Db,
  userId: number,
  now: Date,
): Promise<{ movements: number; articles: Record<Klasse, number>; locations: Record<Klasse, number> }> {
  if (running.has(db)) throw conflict(T.running);
  running.add(db);
  try {
    const since = new Date(now.getTime() - ABC_DAYS * 86_400_000);
    const counts = await movementsPerArticle(steps, db, { since, until: now });
    const classes = classify(counts);
    const articles: Record<Klasse, number> = { A: 0, B: 0, C: 0 };
    for (const klasse of classes.values()) articles[klasse]++;
    // Every other article with stock or not is C: counted as the articles there are, less those classed A/B.
    const all = await steps.run(() =>
      db.selectFrom('articles').select(sql<number>`count(*)::integer`.as('n')).executeTakeFirstOrThrow(),
    );
    articles.C = all.n - articles.A - articles.B;
    const locations = await classLocations(steps, db, classes, now);
    const movements = [...counts.values()].reduce((sum, n) => sum + n, 0);
    const run: AbcRun = { at: now.toISOString(), userId, movements, articles, locations };
    await steps.run(() =>
      db
        .insertInto('settings')
        .values({ key: ABC_RUN_KEY, value: JSON.stringify(run) })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value: JSON.stringify(run) }))
        .execute(),
    );
    return { movements, articles, locations };
  } finally {
    running.delete(db);
  }
}
