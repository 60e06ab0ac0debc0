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

/** The most journal ids one step of the count reads; StepSize follows the measured time below it. */
const MOVEMENT_STEP_MAX = 50_000;
/** The most locations one step of the classing reads (with their stock rows, ~25 each on the large seed). */
const LOCATION_STEP_MAX = 2_000;

/** Computations running now, per database: a second one is refused (it would only write the same again). */
const running = new WeakSet<Db>();

/**
 * Each article's movements in the window, read a range of journal ids at a time — the table's own order, so
 * its pages are read one after the other. Read along the (at, id) index instead, the window's 290,000 rows
 * of the large seed lay scattered over its 2 million: 11–18 s of steps, one of them 420 ms on cold pages;
 * by id ranges the whole journal takes about 2 s. (It reads the journal's whole history, not only the
 * window: a row's `at` is not bound to its id — a seed or an import may write the past.) A slice's rows
 * are grouped by article in the database; only the sums come here.
 */
export async function movementsPerArticle(
  steps: Steps,
  db: Db,
  window: { since: Date; until: Date },
): Promise<Map<number, number>> {
  const counts = new Map<number, number>();
  const last = await steps.run(() =>
    db.selectFrom('movements').select(sql<number | null>`max(id)`.as('id')).executeTakeFirstOrThrow(),
  );
  // At least 10,000 ids a step (≈ 11 ms, STEP_TARGET_MS's double): a step costs ≈ 7 ms of its own here beside
  // its rows, so steps sized to 5 ms read the large seed's journal in 1,050 steps and 11 s of CPU (3,800
  // steps and 36 s once a cold page had cut them to 500 ids); at 10,000 ids, 213 steps and 3.4 s.
  const size = new StepSize({ max: MOVEMENT_STEP_MAX, start: 10_000, min: 10_000 });
  for (let after = 0; last.id !== null && after < last.id; ) {
    const from = after;
    const slice = await steps.run(() =>
      size.timed(async (ids) => {
        const { rows } = await sql<{ article_id: number; n: number }>`
          select m.article_id, count(*)::integer as n from movements m
          where m.id > ${from}::integer and m.id <= ${from + ids}::integer
            and m.at >= ${window.since.toISOString()}::timestamptz and m.at <= ${window.until.toISOString()}::timestamptz
            and m.kind not in (${sql.join(NOT_HANDLING.map((k) => sql`${k}`))})
          group by m.article_id`.execute(db);
        return { rows: ids, sums: rows };
      }),
    );
    for (const { article_id, n } of slice.sums) counts.set(article_id, (counts.get(article_id) ?? 0) + n);
    after = from + slice.rows;
  }
  return counts;
}

/** The articles' classes: who is A, B or C, and how many movements and articles each class has. */
export interface Classes {
  /** An article's class; an article without movements is C. */
  of(articleId: number): Klasse;
  /** The movements counted, all articles together. */
  movements: number;
  /** The articles with movements per class (those without any are C too, and not counted here). */
  articles: Record<Klasse, number>;
}

/**
 * The articles by their movements, most first (ties by id, so the same journal gives the same classes): an
 * article is A while the movements of the articles before it are less than ABC_SHARES.A % of all, B while
 * less than A + B %, else C. So A holds at least 80 % of the movements, A and B at least 95 %.
 *
 * Along that order the classes run A…, B…, C…: two boundaries say every article's class, so no map of
 * ~100,000 articles is built. The order is a typed array's numeric sort, not a comparator's: on the large
 * seed the comparator's sort, and after it the map, held the server's thread 110 ms and then 64 ms between two
 * steps, so every handheld waited (issue 37, found with the stall log). One key per article: fewer movements
 * sort later, ties by id (an id below 2^31, a count below 2^22: exact in a double).
 */
export function classify(counts: Map<number, number>): Classes {
  const keys = new Float64Array(counts.size);
  let movements = 0;
  let n = 0;
  for (const [articleId, moved] of counts) {
    if (moved <= 0) continue;
    movements += moved;
    keys[n++] = keyOf(articleId, moved);
  }
  const ranked = keys.subarray(0, n).sort();
  const articles: Record<Klasse, number> = { A: 0, B: 0, C: 0 };
  // The last key of each class; -Infinity: the class has no article.
  const lastOf: Record<'A' | 'B', number> = { A: Number.NEGATIVE_INFINITY, B: Number.NEGATIVE_INFINITY };
  let before = 0;
  for (const key of ranked) {
    const share = (100 * before) / movements;
    const klasse = share < ABC_SHARES.A ? 'A' : share < ABC_SHARES.A + ABC_SHARES.B ? 'B' : 'C';
    articles[klasse]++;
    if (klasse !== 'C') lastOf[klasse] = key;
    before += -Math.floor(key / ID_SPAN);
  }
  return {
    of(articleId) {
      const moved = counts.get(articleId) ?? 0;
      if (moved <= 0) return 'C';
      const key = keyOf(articleId, moved);
      return key <= lastOf.A ? 'A' : key <= lastOf.B ? 'B' : 'C';
    },
    movements,
    articles,
  };
}

/** Article ids are below this (PostgreSQL's integer), so a count times it plus an id stays one exact number. */
const ID_SPAN = 2 ** 31;

/** An article's place in the ranking: more movements first, then the lower id. */
const keyOf = (articleId: number, movements: number) => -movements * ID_SPAN + articleId;

const RANK: Record<Klasse, number> = { A: 0, B: 1, C: 2 };

/** The best class of a location's articles (an article without movements is C); null: it holds nothing. */
function bestOf(articles: number[], classes: Classes): Klasse | null {
  let best: Klasse | null = null;
  for (const article of articles) {
    const klasse = classes.of(article);
    if (best === null || RANK[klasse] < RANK[best]) best = klasse;
    if (best === 'A') break;
  }
  return best;
}

/**
 * Locations' classes written per commit. A commit of the embedded database costs ≈ 10 ms of its own (a
 * durable commit, decision 28) whatever it holds: written with each read slice, the commits were most of the
 * work (20,000 locations took 9 s of CPU in 1,900 steps); 1,000 rows make a write step of ≈ 15 ms.
 */
const LOCATION_WRITE_BATCH = 1_000;

/**
 * Every location's class: the best class of the articles it holds (stock above 0), none for a location
 * holding nothing. Read a slice of locations (by id) a step at a time — each with its articles, classed here
 * from the map — and written a batch of slices per step: each write replaces that id range's rows of
 * `location_abc` in one transaction, so a location that became empty loses its class, and the table is
 * never half-empty for the plans that read it.
 */
export async function classLocations(
  steps: Steps,
  db: Db,
  classes: Classes,
  computedAt: Date,
): Promise<Record<Klasse, number>> {
  const tally: Record<Klasse, number> = { A: 0, B: 0, C: 0 };
  const size = new StepSize({ max: LOCATION_STEP_MAX, start: 50 });
  let written = 0;
  let read = 0;
  let pending: { ids: number[]; classes: Klasse[] } = { ids: [], classes: [] };
  const write = async (upTo: number | null) => {
    const { ids, classes: classed } = pending;
    const from = written;
    pending = { ids: [], classes: [] };
    await steps.run(() =>
      db.transaction().execute(async (trx) => {
        let range = trx.deleteFrom('location_abc').where('location_id', '>', from);
        if (upTo !== null) range = range.where('location_id', '<=', upTo);
        await range.execute();
        if (ids.length > 0)
          await sql`insert into location_abc (location_id, abc_class, computed_at)
            select l, c, ${computedAt.toISOString()}::timestamptz
            from unnest(${ids}::integer[], ${classed}::text[]) as x(l, c)`.execute(trx);
      }),
    );
    if (upTo !== null) written = upTo;
  };
  for (;;) {
    const from = read;
    const slice = await steps.run(() =>
      size.timed(async (limit) => {
        // Each location's articles by its own index lookup. As a join, the planner hashed the whole stock
        // table (500,000 rows on the large seed) once a step asked for more than ~240 locations: a step of
        // 60 ms and more whatever its size, the last one of a run among them (issue 37, the stall log).
        const { rows } = await sql<{ id: number; articles: number[] }>`
          with w as (select l.id from locations l where l.id > ${from}::integer order by l.id limit ${limit}::integer)
          select w.id, array(select s.article_id from stock s where s.location_id = w.id and s.amount > 0) as articles
          from w order by w.id`.execute(db);
        return { rows: rows.length, locations: rows, complete: rows.length < limit };
      }),
    );
    for (const { id, articles } of slice.locations) {
      const klasse = bestOf(articles, classes);
      if (klasse === null) continue;
      pending.ids.push(id);
      pending.classes.push(klasse);
      tally[klasse]++;
    }
    const last = slice.locations.at(-1)?.id;
    if (last !== undefined) read = last;
    // The last write also takes away classes above the last location (none normally).
    if (slice.complete) {
      await write(null);
      break;
    }
    if (pending.ids.length >= LOCATION_WRITE_BATCH) await write(read);
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
    const articles = { ...classes.articles };
    // Every other article with stock or not is C: counted as the articles there are, less those classed A/B.
    const all = await steps.run(() =>
      db.selectFrom('articles').select(sql<number>`count(*)::integer`.as('n')).executeTakeFirstOrThrow(),
    );
    articles.C = all.n - articles.A - articles.B;
    const locations = await classLocations(steps, db, classes, now);
    const { movements } = classes;
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
