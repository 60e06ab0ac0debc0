import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { z } from 'zod';
import {
  inventurLeitstandTexts as T,
  TASKS_PAGE,
  type TaskReason,
  type TaskRow,
  type TaskStatus,
  type taskQuery,
} from '../../../../contract/leitstand/inventur.ts';
import type { Database } from '../../../db/schema.ts';
import { conflict, notFound } from '../../../domain/errors.ts';
import type { Steps } from '../../../http/back-office.ts';
import { recordAudit } from '../../../repositories/audit.repository.ts';
import { activeUser, type Change } from './plans.ts';

type Db = Kysely<Database>;
type TaskFilter = z.output<typeof taskQuery>;

/** The list's filters over the task `t` and its location `l`, only those set. */
function filtersOf(filter: TaskFilter): RawBuilder<boolean> {
  const parts: RawBuilder<unknown>[] = [];
  if (filter.status === 'aktiv') parts.push(sql`t.status in ('offen', 'in_arbeit')`);
  else if (filter.status !== undefined) parts.push(sql`t.status = ${filter.status}::text`);
  if (filter.plan !== undefined) parts.push(sql`t.plan_id = ${filter.plan}::integer`);
  if (filter.platz !== undefined && filter.platz !== '')
    parts.push(sql`left(l.code, length(${filter.platz}::text)) = ${filter.platz}::text`);
  if (filter.faelligBis !== undefined) parts.push(sql`t.due_on <= ${filter.faelligBis}::date`);
  return parts.length === 0 ? sql<boolean>`true` : sql<boolean>`(${sql.join(parts, sql` and `)})`;
}

interface Row {
  id: number;
  code: string;
  reason: TaskReason;
  plan: string | null;
  due: string;
  status: TaskStatus;
  assigned_id: number | null;
  assigned: string | null;
  counter: string | null;
  not_user_id: number | null;
}

/**
 * A page of the tasks matching the filter, by due day, then location code (the walking order), and how many
 * match in all. Read at every live refresh of the page: the count and the page are a step each.
 */
export async function tasks(steps: Steps, db: Db, filter: TaskFilter) {
  const where = filtersOf(filter);
  const total = await steps.run(async () => {
    const { rows } = await sql<{ n: string }>`
      select count(*) as n from count_tasks t join locations l on l.id = t.location_id where ${where}`.execute(
      db,
    );
    return Number(rows[0]?.n ?? 0);
  });
  const pages = Math.max(1, Math.ceil(total / TASKS_PAGE));
  const page = Math.min(filter.seite ?? 1, pages);
  const { rows } = await steps.run(() =>
    sql<Row>`
      select t.id, l.code, t.reason, p.name as plan, t.due_on::text as due, t.status,
             t.assigned_user_id as assigned_id, a.name as assigned,
             coalesce(c.name, case when t.status = 'in_arbeit' then h.name end) as counter, t.not_user_id
      from count_tasks t
      join locations l on l.id = t.location_id
      left join count_plans p on p.id = t.plan_id
      left join users a on a.id = t.assigned_user_id
      left join users c on c.id = t.counted_by
      left join users h on h.id = t.claimed_by
      where ${where}
      order by t.due_on, l.code collate "C", t.id
      limit ${TASKS_PAGE}::integer offset ${(page - 1) * TASKS_PAGE}::integer`.execute(db),
  );
  const auftraege: TaskRow[] = rows.map((r) => ({
    id: r.id,
    lagerplatz: r.code,
    grund: r.reason,
    plan: r.plan,
    faellig: r.due,
    status: r.status,
    zugewiesen: r.assigned_id === null ? null : { id: r.assigned_id, name: r.assigned ?? '' },
    gezaehltVon: r.counter,
    nichtBenutzerId: r.not_user_id,
  }));
  return { auftraege, gesamt: total, seite: page };
}

/** A task with its location's code, locked for the write; 404 in German when there is none. */
async function taskForUpdate(db: Db, id: number) {
  const task = await db
    .selectFrom('count_tasks as t')
    .innerJoin('locations as l', 'l.id', 't.location_id')
    .select(['t.id', 't.status', 't.not_user_id', 't.assigned_user_id', 'l.code'])
    .where('t.id', '=', id)
    .forUpdate('t')
    .executeTakeFirst();
  if (!task) throw notFound(T.taskNotFound);
  return task;
}

/** Only an open task (not claimed by a counter yet) is given to someone else or discarded. */
function refuseUnlessOpen(task: { status: string; code: string }): void {
  if (task.status !== 'offen') throw conflict(T.notOpen(task.code, T.statuses[task.status as TaskStatus]));
}

/**
 * 'Zuweisen': the open task goes to `userId` first in their 'Nächster Zählauftrag' (null: to whoever comes).
 * Refused (409) for the user a recount must not go to — who counted the count it checks.
 */
export async function assignTask(db: Db, id: number, userId: number | null, change: Change) {
  const task = await taskForUpdate(db, id);
  refuseUnlessOpen(task);
  const user = userId === null ? null : await activeUser(db, userId);
  if (user !== null && task.not_user_id === user.id) throw conflict(T.notForUser(user.name));
  const before =
    task.assigned_user_id === null
      ? null
      : ((
          await db
            .selectFrom('users')
            .select('name')
            .where('id', '=', task.assigned_user_id)
            .executeTakeFirst()
        )?.name ?? null);
  await db
    .updateTable('count_tasks')
    .set({ assigned_user_id: user?.id ?? null })
    .where('id', '=', id)
    .execute();
  await recordAudit(db, {
    userId: change.userId,
    action: 'countTask.assign',
    subject: task.code,
    detail: { zaehlauftrag: id, vorher: before ?? T.nobody, nachher: user?.name ?? T.nobody },
    requestKey: change.requestKey,
  });
  return { success: true as const, message: T.assigned(task.code, user?.name ?? null) };
}

/** 'Verwerfen': the open task is discarded — the location is not counted by it. */
export async function discardTask(db: Db, id: number, change: Change) {
  const task = await taskForUpdate(db, id);
  refuseUnlessOpen(task);
  await db.updateTable('count_tasks').set({ status: 'verworfen' }).where('id', '=', id).execute();
  await recordAudit(db, {
    userId: change.userId,
    action: 'countTask.discard',
    subject: task.code,
    detail: { zaehlauftrag: id },
    requestKey: change.requestKey,
  });
  return { success: true as const, message: T.discarded(task.code) };
}
