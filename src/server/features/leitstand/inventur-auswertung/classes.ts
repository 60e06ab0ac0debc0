import { type Kysely, sql } from 'kysely';
import {
  ABC_CLASSES,
  type AbcClass,
  type KlasseForm,
  type KlasseRow,
  inventurAuswertungTexts as T,
} from '../../../../contract/leitstand/inventur-auswertung.ts';
import type { Database } from '../../../db/schema.ts';
import { notFound } from '../../../domain/errors.ts';
import { recordAudit } from '../../../repositories/audit.repository.ts';
import { ABC_RUN_KEY, type AbcRun } from './abc.ts';

type Db = Kysely<Database>;

/** Who changes, and the call's key for the Protokoll. */
export interface Change {
  userId: number;
  requestKey: string | null;
}

/** The last computation as kept by computeAbc, or null before the first (or a value it cannot read). */
async function lastRun(db: Db): Promise<AbcRun | null> {
  const row = await db
    .selectFrom('settings')
    .select('value')
    .where('key', '=', ABC_RUN_KEY)
    .executeTakeFirst();
  if (!row) return null;
  try {
    return JSON.parse(row.value) as AbcRun;
  } catch {
    return null;
  }
}

/**
 * The classes with their frequency and tolerance, each with its locations now (location_abc; '-' every
 * location without a row) and its articles at the last computation; and when that was, by whom.
 */
export async function abcClasses(db: Db) {
  const settings = await db
    .selectFrom('count_classes')
    .select([
      'abc_class',
      'frequency_days',
      'tolerance_pieces',
      sql<number>`tolerance_percent::float8`.as('tolerance_percent'),
    ])
    .execute();
  const perClass = await db
    .selectFrom('location_abc')
    .select(['abc_class', sql<number>`count(*)::integer`.as('n')])
    .groupBy('abc_class')
    .execute();
  const { n: locations } = await db
    .selectFrom('locations')
    .select(sql<number>`count(*)::integer`.as('n'))
    .executeTakeFirstOrThrow();
  const run = await lastRun(db);
  const by = run
    ? await db.selectFrom('users').select('name').where('id', '=', run.userId).executeTakeFirst()
    : undefined;
  const classed = perClass.reduce((sum, row) => sum + row.n, 0);
  const klassen: KlasseRow[] = ABC_CLASSES.map((klasse) => {
    const row = settings.find((s) => s.abc_class === klasse);
    if (!row) throw new Error(`count_classes: no row for ${klasse}`);
    return {
      klasse,
      lagerplaetze:
        klasse === '-' ? locations - classed : (perClass.find((p) => p.abc_class === klasse)?.n ?? 0),
      artikel: klasse === '-' || !run ? null : run.articles[klasse],
      frequenzTage: row.frequency_days,
      toleranzStueck: row.tolerance_pieces,
      toleranzProzent: Number(row.tolerance_percent),
    };
  });
  return {
    klassen,
    berechnet: run
      ? { am: new Date(run.at).toISOString(), von: by?.name ?? '–', bewegungen: run.movements }
      : null,
  };
}

/** A class's settings in the Protokoll's words (auditTexts.detailKeys). */
const detailOf = (row: { frequency_days: number; tolerance_pieces: number; tolerance_percent: number }) => ({
  frequenzTage: row.frequency_days,
  toleranzStueck: row.tolerance_pieces,
  toleranzProzent: row.tolerance_percent,
});

/**
 * A class's count frequency and tolerance, edited in place: saved unchanged, nothing is written nor
 * journalled; otherwise the Protokoll says what changed, 'vorher → nachher'.
 */
export async function updateClass(db: Db, form: KlasseForm, change: Change) {
  const before = await db
    .selectFrom('count_classes')
    .select([
      'frequency_days',
      'tolerance_pieces',
      sql<number>`tolerance_percent::float8`.as('tolerance_percent'),
    ])
    .where('abc_class', '=', form.klasse)
    .forUpdate()
    .executeTakeFirst();
  if (!before) throw notFound(T.unknownClass);
  const after = {
    frequency_days: form.frequenzTage,
    tolerance_pieces: form.toleranzStueck,
    tolerance_percent: form.toleranzProzent,
  };
  const was = detailOf({ ...before, tolerance_percent: Number(before.tolerance_percent) });
  const now = detailOf(after);
  const changed = Object.fromEntries(
    (Object.keys(now) as (keyof typeof now)[])
      .filter((key) => was[key] !== now[key])
      .map((key) => [key, `${formatted(was[key])} → ${formatted(now[key])}`]),
  );
  const name = T.klassen[form.klasse as AbcClass];
  if (Object.keys(changed).length === 0) return { success: true as const, message: T.saved(name) };
  await db
    .updateTable('count_classes')
    .set({ ...after, updated_at: sql`now()` })
    .where('abc_class', '=', form.klasse)
    .execute();
  await recordAudit(db, {
    userId: change.userId,
    action: 'countClass.update',
    subject: name,
    detail: changed,
    requestKey: change.requestKey,
  });
  return { success: true as const, message: T.saved(name) };
}

/** A figure as the Protokoll shows it: German decimals ('2,5'). */
const formatted = (n: number) => n.toLocaleString('de-DE', { maximumFractionDigits: 2 });
