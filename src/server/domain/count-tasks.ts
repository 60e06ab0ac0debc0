import { type Kysely, sql } from 'kysely';
import type { LocationId } from '../../contract/ids.ts';
import { zaehlauftragTexts as Z, type ZaehlErgebnis } from '../../contract/zaehlauftrag.ts';
import type { AbcClass, CountTaskReason, CountTaskStatus, Database } from '../db/schema.ts';
import { clearCountMark } from '../repositories/location.repository.ts';
import { conflict, notFound } from './errors.ts';
import { bookCountedStock } from './inventory-count.ts';

/**
 * Permanente Inventur (issue 42, decision 34): the rules of a count task every caller shares — the handheld's
 * 'Fertig', the Leitstand's 'Buchen' and 'Nachzählen', a picker's Fehlmenge. Every function runs in the
 * caller's transaction and locks the task row first, then the location's stock rows.
 */
type Db = Kysely<Database>;

export type { AbcClass, CountTaskReason, CountTaskStatus };

/** What 'Fertig' did with a count (the handheld's `ergebnis`). */
export type CountOutcome = ZaehlErgebnis;

/** A task still open: at most one per location (unique index count_tasks_one_open_per_location). */
export const OPEN_TASK_STATUSES: readonly CountTaskStatus[] = ['offen', 'in_arbeit', 'wartet'];

/** The calendar day of `now` where the warehouse is (TIME_ZONE), as a date column takes it: '2026-11-28'. */
export function localDate(now: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('sv-SE', { timeZone }).format(now);
}

/** A class's tolerance: a difference is within it when within the pieces or within the percent of book stock. */
export interface Tolerance {
  abcClass: AbcClass | '-';
  pieces: number;
  percent: number;
}

/**
 * Within tolerance: |difference| ≤ pieces, or |difference| ≤ percent × book / 100. Either bound suffices, so a
 * small location is judged by pieces and a large one by percent (B: 2 pieces or 2 %).
 */
export function withinTolerance(counted: number, book: number, tolerance: Tolerance): boolean {
  const difference = Math.abs(counted - book);
  return difference <= tolerance.pieces || difference * 100 <= tolerance.percent * book;
}

/** The tolerance of a location: its ABC class's (location_abc), or the class '-' for one without a class. */
export async function toleranceFor(db: Db, locationId: LocationId | number): Promise<Tolerance> {
  const row = await db
    .selectFrom('count_classes as c')
    .select([
      'c.abc_class',
      'c.tolerance_pieces',
      sql<number>`c.tolerance_percent::float8`.as('tolerance_percent'),
    ])
    .where(
      'c.abc_class',
      '=',
      sql<AbcClass | '-'>`coalesce((select l.abc_class from location_abc l
      where l.location_id = ${locationId}), '-')`,
    )
    .executeTakeFirstOrThrow();
  return { abcClass: row.abc_class, pieces: row.tolerance_pieces, percent: Number(row.tolerance_percent) };
}

/**
 * A picker's Fehlmenge (issue 42): the location showed stock that was not there, so it gets a count task due
 * today — unless a task is open there already (that count answers it too). In the Fehlmenge's transaction.
 */
export async function createShortageTask(db: Db, locationId: number, today: string): Promise<void> {
  await db
    .insertInto('count_tasks')
    .values({ location_id: locationId, reason: 'fehlmenge', due_on: today })
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/** A task as the rules read it, locked. */
export interface LockedTask {
  id: number;
  location_id: number;
  plan_id: number | null;
  status: CountTaskStatus;
  claimed_by: number | null;
  counted_by: number | null;
  start_movement_id: number | null;
  not_user_id: number | null;
}

/** The task, its row locked (404 unknownTask). */
export async function lockTask(db: Db, taskId: number): Promise<LockedTask> {
  const task = await db
    .selectFrom('count_tasks')
    .select([
      'id',
      'location_id',
      'plan_id',
      'status',
      'claimed_by',
      'counted_by',
      'start_movement_id',
      'not_user_id',
    ])
    .where('id', '=', taskId)
    .forUpdate()
    .executeTakeFirst();
  if (!task) throw notFound(Z.unknownTask);
  return task;
}

/**
 * Locks every stock row on the location (row id order, as bookings lock) so a booking in flight finishes
 * before the count reads the location's journal and stock, and none starts until the count is done.
 */
async function lockLocation(db: Db, locationId: number): Promise<void> {
  await db
    .selectFrom('stock')
    .select('id')
    .where('location_id', '=', locationId)
    .orderBy('id')
    .forUpdate()
    .execute();
}

/**
 * The count is stale: something was booked on its location (into or out of it) after the location was
 * scanned — a journal row with a higher id than the highest one then, not written by this count's posting.
 */
async function isStale(db: Db, task: LockedTask): Promise<boolean> {
  const after = task.start_movement_id ?? 0;
  const { rows } = await sql<{ stale: boolean }>`select exists (select 1 from movements m
      where m.from_location_id = ${task.location_id} and m.id > ${after}
        and m.count_task_id is distinct from ${task.id})
    or exists (select 1 from movements m
      where m.to_location_id = ${task.location_id} and m.id > ${after}
        and m.count_task_id is distinct from ${task.id}) as stale`.execute(db);
  return rows[0]?.stale === true;
}

/** A recount of `task`, due today, that `notUserId` may not take (null: anyone). */
async function createRecount(
  db: Db,
  task: LockedTask,
  notUserId: number | null,
  today: string,
): Promise<number> {
  const created = await db
    .insertInto('count_tasks')
    .values({
      location_id: task.location_id,
      plan_id: task.plan_id,
      reason: 'nachzaehlung',
      due_on: today,
      recount_of: task.id,
      not_user_id: notUserId,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return created.id;
}

/** Closes the task in `status`; a stale count also keeps who counted, and the stock it did not post. */
async function close(db: Db, task: LockedTask, status: CountTaskStatus, userId: number): Promise<void> {
  await db
    .updateTable('count_tasks')
    .set({ status, finished_at: sql`coalesce(finished_at, now())`, counted_by: task.counted_by ?? userId })
    .where('id', '=', task.id)
    .execute();
}

/**
 * Book stock per article at the count's end: every article with stock on the location gets a line (counted
 * 0 where the worker found none), every line its book stock. Answers the lines.
 */
async function fixBook(
  db: Db,
  task: LockedTask,
): Promise<{ article_id: number; counted: number; book: number }[]> {
  await sql`insert into count_lines (task_id, article_id, counted)
    select ${task.id}, s.article_id, 0 from stock s where s.location_id = ${task.location_id}
    group by s.article_id
    on conflict (task_id, article_id) do nothing`.execute(db);
  await sql`update count_lines cl set book = coalesce((select sum(s.amount)::int from stock s
      where s.location_id = ${task.location_id} and s.article_id = cl.article_id), 0)
    where cl.task_id = ${task.id}`.execute(db);
  const lines = await db
    .selectFrom('count_lines')
    .select(['article_id', 'counted', 'book'])
    .where('task_id', '=', task.id)
    .orderBy('article_id')
    .execute();
  return lines.map((l) => ({ ...l, book: l.book ?? 0 }));
}

/** The counted amounts become the stock, journalled with the task; the location's count mark is answered. */
async function post(
  db: Db,
  task: LockedTask,
  lines: { article_id: number; counted: number; book: number }[],
  by: { userId: number; requestKey: string | null },
): Promise<void> {
  for (const line of lines) {
    if (line.counted === line.book) continue;
    await bookCountedStock(db, {
      locationId: task.location_id,
      articleId: line.article_id,
      amount: line.counted,
      userId: by.userId,
      requestKey: by.requestKey,
      countTaskId: task.id,
    });
  }
  await clearCountMark(db, task.location_id as LocationId);
}

/**
 * 'Fertig' (or 'Platz leer') of a task in work, counted by `userId`:
 * - something was booked on the location since it was scanned → 'veraltet': nothing posted, a recount due
 *   today (for anyone the recounted task allowed);
 * - every article within the location's tolerance → posted at once, 'gebucht';
 * - above it, a first count → 'nachzaehlung': a recount due today for anyone but this counter;
 * - above it, a recount → 'wartet' for the shift lead (Leitstand › Differenzen).
 */
export async function finishCount(
  db: Db,
  task: LockedTask,
  by: { userId: number; requestKey: string | null; today: string },
): Promise<CountOutcome> {
  await lockLocation(db, task.location_id);
  const lines = await fixBook(db, task);
  if (await isStale(db, task)) {
    await close(db, task, 'veraltet', by.userId);
    await createRecount(db, task, task.not_user_id, by.today);
    return 'veraltet';
  }
  const tolerance = await toleranceFor(db, task.location_id);
  if (lines.every((line) => withinTolerance(line.counted, line.book, tolerance))) {
    await post(db, task, lines, by);
    await close(db, task, 'gebucht', by.userId);
    return 'gebucht';
  }
  // A recount is a task someone may not take (who counted above tolerance before): its difference goes to
  // the shift lead instead of a third count.
  if (task.not_user_id !== null) {
    await close(db, task, 'wartet', by.userId);
    return 'wartet';
  }
  await close(db, task, 'nachzaehlung', by.userId);
  await createRecount(db, task, by.userId, by.today);
  return 'nachzaehlung';
}

/** The task waits for the shift lead, or says why not (404, 409 alreadyPosted, 409 notWaiting). */
async function lockWaiting(db: Db, taskId: number): Promise<LockedTask> {
  const task = await lockTask(db, taskId);
  if (task.status === 'gebucht') throw conflict(Z.alreadyPosted);
  if (task.status !== 'wartet') throw conflict(Z.notWaiting);
  return task;
}

/**
 * 'Buchen' (Leitstand › Differenzen): the shift lead posts a count waiting above tolerance — the counted
 * amounts become the stock, journalled with the task and the lead. At most once: the task row is locked, so
 * a second lead waits and then gets 409 alreadyPosted. If something was booked on the location since the
 * count, its numbers no longer describe the stock: nothing is posted, the task is 'veraltet' and a recount
 * is due today. Answers which.
 */
export async function postCount(
  db: Db,
  taskId: number,
  approvedBy: number,
  context: { requestKey: string | null; timeZone: string; now?: Date },
): Promise<'gebucht' | 'veraltet'> {
  const task = await lockWaiting(db, taskId);
  await lockLocation(db, task.location_id);
  if (await isStale(db, task)) {
    await close(db, task, 'veraltet', approvedBy);
    await createRecount(db, task, task.counted_by, localDate(context.now ?? new Date(), context.timeZone));
    return 'veraltet';
  }
  const lines = await db
    .selectFrom('count_lines')
    .select(['article_id', 'counted', 'book'])
    .where('task_id', '=', task.id)
    .orderBy('article_id')
    .execute();
  await post(
    db,
    task,
    lines.map((l) => ({ ...l, book: l.book ?? 0 })),
    { userId: approvedBy, requestKey: context.requestKey },
  );
  await db
    .updateTable('count_tasks')
    .set({ status: 'gebucht', approved_by: approvedBy, approved_at: sql`now()` })
    .where('id', '=', task.id)
    .execute();
  return 'gebucht';
}

/**
 * 'Nachzählen' (Leitstand › Differenzen): the shift lead orders another count of a count waiting above
 * tolerance — it closes as 'nachzaehlung', and a recount due today goes to anyone but its counter.
 */
export async function orderRecount(
  db: Db,
  taskId: number,
  orderedBy: number,
  context: { timeZone: string; now?: Date },
): Promise<{ recountTaskId: number }> {
  const task = await lockWaiting(db, taskId);
  await close(db, task, 'nachzaehlung', orderedBy);
  const today = localDate(context.now ?? new Date(), context.timeZone);
  return { recountTaskId: await createRecount(db, task, task.counted_by, today) };
}
