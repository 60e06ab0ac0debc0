import { type Kysely, sql } from 'kysely';
import {
  type DifferenzArtikel,
  type DifferenzRow,
  STALE_DAYS,
  inventurLeitstandTexts as T,
  type TaskStatus,
  type VeraltetRow,
} from '../../../../contract/leitstand/inventur.ts';
import type { Database } from '../../../db/schema.ts';
import { orderRecount, postCount } from '../../../domain/count-tasks.ts';
import { conflict, notFound } from '../../../domain/errors.ts';
import type { Steps } from '../../../http/back-office.ts';
import { recordAudit } from '../../../repositories/audit.repository.ts';
import { activeUser, type Change } from './plans.ts';

type Db = Kysely<Database>;

/** At most this many waiting differences are listed (the oldest first: they wait longest). */
export const DIFFERENCES_MAX = 200;

interface CountRow {
  head: number;
  depth: number;
  id: number;
  status: TaskStatus;
  counted_by: number | null;
  counter: string | null;
  finished_at: string | null;
}

interface LineRow {
  task_id: number;
  article_id: number;
  nummer: string;
  name: string;
  counted: number;
  book: number | null;
}

const iso = (at: string | null) => (at === null ? null : new Date(at).toISOString());

/** Difference in percent of the book stock, one decimal; none when the book stock is 0. */
export function percentOf(difference: number, book: number): number | null {
  return book === 0 ? null : Math.round((difference / book) * 1000) / 10;
}

/**
 * Each task of `heads` with the counts its recount chain holds (`recount_of`, back to the first count):
 * depth 0 is the task itself. One statement for all of them.
 */
async function chainsOf(db: Db, heads: number[]): Promise<CountRow[]> {
  if (heads.length === 0) return [];
  const { rows } = await sql<CountRow>`
    with recursive chain (head, depth, id, recount_of) as (
      select t.id, 0, t.id, t.recount_of from count_tasks t
      where t.id in (${sql.join(heads.map((h) => sql`${h}::integer`))})
      union all
      select c.head, c.depth + 1, p.id, p.recount_of from chain c join count_tasks p on p.id = c.recount_of)
    select c.head, c.depth, t.id, t.status, t.counted_by, u.name as counter, t.finished_at::text as finished_at
    from chain c join count_tasks t on t.id = c.id left join users u on u.id = t.counted_by
    order by c.head, c.depth desc`.execute(db);
  return rows;
}

async function linesOf(db: Db, taskIds: number[]): Promise<LineRow[]> {
  if (taskIds.length === 0) return [];
  return db
    .selectFrom('count_lines as c')
    .innerJoin('articles as a', 'a.id', 'c.article_id')
    .select(['c.task_id', 'c.article_id', 'a.nummer', 'a.name', 'c.counted', 'c.book'])
    .where('c.task_id', 'in', taskIds)
    .orderBy('a.nummer')
    .execute();
}

/** The articles of a waiting count with counted, book stock, difference and the chain's earlier counts. */
function articlesOf(head: number, earlier: CountRow[], lines: LineRow[]): DifferenzArtikel[] {
  return lines
    .filter((line) => line.task_id === head)
    .map((line) => {
      const book = line.book ?? 0;
      const difference = line.counted - book;
      return {
        artikelId: line.article_id,
        nummer: line.nummer,
        name: line.name,
        gezaehlt: line.counted,
        buchbestand: book,
        differenz: difference,
        prozent: percentOf(difference, book),
        // A finished count that did not find the article counted none of it.
        frueher: earlier.map(
          (count) =>
            lines.find((l) => l.task_id === count.id && l.article_id === line.article_id)?.counted ?? 0,
        ),
      };
    });
}

/**
 * The counts waiting for a lead's decision (status 'wartet'), oldest first, each with its articles and its
 * recount chain; and the stale counts of the last STALE_DAYS days with their recount. Read at every live
 * refresh of the page (a count arriving on a handheld is announced): a step per statement.
 */
export async function differences(steps: Steps, db: Db, now: Date) {
  const waiting = await steps.run(() =>
    db
      .selectFrom('count_tasks as t')
      .innerJoin('locations as l', 'l.id', 't.location_id')
      .select(['t.id', 'l.code'])
      .where('t.status', '=', 'wartet')
      .orderBy('t.finished_at')
      .orderBy('t.id')
      .limit(DIFFERENCES_MAX)
      .execute(),
  );
  const chains = await steps.run(() =>
    chainsOf(
      db,
      waiting.map((w) => w.id),
    ),
  );
  const lines = await steps.run(() =>
    linesOf(
      db,
      chains.map((c) => c.id),
    ),
  );
  const rows: DifferenzRow[] = waiting.map((w) => {
    const chain = chains.filter((c) => c.head === w.id);
    const self = chain.find((c) => c.depth === 0);
    const earlier = chain.filter((c) => c.depth > 0 && c.counted_by !== null);
    return {
      id: w.id,
      lagerplatz: w.code,
      gezaehltVon: self?.counter ?? null,
      gezaehltAm: iso(self?.finished_at ?? null),
      frueher: earlier.map((c) => ({
        auftragId: c.id,
        status: c.status,
        gezaehltVon: c.counter,
        gezaehltAm: iso(c.finished_at),
      })),
      artikel: articlesOf(w.id, earlier, lines),
      gezaehltVonIds: [...new Set(chain.flatMap((c) => (c.counted_by === null ? [] : [c.counted_by])))],
    };
  });
  const since = new Date(now.getTime() - STALE_DAYS * 86_400_000).toISOString();
  const stale = await steps.run(() =>
    sql<{
      id: number;
      code: string;
      counter: string | null;
      finished_at: string | null;
      recount_id: number | null;
      recount_status: TaskStatus | null;
    }>`
      select t.id, l.code, u.name as counter, t.finished_at::text as finished_at,
             r.id as recount_id, r.status as recount_status
      from count_tasks t
      join locations l on l.id = t.location_id
      left join users u on u.id = t.counted_by
      left join lateral (select r.id, r.status from count_tasks r where r.recount_of = t.id
                         order by r.id desc limit 1) r on true
      where t.status = 'veraltet' and t.finished_at >= ${since}::timestamptz
      order by t.finished_at desc, t.id desc
      limit ${DIFFERENCES_MAX}::integer`.execute(db),
  );
  const veraltet: VeraltetRow[] = stale.rows.map((r) => ({
    id: r.id,
    lagerplatz: r.code,
    gezaehltVon: r.counter,
    gezaehltAm: iso(r.finished_at),
    nachzaehlung:
      r.recount_id === null || r.recount_status === null
        ? null
        : { id: r.recount_id, status: r.recount_status },
  }));
  return { differenzen: rows, veraltet };
}

/** What 'Buchen' and 'Nachzählen' read besides the task: the app's clock and the site's zone (today). */
export interface DecisionClock {
  now: Date;
  timeZone: string;
}

/** A task's location code; 404 in German when there is no such task. */
async function codeOf(db: Db, id: number): Promise<string> {
  const row = await db
    .selectFrom('count_tasks as t')
    .innerJoin('locations as l', 'l.id', 't.location_id')
    .select('l.code')
    .where('t.id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound(T.taskNotFound);
  return row.code;
}

/**
 * 'Buchen': the waiting count becomes the stock, journalled as kind inventur, in the call's one transaction
 * with its Protokoll row (postCount: the task row's lock makes a second lead wait, then 409 'bereits
 * gebucht'). Booked on the location since the count: nothing is posted, a recount is due (said so).
 */
export async function postDifference(db: Db, id: number, change: Change, clock: DecisionClock) {
  const code = await codeOf(db, id);
  const lines = await linesOf(db, [id]);
  const outcome = await postCount(db, id, change.userId, { requestKey: change.requestKey, ...clock });
  await recordAudit(db, {
    userId: change.userId,
    action: 'countDifference.post',
    subject: code,
    detail: {
      zaehlauftrag: id,
      artikel: lines.map((l) => `${l.nummer}: ${l.book ?? 0} → ${l.counted}`).join(', ') || T.platzLeer,
      ergebnis: T.statuses[outcome],
    },
    requestKey: change.requestKey,
  });
  return { success: true as const, message: outcome === 'gebucht' ? T.posted(code) : T.postedStale(code) };
}

/**
 * 'Nachzählen': the waiting count is not posted; a recount due today goes to anyone but its counter
 * (orderRecount), or to `userId` when named — refused (409) for one who counted this location in the chain.
 */
export async function recountDifference(
  db: Db,
  id: number,
  userId: number | null,
  change: Change,
  clock: DecisionClock,
) {
  const code = await codeOf(db, id);
  const user = userId === null ? null : await activeUser(db, userId);
  if (user !== null) {
    const counted = (await chainsOf(db, [id])).some((c) => c.counted_by === user.id);
    if (counted) throw conflict(T.notForUser(user.name));
  }
  const { recountTaskId } = await orderRecount(db, id, change.userId, clock);
  if (user !== null)
    await db
      .updateTable('count_tasks')
      .set({ assigned_user_id: user.id })
      .where('id', '=', recountTaskId)
      .execute();
  await recordAudit(db, {
    userId: change.userId,
    action: 'countDifference.recount',
    subject: code,
    detail: { zaehlauftrag: id, nachzaehlung: recountTaskId, zugewiesen: user?.name ?? T.nobody },
    requestKey: change.requestKey,
  });
  return { success: true as const, message: T.recountOrdered(code), auftragId: recountTaskId };
}
