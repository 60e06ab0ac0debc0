import { type Kysely, type Selectable, sql } from 'kysely';
import {
  euLabel,
  type ProfilForm,
  type ProfilRow,
  kommissionierungLeitstandTexts as T,
} from '../../../../contract/leitstand/kommissionierung.ts';
import type { Database, PickProfilesTable } from '../../../db/schema.ts';
import { conflict, notFound } from '../../../domain/errors.ts';
import { recordAudit } from '../../../repositories/audit.repository.ts';

type Db = Kysely<Database>;

/** Who changes, and the call's key for the Protokoll. */
export interface Change {
  userId: number;
  requestKey: string | null;
}

/** A profile's filters as stored: an empty Versandart is no filter. */
function columnsOf(form: ProfilForm) {
  const versandart = form.versandart?.trim() ?? '';
  return {
    name: form.name,
    versandart: versandart === '' ? null : versandart,
    max_lines: form.maxPositionen,
    eu: form.eu,
    // The time field sends '14:00'; the column is a `time`.
    arrived_before: form.eingangVor === null ? null : `${form.eingangVor}:00`,
    notes_per_cart: form.proWagen,
  };
}

type Columns = ReturnType<typeof columnsOf>;

/** The profile in the Protokoll's words (the detail keys of auditTexts.detailKeys). */
function auditDetail(c: Columns) {
  return {
    name: c.name,
    versandart: c.versandart,
    maxPositionen: c.max_lines,
    eu: euLabel(c.eu),
    eingangVor: hhmm(c.arrived_before),
    proWagen: c.notes_per_cart,
  };
}

const hhmm = (time: string | null) => (time === null ? null : time.slice(0, 5));

function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}

/** The profiles by name, with who changed each last. */
export async function profiles(db: Db): Promise<ProfilRow[]> {
  const rows = await db
    .selectFrom('pick_profiles as p')
    .innerJoin('users as u', 'u.id', 'p.changed_by')
    .select([
      'p.id',
      'p.name',
      'p.versandart',
      'p.max_lines',
      'p.eu',
      'p.arrived_before',
      'p.notes_per_cart',
      'p.changed_at',
      'u.name as changed_by',
    ])
    .orderBy('p.name')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    versandart: r.versandart,
    maxPositionen: r.max_lines,
    eu: r.eu,
    eingangVor: hhmm(r.arrived_before),
    proWagen: r.notes_per_cart,
    geaendertVon: r.changed_by,
    geaendertAm: new Date(r.changed_at).toISOString(),
  }));
}

/** One profile as stored; 404 when it is gone (removed at another desk). */
export async function profileById(db: Db, id: number) {
  const row = await db.selectFrom('pick_profiles').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound(T.profileNotFound);
  return row;
}

/**
 * A name taken by another profile is refused in German. Checked before the write, and the unique index
 * decides between two desks naming a profile alike at the same moment (the loser gets the same refusal).
 */
async function refuseDuplicate(db: Db, name: string, except: number | null): Promise<void> {
  let query = db.selectFrom('pick_profiles').select('id').where('name', '=', name);
  if (except !== null) query = query.where('id', '<>', except);
  if (await query.executeTakeFirst()) throw conflict(T.duplicate(name));
}

async function refusingDuplicate<R>(name: string, write: () => Promise<R>): Promise<R> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(T.duplicate(name));
    throw error;
  }
}

export async function createProfile(db: Db, form: ProfilForm, change: Change) {
  const columns = columnsOf(form);
  await refuseDuplicate(db, columns.name, null);
  const { id } = await refusingDuplicate(columns.name, () =>
    db
      .insertInto('pick_profiles')
      .values({ ...columns, changed_by: change.userId })
      .returning('id')
      .executeTakeFirstOrThrow(),
  );
  await recordAudit(db, {
    userId: change.userId,
    action: 'pickProfile.create',
    subject: columns.name,
    detail: auditDetail(columns),
    requestKey: change.requestKey,
  });
  return { success: true as const, message: T.created(columns.name), id };
}

/** The fields that differ, as the Protokoll shows a change: `{ field: { vorher, nachher } }`. */
function differences(before: Columns, after: Columns) {
  const was = auditDetail(before);
  const now = auditDetail(after);
  return Object.fromEntries(
    (Object.keys(now) as (keyof typeof now)[])
      .filter((key) => was[key] !== now[key])
      .map((key) => [key, `${String(was[key] ?? '–')} → ${String(now[key] ?? '–')}`]),
  );
}

function storedColumns(row: Omit<Selectable<PickProfilesTable>, 'changed_at' | 'changed_by'>): Columns {
  return {
    name: row.name,
    versandart: row.versandart,
    max_lines: row.max_lines,
    eu: row.eu,
    arrived_before: row.arrived_before,
    notes_per_cart: row.notes_per_cart,
  };
}

/** Edits a profile in place; saving it unchanged writes nothing and is not journalled. */
export async function updateProfile(db: Db, id: number, form: ProfilForm, change: Change) {
  const before = storedColumns(await profileById(db, id));
  const after = columnsOf(form);
  const changed = differences(before, after);
  if (Object.keys(changed).length === 0) return { success: true as const, message: T.saved(after.name) };
  await refuseDuplicate(db, after.name, id);
  await refusingDuplicate(after.name, () =>
    db
      .updateTable('pick_profiles')
      .set({ ...after, changed_by: change.userId, changed_at: sql`now()` })
      .where('id', '=', id)
      .execute(),
  );
  await recordAudit(db, {
    userId: change.userId,
    action: 'pickProfile.update',
    subject: before.name,
    detail: changed,
    requestKey: change.requestKey,
  });
  return { success: true as const, message: T.saved(after.name) };
}

/** Removes a profile; the waves released from it keep its name (pick_waves.profile_id is set null). */
export async function removeProfile(db: Db, id: number, change: Change) {
  const before = storedColumns(await profileById(db, id));
  await db.deleteFrom('pick_profiles').where('id', '=', id).execute();
  await recordAudit(db, {
    userId: change.userId,
    action: 'pickProfile.remove',
    subject: before.name,
    detail: auditDetail(before),
    requestKey: change.requestKey,
  });
  return { success: true as const, message: T.removed(before.name) };
}
