import { type Kysely, sql } from 'kysely';
import {
  kindLabel,
  type PlanForm,
  type PlanKind,
  type PlanRow,
  inventurLeitstandTexts as T,
  type Zaehler,
} from '../../../../contract/leitstand/inventur.ts';
import type { Database } from '../../../db/schema.ts';
import { conflict, invalid, notFound } from '../../../domain/errors.ts';
import { recordAudit } from '../../../repositories/audit.repository.ts';

type Db = Kysely<Database>;

/** Who changes, and the call's key for the Protokoll. */
export interface Change {
  userId: number;
  requestKey: string | null;
}

/**
 * A plan's columns as stored. Fields its kind does not use are stored empty, so an edit that changes the kind
 * leaves no filter behind that the list would not show; an empty range end is no range.
 */
export function columnsOf(form: PlanForm) {
  const from = form.von?.trim() || null;
  const to = form.bis?.trim() || null;
  const usesDays = form.art === 'nicht_gezaehlt' || form.art === 'null_oder_korrigiert';
  return {
    name: form.name,
    kind: form.art,
    location_from: from,
    location_to: to,
    days: usesDays ? form.tage : null,
    abc_class: form.art === 'abc' ? form.klasse : null,
    due_days: form.faelligInTagen,
    assigned_user_id: form.benutzerId,
  };
}

type Columns = ReturnType<typeof columnsOf>;

/** Byte order, as the database compares codes (`collate "C"`) and the location index is built. */
const byteOrder = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/** The rules a plan's fields follow beyond each field's own (refused 400 in German, nothing written). */
function checkColumns(c: Columns): void {
  if (c.kind === 'bereich' && (c.location_from === null || c.location_to === null))
    throw invalid(T.rangeNeeded);
  if ((c.location_from === null) !== (c.location_to === null)) throw invalid(T.rangeHalf);
  if (c.location_from !== null && c.location_to !== null && byteOrder(c.location_from, c.location_to) > 0)
    throw invalid(T.rangeOrder);
  if ((c.kind === 'nicht_gezaehlt' || c.kind === 'null_oder_korrigiert') && c.days === null)
    throw invalid(T.daysNeeded);
  if (c.kind === 'abc' && c.abc_class === null) throw invalid(T.classNeeded);
}

/** The user by id unless switched off. */
const activeRow = (db: Db, id: number) =>
  db
    .selectFrom('users')
    .select(['id', 'name'])
    .where('id', '=', id)
    .where('active', '=', true)
    .executeTakeFirst();

/** An active user by id, for 'zuweisen'; 400 in German when there is none (or switched off). */
export async function activeUser(db: Db, id: number): Promise<{ id: number; name: string }> {
  const user = await activeRow(db, id);
  if (!user) throw invalid(T.userNotFound);
  return user;
}

/** Whether the user exists and is not switched off. */
export async function isActive(db: Db, id: number): Promise<boolean> {
  return (await activeRow(db, id)) !== undefined;
}

/** Whom a task may be given: every active user (each role can count), by name. */
export async function counters(db: Db): Promise<Zaehler[]> {
  return db
    .selectFrom('users')
    .select(['id', 'name'])
    .where('active', '=', true)
    .orderBy('name')
    .orderBy('id')
    .execute();
}

/** The plan in the Protokoll's words (keys of auditTexts.detailKeys). */
function auditDetail(c: Columns, assignee: string | null) {
  return {
    name: c.name,
    art: kindLabel(c.kind),
    von: c.location_from,
    bis: c.location_to,
    tage: c.days,
    klasse: c.abc_class,
    faelligInTagen: c.due_days,
    zugewiesen: assignee,
  };
}

async function assigneeName(db: Db, c: Columns): Promise<string | null> {
  return c.assigned_user_id === null ? null : (await activeUser(db, c.assigned_user_id)).name;
}

function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}

/** A name taken is refused in German; the unique index decides between two desks at the same moment. */
async function refusingDuplicate<R>(db: Db, name: string, except: number | null, write: () => Promise<R>) {
  let query = db.selectFrom('count_plans').select('id').where('name', '=', name);
  if (except !== null) query = query.where('id', '<>', except);
  if (await query.executeTakeFirst()) throw conflict(T.duplicate(name));
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(T.duplicate(name));
    throw error;
  }
}

/** The plans by name, with their assignee, their open tasks and who set each up. */
export async function plans(db: Db): Promise<PlanRow[]> {
  const rows = await db
    .selectFrom('count_plans as p')
    .innerJoin('users as c', 'c.id', 'p.created_by')
    .leftJoin('users as a', 'a.id', 'p.assigned_user_id')
    .select([
      'p.id',
      'p.name',
      'p.kind',
      'p.location_from',
      'p.location_to',
      'p.days',
      'p.abc_class',
      'p.due_days',
      'p.assigned_user_id',
      'a.name as assignee',
      'c.name as created_by',
      'p.updated_at',
      sql<string>`(select count(*) from count_tasks t
                   where t.plan_id = p.id and t.status in ('offen', 'in_arbeit'))`.as('open'),
    ])
    .orderBy('p.name')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    art: r.kind as PlanKind,
    von: r.location_from,
    bis: r.location_to,
    tage: r.days,
    klasse: r.abc_class as PlanRow['klasse'],
    faelligInTagen: r.due_days,
    benutzerId: r.assigned_user_id,
    benutzer: r.assignee,
    offen: Number(r.open),
    angelegtVon: r.created_by,
    geaendertAm: new Date(r.updated_at).toISOString(),
  }));
}

/** One plan as stored; 404 when it is gone (removed at another desk). */
export async function planById(db: Db, id: number) {
  const row = await db.selectFrom('count_plans').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound(T.planNotFound);
  return row;
}

export async function createPlan(db: Db, form: PlanForm, change: Change) {
  const columns = columnsOf(form);
  checkColumns(columns);
  const assignee = await assigneeName(db, columns);
  const { id } = await refusingDuplicate(db, columns.name, null, () =>
    db
      .insertInto('count_plans')
      .values({ ...columns, created_by: change.userId })
      .returning('id')
      .executeTakeFirstOrThrow(),
  );
  await recordAudit(db, {
    userId: change.userId,
    action: 'countPlan.create',
    subject: columns.name,
    detail: auditDetail(columns, assignee),
    requestKey: change.requestKey,
  });
  return { success: true as const, message: T.created(columns.name), id };
}

function storedColumns(row: Awaited<ReturnType<typeof planById>>): Columns {
  return {
    name: row.name,
    kind: row.kind as PlanKind,
    location_from: row.location_from,
    location_to: row.location_to,
    days: row.days,
    abc_class: row.abc_class as Columns['abc_class'],
    due_days: row.due_days,
    assigned_user_id: row.assigned_user_id,
  };
}

/** Edits a plan in place; saved unchanged, nothing is written or journalled. Its tasks made so far stay. */
export async function updatePlan(db: Db, id: number, form: PlanForm, change: Change) {
  const stored = await planById(db, id);
  const before = storedColumns(stored);
  const after = columnsOf(form);
  checkColumns(after);
  const was = auditDetail(before, await nameOf(db, before.assigned_user_id));
  const now = auditDetail(after, await assigneeName(db, after));
  const changed = Object.fromEntries(
    (Object.keys(now) as (keyof typeof now)[])
      .filter((key) => was[key] !== now[key])
      .map((key) => [key, `${String(was[key] ?? '–')} → ${String(now[key] ?? '–')}`]),
  );
  if (Object.keys(changed).length === 0) return { success: true as const, message: T.saved(after.name) };
  await refusingDuplicate(db, after.name, id, () =>
    db
      .updateTable('count_plans')
      .set({ ...after, updated_at: sql`now()` })
      .where('id', '=', id)
      .execute(),
  );
  await recordAudit(db, {
    userId: change.userId,
    action: 'countPlan.update',
    subject: before.name,
    detail: changed,
    requestKey: change.requestKey,
  });
  return { success: true as const, message: T.saved(after.name) };
}

/** A user's name also when switched off since (a plan keeps its assignee). */
async function nameOf(db: Db, userId: number | null): Promise<string | null> {
  if (userId === null) return null;
  const row = await db.selectFrom('users').select('name').where('id', '=', userId).executeTakeFirst();
  return row?.name ?? null;
}

/**
 * Removes a plan. Its tasks stay as they are — an open one can still be counted, a counted one keeps its
 * history — and lose only their plan (plan_id null); the answer says how many open ones stay.
 */
export async function removePlan(db: Db, id: number, change: Change) {
  const stored = await planById(db, id);
  const before = storedColumns(stored);
  const detached = await db
    .updateTable('count_tasks')
    .set({ plan_id: null })
    .where('plan_id', '=', id)
    .returning('status')
    .execute();
  const open = detached.filter((t) => t.status === 'offen' || t.status === 'in_arbeit').length;
  await db.deleteFrom('count_plans').where('id', '=', id).execute();
  await recordAudit(db, {
    userId: change.userId,
    action: 'countPlan.remove',
    subject: before.name,
    detail: { ...auditDetail(before, await nameOf(db, before.assigned_user_id)), offeneAuftraege: open },
    requestKey: change.requestKey,
  });
  return { success: true as const, message: T.removed(before.name, open) };
}
