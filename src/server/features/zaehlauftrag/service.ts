import { type ExpressionBuilder, type Kysely, sql } from 'kysely';
import type { ArticleId, LocationCode, LocationId } from '../../../contract/ids.ts';
import { MAX_STOCK_PER_LOCATION } from '../../../contract/limits.ts';
import {
  zaehlauftragTexts as Z,
  type Zaehlauftrag,
  type ZaehlErgebnis,
} from '../../../contract/zaehlauftrag.ts';
import type { CountTasksTable, Database, UsersTable } from '../../db/schema.ts';
import {
  type CountOutcome,
  finishCount,
  type LockedTask,
  localDate,
  lockTask,
} from '../../domain/count-tasks.ts';
import { conflict } from '../../domain/errors.ts';
import { loginOn } from '../../domain/login-on.ts';
import { articleById } from '../../repositories/article.repository.ts';
import { locationById } from '../../repositories/location.repository.ts';

type Db = Kysely<Database>;

/** Who counts: the caller, their login, and what the claim rule and the due dates read. */
export interface Counter {
  userId: number;
  sessionId: number;
  /** SESSION_IDLE_MINUTES: a claim whose login is unused this long is nobody's. */
  loginIdleMinutes: number;
  now: Date;
  timeZone: string;
}

/** The caller's task as the handheld shows it: their own count only, never the book stock. */
async function view(db: Db, taskId: number): Promise<Zaehlauftrag> {
  const task = await db
    .selectFrom('count_tasks as t')
    .innerJoin('locations as l', 'l.id', 't.location_id')
    .select(['t.id', 'l.id as locationId', 'l.code', 't.reason', 't.due_on', 't.started_at'])
    .where('t.id', '=', taskId)
    .executeTakeFirstOrThrow();
  const lines = await db
    .selectFrom('count_lines as c')
    .innerJoin('articles as a', 'a.id', 'c.article_id')
    .select(['a.id', 'a.nummer', 'a.name', 'c.counted'])
    .where('c.task_id', '=', taskId)
    .where('c.counted', '>', 0)
    .orderBy('c.id')
    .execute();
  return {
    id: task.id,
    lagerplatz: { id: task.locationId, code: task.code },
    grund: task.reason,
    faellig: task.due_on,
    platzGescannt: task.started_at !== null,
    positionen: lines.map((l) => ({ artikelId: l.id, nummer: l.nummer, name: l.name, gezaehlt: l.counted })),
  };
}

/** The caller's task in work, if any (at most one: unique index count_tasks_one_in_work_per_counter). */
async function taskInWork(db: Db, userId: number): Promise<number | undefined> {
  const row = await db
    .selectFrom('count_tasks')
    .select('id')
    .where('claimed_by', '=', userId)
    .where('status', '=', 'in_arbeit')
    .executeTakeFirst();
  return row?.id;
}

/** 'Aktuell': the caller's task in work, to resume after a reload. */
export async function current(db: Db, counter: Counter): Promise<Zaehlauftrag | null> {
  const id = await taskInWork(db, counter.userId);
  return id === undefined ? null : view(db, id);
}

/**
 * The tasks the caller may claim: open ones, and ones in work whose login is gone; never one assigned to
 * someone else or one the caller may not recount.
 */
function claimable(db: Db, counter: Counter) {
  return db
    .selectFrom('count_tasks as t')
    .innerJoin('locations as l', 'l.id', 't.location_id')
    .leftJoin('users as u', 'u.id', 't.claimed_by')
    .where((eb) => eb.or([eb('t.status', '=', 'offen'), takenOver(eb, counter)]))
    .where((eb) => eb.or([eb('t.not_user_id', 'is', null), eb('t.not_user_id', '<>', counter.userId)]));
}

/** A task in work whose claim's login is gone (over the task as `t` and its holder as `u`): anyone may take it. */
function takenOver(
  eb: ExpressionBuilder<Database & { t: CountTasksTable; u: UsersTable }, 't' | 'u'>,
  counter: Counter,
) {
  return eb.and([
    eb('t.status', '=', 'in_arbeit'),
    eb.not(loginOn('t.claim_login', 'u.active', counter.loginIdleMinutes)),
  ]);
}

/**
 * The earliest due date among the unassigned tasks the caller may claim: the open ones along the index
 * (status, assigned user, due date), the few in work whose login is gone beside them.
 */
async function earliestDue(db: Db, counter: Counter): Promise<string | undefined> {
  const mayRecount = (eb: ExpressionBuilder<Database & { t: CountTasksTable }, 't'>) =>
    eb.or([eb('t.not_user_id', 'is', null), eb('t.not_user_id', '<>', counter.userId)]);
  const open = await db
    .selectFrom('count_tasks as t')
    .select('t.due_on')
    .where('t.status', '=', 'offen')
    .where('t.assigned_user_id', 'is', null)
    .where(mayRecount)
    // In the index's order: 'is null' does not fix a column for the planner as '=' does, so `due_on` alone
    // would sort every open task (8 ms on PGlite with 20,000) instead of reading the first.
    .orderBy('t.assigned_user_id')
    .orderBy('t.due_on')
    .limit(1)
    .executeTakeFirst();
  const gone = await db
    .selectFrom('count_tasks as t')
    .leftJoin('users as u', 'u.id', 't.claimed_by')
    .select('t.due_on')
    .where((eb) => takenOver(eb, counter))
    .where('t.assigned_user_id', 'is', null)
    .where(mayRecount)
    .orderBy('t.due_on')
    .limit(1)
    .executeTakeFirst();
  const dates = [open?.due_on, gone?.due_on].filter((d): d is string => d !== undefined).sort();
  return dates[0];
}

/**
 * The next task the caller may claim, locked (skipping rows another counter is claiming this moment): the
 * ones assigned to the caller first, then the earliest due, then walking order (location code).
 *
 * In stages, because a plan makes thousands of tasks due the same day: sorting them all at every claim cost
 * 115 ms on PGlite with 20,000 (the whole database's time, decision 31). The caller's own are few; among the
 * others the earliest due date is an index range, and walking order within it follows the locations' code
 * index (one open task per location: the code alone orders them). Should every task of that day be taken
 * in the same moment, the plain sort over all of them decides.
 */
async function nextClaimable(db: Db, counter: Counter): Promise<{ id: number } | undefined> {
  const mine = await claimable(db, counter)
    .select('t.id')
    .where('t.assigned_user_id', '=', counter.userId)
    .orderBy('t.due_on')
    .orderBy(sql`l.code collate "C"`)
    .limit(1)
    .forUpdate('t')
    .skipLocked()
    .executeTakeFirst();
  if (mine) return mine;
  const unassigned = () => claimable(db, counter).where('t.assigned_user_id', 'is', null);
  const earliest = await earliestDue(db, counter);
  if (earliest === undefined) return undefined;
  const found = await unassigned()
    .select('t.id')
    .where('t.due_on', '=', earliest)
    .orderBy(sql`l.code collate "C"`)
    .limit(1)
    .forUpdate('t')
    .skipLocked()
    .executeTakeFirst();
  if (found) return found;
  return unassigned()
    .select('t.id')
    .orderBy('t.due_on')
    .orderBy(sql`l.code collate "C"`)
    .limit(1)
    .forUpdate('t')
    .skipLocked()
    .executeTakeFirst();
}

/**
 * 'Nächster Zählauftrag': the caller's task in work goes on (from this login now); else the next claimable
 * one is claimed — a claim taken over from a gone login starts afresh (its count so far is dropped, the
 * location must be scanned again). Null: nothing to count.
 */
export async function next(db: Db, counter: Counter): Promise<Zaehlauftrag | null> {
  // One claim at a time per counter: two handhelds of one user asking at once claim one task, not two. (No
  // key update: a booking that names the user — a journal row's foreign key — does not wait for it.)
  await db.selectFrom('users').select('id').where('id', '=', counter.userId).forNoKeyUpdate().execute();
  const mine = await taskInWork(db, counter.userId);
  if (mine !== undefined) {
    await db
      .updateTable('count_tasks')
      .set({ claim_login: counter.sessionId })
      .where('id', '=', mine)
      .execute();
    return view(db, mine);
  }
  const found = await nextClaimable(db, counter);
  if (!found) return null;
  await db.deleteFrom('count_lines').where('task_id', '=', found.id).execute();
  await db
    .updateTable('count_tasks')
    .set({
      status: 'in_arbeit',
      claimed_by: counter.userId,
      claim_login: counter.sessionId,
      claimed_at: sql`now()`,
      started_at: null,
      start_movement_id: null,
    })
    .where('id', '=', found.id)
    .execute();
  return view(db, found.id);
}

/** The task, locked, if the caller holds it in work; else 409 (another counter's, or over) or 404. */
async function lockMine(db: Db, taskId: number, counter: Counter): Promise<LockedTask> {
  const task = await lockTask(db, taskId);
  if (task.status === 'in_arbeit' && task.claimed_by === counter.userId) return task;
  if (task.status === 'in_arbeit' && task.claimed_by !== null) {
    const holder = await db
      .selectFrom('users')
      .select('name')
      .where('id', '=', task.claimed_by)
      .executeTakeFirstOrThrow();
    throw conflict(Z.otherCounter(holder.name));
  }
  throw conflict(Z.notInWork);
}

async function locationCodeOf(db: Db, task: LockedTask): Promise<string> {
  return (await locationById(db, task.location_id as LocationId)).code;
}

/**
 * The location scanned: the task's, or 409 wrongLocation. The first scan starts the count: the location's
 * stock rows are locked (a booking in flight there finishes first), then the journal's highest id is kept —
 * any later row on the location makes the count stale. A second scan changes nothing.
 */
export async function scanLocation(
  db: Db,
  taskId: number,
  code: LocationCode,
  counter: Counter,
): Promise<Zaehlauftrag> {
  const task = await lockMine(db, taskId, counter);
  const expected = await locationCodeOf(db, task);
  if (code !== expected) throw conflict(Z.wrongLocation(expected));
  if (task.start_movement_id === null) {
    await db
      .selectFrom('stock')
      .select('id')
      .where('location_id', '=', task.location_id)
      .orderBy('id')
      .forShare()
      .execute();
    await db
      .updateTable('count_tasks')
      .set({
        started_at: sql`now()`,
        start_movement_id: sql`(select coalesce(max(id), 0) from movements)`,
        claim_login: counter.sessionId,
      })
      .where('id', '=', task.id)
      .execute();
  }
  return view(db, task.id);
}

/** The task in work with its location scanned, or 409 locationFirst. */
async function lockStarted(db: Db, taskId: number, counter: Counter): Promise<LockedTask> {
  const task = await lockMine(db, taskId, counter);
  if (task.start_movement_id === null) throw conflict(Z.locationFirst(await locationCodeOf(db, task)));
  return task;
}

/**
 * One count: `amount` of the article added to the caller's line for it on this task (a blind count, piece
 * by piece or box by box). An article without a stock row on the location is counted too (`unexpected`).
 */
export async function count(
  db: Db,
  taskId: number,
  input: { articleId: ArticleId; amount: number; requestKey: string | null },
  counter: Counter,
): Promise<Zaehlauftrag> {
  const task = await lockStarted(db, taskId, counter);
  await articleById(db, input.articleId);
  const { rows } = await sql<{ id: number }>`
    insert into count_lines (task_id, article_id, counted, unexpected, request_key)
    values (${task.id}, ${input.articleId}, ${input.amount},
      not exists (select 1 from stock s where s.location_id = ${task.location_id}
        and s.article_id = ${input.articleId}),
      ${input.requestKey})
    on conflict (task_id, article_id) do update
      set counted = count_lines.counted + excluded.counted, request_key = excluded.request_key, at = now()
      where count_lines.counted + excluded.counted <= ${MAX_STOCK_PER_LOCATION}
    returning id`.execute(db);
  if (rows.length === 0) throw conflict(Z.tooMany);
  return view(db, task.id);
}

/** 'Fertig' or 'Platz leer' done: the outcome and its sentence for the worker (never the difference). */
function ended(outcome: CountOutcome): { ergebnis: ZaehlErgebnis; meldung: string } {
  return { ergebnis: outcome, meldung: Z.outcome[outcome] };
}

async function countedLines(db: Db, taskId: number): Promise<number> {
  const row = await db
    .selectFrom('count_lines')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('task_id', '=', taskId)
    .executeTakeFirstOrThrow();
  return row.n;
}

/** 'Fertig': the count ends (409 nothingYet when nothing was counted: that is 'Platz leer'). */
export async function finish(db: Db, taskId: number, requestKey: string | null, counter: Counter) {
  const task = await lockStarted(db, taskId, counter);
  if ((await countedLines(db, task.id)) === 0) throw conflict(Z.nothingYet);
  const by = { userId: counter.userId, requestKey, today: localDate(counter.now, counter.timeZone) };
  return ended(await finishCount(db, task, by));
}

/** 'Platz leer': nothing on the location (409 notEmpty once an article was counted). */
export async function empty(db: Db, taskId: number, requestKey: string | null, counter: Counter) {
  const task = await lockStarted(db, taskId, counter);
  if ((await countedLines(db, task.id)) > 0) throw conflict(Z.notEmpty);
  const by = { userId: counter.userId, requestKey, today: localDate(counter.now, counter.timeZone) };
  return ended(await finishCount(db, task, by));
}

/** 'Abbrechen': the count so far is dropped and the task is open again for anyone it was open for. */
export async function abandon(db: Db, taskId: number, counter: Counter): Promise<void> {
  const task = await lockMine(db, taskId, counter);
  await db.deleteFrom('count_lines').where('task_id', '=', task.id).execute();
  await db
    .updateTable('count_tasks')
    .set({
      status: 'offen',
      claimed_by: null,
      claim_login: null,
      claimed_at: null,
      started_at: null,
      start_movement_id: null,
    })
    .where('id', '=', task.id)
    .execute();
}
