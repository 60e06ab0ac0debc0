import { type Kysely, type RawBuilder, sql } from 'kysely';
import {
  type AbdeckungZahlen,
  inventurAuswertungTexts as T,
} from '../../../../contract/leitstand/inventur-auswertung.ts';
import type { Database } from '../../../db/schema.ts';
import { StepSize, type Steps } from '../../../http/back-office.ts';

type Db = Kysely<Database>;

/** A year as instants: from its first moment to the next year's, in the site's time zone. */
export interface Period {
  from: string;
  to: string;
}

/** The year's bounds in the site's time zone (the database converts: it knows the zone's rules). */
export async function yearPeriod(db: Db, year: number, timeZone: string): Promise<Period> {
  const { rows } = await sql<Period>`
    select ((${`${year}-01-01`}::date)::timestamp at time zone ${timeZone}::text)::text as "from",
           ((${`${year + 1}-01-01`}::date)::timestamp at time zone ${timeZone}::text)::text as "to"`.execute(
    db,
  );
  const period = rows[0];
  if (!period) throw new Error('year bounds: no row');
  return period;
}

/** The year of an instant in the site's time zone. */
export function yearOf(now: Date, timeZone: string): number {
  return Number(new Intl.DateTimeFormat('en', { timeZone, year: 'numeric' }).format(now));
}

/**
 * A count task's posting time: the lead's 'Buchen', or 'Fertig' for one posted at once within tolerance —
 * the expression of the index count_tasks_posted_idx (migration 2026-11-28-09), so the planner uses it.
 */
export const postedAt = (t: string): RawBuilder<Date> =>
  sql`coalesce(${sql.ref(`${t}.approved_at`)}, ${sql.ref(`${t}.finished_at`)})`;

/** A posted count task in the period, as `t`. */
const postedIn = (period: Period, t = 't'): RawBuilder<boolean> =>
  sql`${sql.ref(`${t}.status`)} = 'gebucht' and ${postedAt(t)} >= ${period.from}::timestamptz and ${postedAt(t)} < ${period.to}::timestamptz`;

/**
 * The aisle of a location: its code's first segment ('A-01-02-03' → 'A'); the load carriers (LHM, no aisle
 * of their own) together under one name.
 */
const aisleOf = (l: string): RawBuilder<string> =>
  sql`case when ${sql.ref(`${l}.is_lhm`)} then ${T.lhmGang}::text else split_part(${sql.ref(`${l}.code`)}, '-', 1) end`;

/** The most locations one step reads (with their stock rows and the year's counts on them). */
const LOCATION_STEP_MAX = 2_000;

const empty = (): AbdeckungZahlen => ({
  lagerplaetze: 0,
  lagerplaetzeGezaehlt: 0,
  bestandspositionen: 0,
  bestandspositionenGezaehlt: 0,
  zaehlpositionen: 0,
  zaehlpositionenOhneDifferenz: 0,
});

interface AisleSlice {
  gang: string;
  lagerplaetze: number;
  lagerplaetze_gezaehlt: number;
  bestandspositionen: number;
  bestandspositionen_gezaehlt: number;
  zaehlpositionen: number;
  zaehlpositionen_ohne_differenz: number;
}

/**
 * One slice of locations (by id) with its figures per aisle: the year's counts on them are the articles of
 * their posted count tasks (count_lines: every article counted or in stock there at 'Fertig', with its book
 * stock) and their free Inventur counts (inventory_counts: counted and the stock before).
 */
function locationSlice(period: Period, after: number, limit: number) {
  return sql<
    AisleSlice & {
      read: number;
      last: number | null;
      stock_articles: number[] | null;
      counted_articles: number[] | null;
    }
  >`
    with w as (
      select l.id, ${aisleOf('l')} as gang from locations l where l.id > ${after}::integer order by l.id
      limit ${limit}::integer),
    tasks as (select t.id, t.location_id from w join count_tasks t on t.location_id = w.id and ${postedIn(period)}),
    counted as (
      select t.location_id, cl.article_id, cl.counted = coalesce(cl.book, 0) as exact
      from tasks t join count_lines cl on cl.task_id = t.id
      union all
      select ic.location_id, ic.article_id, ic.counted = ic.previous
      from w join inventory_counts ic on ic.location_id = w.id
        and ic.at >= ${period.from}::timestamptz and ic.at < ${period.to}::timestamptz),
    counted_locations as (select location_id from tasks union select location_id from counted),
    counted_pairs as (select location_id, article_id from counted group by location_id, article_id),
    pairs as (
      select s.location_id, s.article_id from w join stock s on s.location_id = w.id and s.amount > 0
      group by s.location_id, s.article_id),
    positions as (
      select p.location_id, count(*) as n, count(cp.article_id) as counted
      from pairs p
      left join counted_pairs cp on cp.location_id = p.location_id and cp.article_id = p.article_id
      group by p.location_id),
    counts as (
      select location_id, count(*) as n, count(*) filter (where exact) as exact from counted group by location_id)
    select w.gang,
      count(*)::integer as lagerplaetze,
      count(cl.location_id)::integer as lagerplaetze_gezaehlt,
      coalesce(sum(p.n), 0)::integer as bestandspositionen,
      coalesce(sum(p.counted), 0)::integer as bestandspositionen_gezaehlt,
      coalesce(sum(c.n), 0)::integer as zaehlpositionen,
      coalesce(sum(c.exact), 0)::integer as zaehlpositionen_ohne_differenz,
      (select count(*) from w)::integer as read,
      (select max(id) from w) as last,
      (select array_agg(distinct article_id) from pairs) as stock_articles,
      (select array_agg(distinct article_id) from counted) as counted_articles
    from w
    left join counted_locations cl on cl.location_id = w.id
    left join positions p on p.location_id = w.id
    left join counts c on c.location_id = w.id
    group by w.gang`;
}

/** The figures of one group (an aisle, all) plus a slice's. */
function add(into: AbdeckungZahlen, row: AisleSlice): void {
  into.lagerplaetze += row.lagerplaetze;
  into.lagerplaetzeGezaehlt += row.lagerplaetze_gezaehlt;
  into.bestandspositionen += row.bestandspositionen;
  into.bestandspositionenGezaehlt += row.bestandspositionen_gezaehlt;
  into.zaehlpositionen += row.zaehlpositionen;
  into.zaehlpositionenOhneDifferenz += row.zaehlpositionen_ohne_differenz;
}

/**
 * Abdeckung of a year: per aisle and overall, the locations counted, the stock positions counted, the counted
 * positions without a difference; overall also the articles. In steps behind the floor (DESIGN §10): the
 * large warehouse has 20,000 locations, 500,000 stock rows and 100,000 articles, and a count every location
 * once a year adds as many counted positions.
 */
export async function coverage(steps: Steps, db: Db, year: number, timeZone: string) {
  const period = await steps.run(() => yearPeriod(db, year, timeZone));
  const aisles = new Map<string, AbdeckungZahlen>();
  const gesamt = empty();
  // The articles are no sum of the slices' (an article lies in many): their ids are gathered here, 100,000
  // at most on the large seed — read along the articles' index instead, they cost 4.6 s of CPU on their own.
  const inStock = new Set<number>();
  const counted = new Set<number>();
  const size = new StepSize({ max: LOCATION_STEP_MAX, start: 50 });
  let after = 0;
  for (;;) {
    const slice = await steps.run(() =>
      size.timed(async (limit) => {
        const { rows } = await locationSlice(period, after, limit).execute(db);
        const read = rows[0]?.read ?? 0;
        return { rows: read, groups: rows, last: rows[0]?.last ?? null, complete: read < limit };
      }),
    );
    for (const article of slice.groups[0]?.stock_articles ?? []) inStock.add(article);
    for (const article of slice.groups[0]?.counted_articles ?? []) counted.add(article);
    for (const row of slice.groups) {
      const aisle = aisles.get(row.gang) ?? empty();
      add(aisle, row);
      aisles.set(row.gang, aisle);
      add(gesamt, row);
    }
    if (slice.complete || slice.last === null) break;
    after = slice.last;
  }
  let artikelGezaehlt = 0;
  for (const article of counted) if (inStock.has(article)) artikelGezaehlt++;
  const articles = { artikel: inStock.size, artikelGezaehlt };
  const gaenge = [...aisles.entries()]
    .sort(([x], [y]) => (x === T.lhmGang ? 1 : y === T.lhmGang ? -1 : x.localeCompare(y, 'de')))
    .map(([gang, figures]) => ({ gang, ...figures }));
  return { jahr: year, gesamt: { ...gesamt, ...articles }, gaenge };
}
