import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as inventoryList from '../../src/server/db/migrations/2026-11-28-09-inventory-list.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { databaseKinds } from '../support/db.ts';

/** The indexes the Inventurliste and the Abdeckung read along (issue 42, migration 2026-11-28-09). */
const INDEXES = ['count_tasks_posted_idx', 'inventory_counts_article_idx', 'inventory_counts_location_idx'];

describe.each(databaseKinds())('the Inventurliste’s indexes on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(() => t.close());

  const present = async () =>
    (
      await sql<{ indexname: string }>`select indexname from pg_indexes
        where indexname in (${sql.join(INDEXES)}) order by indexname`.execute(t.database.db)
    ).rows.map((r) => r.indexname);

  it('reads a date range of posted counts along the posting time, and goes down and up again', async () => {
    expect(await present()).toEqual(INDEXES);
    // The list's and the coverage's predicate is the index's expression: the planner takes it.
    await sql`set enable_seqscan = off`.execute(t.database.db);
    const { rows } = await sql<{ 'QUERY PLAN': string }>`explain
      select id from count_tasks t where t.status = 'gebucht'
        and coalesce(t.approved_at, t.finished_at) >= now() - interval '1 day'
      order by coalesce(t.approved_at, t.finished_at), t.id limit 10`.execute(t.database.db);
    await sql`reset enable_seqscan`.execute(t.database.db);
    expect(rows.map((r) => r['QUERY PLAN']).join('\n')).toContain('count_tasks_posted_idx');
    await inventoryList.down(t.database.db as never);
    expect(await present()).toEqual([]);
    await inventoryList.up(t.database.db as never);
    expect(await present()).toEqual(INDEXES);
  });
});
