import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openPglite } from './connect.ts';
import { dueSteps, EVERY_TABLE_MS, PgliteMaintenance, STEP_BUDGET_MS, type TableUse } from './maintenance.ts';

const NOW = Date.UTC(2027, 0, 4, 12);

/** A table as the catalog and the counters see it right after a vacuum and an analyse, changed by `use`. */
const table = (use: Partial<TableUse> = {}): TableUse => ({
  table: 't',
  pages: 100,
  statisticsPages: 100,
  allVisiblePages: 100,
  indexPages: 50,
  rows: 10_000,
  deadRows: 0,
  insertedSinceVacuum: 0,
  changedSinceAnalyze: 0,
  lastVacuum: NOW - 1000,
  ...use,
});
const kinds = (use: Partial<TableUse>) =>
  dueSteps([table(use)], NOW, NOW - 1000)
    .map((s) => s.kind)
    .join(' ');

describe('dueSteps', () => {
  it("is due by autovacuum's thresholds of dead, inserted and changed rows", () => {
    expect(kinds({})).toBe('');
    expect(kinds({ deadRows: 2050 })).toBe('');
    expect(kinds({ deadRows: 2051 })).toBe('vacuum database');
    expect(kinds({ insertedSinceVacuum: 3001 })).toBe('vacuum database');
    expect(kinds({ changedSinceAnalyze: 1050 })).toBe('');
    expect(kinds({ changedSinceAnalyze: 1051 })).toBe('analyze');
  });

  it('reads the catalog where the counters were lost: pages written since the last vacuum, a table never analysed, a size moved', () => {
    expect(kinds({ pages: 140, allVisiblePages: 100, statisticsPages: 140 })).toBe('vacuum database');
    expect(kinds({ pages: 130, allVisiblePages: 100, statisticsPages: 130 })).toBe('');
    expect(kinds({ rows: -1 })).toBe('analyze');
    expect(kinds({ rows: -1, pages: 0, statisticsPages: 0, allVisiblePages: 0 })).toBe('');
    expect(kinds({ pages: 119, allVisiblePages: 119 })).toBe('analyze');
    expect(kinds({ pages: 118, allVisiblePages: 118 })).toBe('');
  });

  it('vacuums every table once a day, counted from the start when it was not vacuumed since', () => {
    expect(kinds({ lastVacuum: NOW - EVERY_TABLE_MS })).toBe('vacuum database');
    expect(dueSteps([table({ lastVacuum: null })], NOW, NOW - 1000)).toEqual([]);
    expect(dueSteps([table({ lastVacuum: null })], NOW, NOW - EVERY_TABLE_MS).map((s) => s.kind)).toEqual([
      'vacuum',
      'database',
    ]);
  });

  it('estimates a vacuum by the pages it reads and, with many dead rows, the indexes it cleans', () => {
    const [frozen] = dueSteps([table({ lastVacuum: NOW - EVERY_TABLE_MS })], NOW, NOW);
    expect(frozen?.estimateMs).toBe(0);
    const [dead] = dueSteps([table({ deadRows: 5000, pages: 1000, indexPages: 4000 })], NOW, NOW);
    expect(dead?.estimateMs).toBeGreaterThan(STEP_BUDGET_MS);
  });
});

describe('PgliteMaintenance on PGlite', () => {
  let handle: DatabaseHandle;
  let clock = Date.now();
  let quiet = false;
  let maintenance: PgliteMaintenance;
  beforeAll(async () => {
    handle = await openPglite({ dataDir: null });
    await sql`create table big (id int primary key, t text)`.execute(handle.db);
    await sql`insert into big select g, md5(g::text) from generate_series(1, 40000) g`.execute(handle.db);
    await countersHandedOn(handle);
    maintenance = new PgliteMaintenance({
      db: handle.db,
      runUnit: (work) => work(),
      clock: () => clock,
      floorQuiet: () => quiet,
    });
  }, 60_000);
  afterAll(() => handle.close());

  const done = async () =>
    (await maintenance.round()).map((s) =>
      s.step.kind === 'database' ? 'database' : `${s.step.kind} ${s.step.table}`,
    );

  it('runs the short steps at once and puts a long one off until the floor is quiet, or a day has passed', async () => {
    // Never analysed, 40,000 rows: its analyse samples 30,000 (estimated 750 ms).
    expect(await done()).toEqual(['vacuum big', 'database']);
    expect(await done()).toEqual([]);
    quiet = true;
    expect(await done()).toEqual(['analyze big']);
    quiet = false;
    await sql`insert into big select g, md5(g::text) from generate_series(40001, 60000) g`.execute(handle.db);
    await countersHandedOn(handle);
    const put = await done();
    expect(put).not.toContain('analyze big');
    clock += EVERY_TABLE_MS;
    expect(await done()).toContain('analyze big');
  });
});

/** PostgreSQL hands a session's counters to pg_stat_user_tables at most once a second, after a statement. */
async function countersHandedOn(handle: DatabaseHandle): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 1100));
  await sql`select 1`.execute(handle.db);
}
