import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as permanentInventory from '../../src/server/db/migrations/2026-11-28-08-permanent-inventory.ts';
import type { Database } from '../../src/server/db/schema.ts';
import { startTestApp, type TestApp, userIdOf } from '../support/app.ts';
import { databaseKinds, refusal } from '../support/db.ts';

describe.each(databaseKinds())('the permanent-inventory tables (issue 42, decision 34) on %s', (kind) => {
  let t: TestApp;
  let db: Kysely<Database>;
  let userId: number;
  let locationId: number;
  beforeAll(async () => {
    t = await startTestApp(kind);
    db = t.database.db;
    userId = await userIdOf(db, 'demo');
    const location = await db
      .selectFrom('locations')
      .select('id')
      .orderBy('code', 'desc')
      .executeTakeFirstOrThrow();
    locationId = location.id;
  });
  afterAll(() => t.close());

  const task = (status: 'offen' | 'in_arbeit' | 'wartet' | 'gebucht' | 'veraltet' | 'nachzaehlung') => ({
    location_id: locationId,
    reason: 'plan' as const,
    due_on: '2026-11-28',
    status,
    claimed_by: status === 'offen' ? null : userId,
  });

  it('holds at most one open task per location — to count, in work or waiting — beside any closed ones', async () => {
    for (const [first, second] of [
      ['offen', 'offen'],
      ['in_arbeit', 'offen'],
      ['wartet', 'offen'],
    ] as const) {
      expect(
        await refusal(db, (trx) =>
          trx
            .insertInto('count_tasks')
            .values([task(first), task(second)])
            .execute(),
        ),
      ).toMatch(/count_tasks_one_open_per_location/);
    }
    expect(
      await refusal(db, (trx) =>
        trx
          .insertInto('count_tasks')
          .values([task('gebucht'), task('veraltet'), task('nachzaehlung'), task('offen')])
          .execute(),
      ),
    ).toBe('');
  });

  it('keeps one line per task and article, and refuses a task in work without its counter', async () => {
    const article = await db.selectFrom('articles').select('id').orderBy('id').executeTakeFirstOrThrow();
    expect(
      await refusal(db, async (trx) => {
        const { id } = await trx
          .insertInto('count_tasks')
          .values(task('in_arbeit'))
          .returning('id')
          .executeTakeFirstOrThrow();
        await trx
          .insertInto('count_lines')
          .values([
            { task_id: id, article_id: article.id, counted: 1 },
            { task_id: id, article_id: article.id, counted: 2 },
          ])
          .execute();
      }),
    ).toMatch(/unique|duplicate/i);
    expect(
      await refusal(db, (trx) =>
        trx
          .insertInto('count_tasks')
          .values({ ...task('in_arbeit'), claimed_by: null })
          .execute(),
      ),
    ).toMatch(/check/i);
  });

  it('holds at most one task in work per counter', async () => {
    const other = await db
      .selectFrom('locations')
      .select('id')
      .where('id', '<>', locationId)
      .orderBy('code', 'desc')
      .executeTakeFirstOrThrow();
    expect(
      await refusal(db, (trx) =>
        trx
          .insertInto('count_tasks')
          .values([task('in_arbeit'), { ...task('in_arbeit'), location_id: other.id }])
          .execute(),
      ),
    ).toMatch(/count_tasks_one_in_work_per_counter/);
  });

  it('seeds the four classes with their frequency and tolerance', async () => {
    const classes = await db
      .selectFrom('count_classes')
      .select([
        'abc_class',
        'frequency_days',
        'tolerance_pieces',
        sql<number>`tolerance_percent::float8`.as('percent'),
      ])
      .orderBy('abc_class')
      .execute();
    expect(classes).toEqual([
      { abc_class: '-', frequency_days: 365, tolerance_pieces: 2, percent: 5 },
      { abc_class: 'A', frequency_days: 30, tolerance_pieces: 0, percent: 0 },
      { abc_class: 'B', frequency_days: 90, tolerance_pieces: 2, percent: 2 },
      { abc_class: 'C', frequency_days: 365, tolerance_pieces: 5, percent: 5 },
    ]);
  });

  it('refuses a plan without what its kind selects by', async () => {
    const plan = { name: 'Test', created_by: userId };
    expect(
      await refusal(db, (trx) =>
        trx
          .insertInto('count_plans')
          .values({ ...plan, kind: 'bereich' })
          .execute(),
      ),
    ).toMatch(/check/i);
    expect(
      await refusal(db, (trx) =>
        trx
          .insertInto('count_plans')
          .values({ ...plan, kind: 'nicht_gezaehlt' })
          .execute(),
      ),
    ).toMatch(/check/i);
    expect(
      await refusal(db, (trx) =>
        trx
          .insertInto('count_plans')
          .values({ ...plan, kind: 'abc' })
          .execute(),
      ),
    ).toMatch(/check/i);
    expect(
      await refusal(db, (trx) =>
        trx
          .insertInto('count_plans')
          .values({ ...plan, kind: 'bereich', location_from: 'A-01', location_to: 'A-09' })
          .execute(),
      ),
    ).toBe('');
  });

  it('goes down and up again', async () => {
    await permanentInventory.down(db as never);
    const tables = await sql<{ n: number }>`select count(*)::int as n from information_schema.tables
      where table_name in ('count_plans', 'count_tasks', 'count_lines', 'count_classes', 'location_abc')`.execute(
      db,
    );
    expect(tables.rows[0]?.n).toBe(0);
    await permanentInventory.up(db as never);
    const classes = await db.selectFrom('count_classes').select('abc_class').execute();
    expect(classes).toHaveLength(4);
    await db.selectFrom('movements').select('count_task_id').limit(1).execute();
  });
});
