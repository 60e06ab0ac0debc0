import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loginPassword, logout } from '../../src/contract/auth.ts';
import { moveArticle } from '../../src/contract/umbuchung.ts';
import { PgliteMaintenance, STEP_BUDGET_MS, type StepDone } from '../../src/server/db/maintenance.ts';
import type { Database } from '../../src/server/db/schema.ts';
import { housekeeping } from '../../src/server/housekeeping.ts';
import { backgroundStep } from '../../src/server/http/background-step.ts';
import { loginDemo, startTestApp, type TestApp } from '../support/app.ts';
import { caller } from '../support/endpoint-call.ts';
import { articleId, locationId } from '../support/stock.ts';

/**
 * A long life of the embedded database at a small scale (decision 29): 24 days of a small site — three
 * shifts a day, each logging in (and the last one out), a wrong password now and then, 8 rebookings an hour
 * through the real server — with the hourly housekeeping and the maintenance round after it, the clock moved
 * (PGlite's now() reads JavaScript's Date, which the test sets). Beside the application's tables, a control
 * copy of the exactly-once records in a schema of its own gets the same rows and the same deletes and no
 * maintenance: it shows what the test would find without it.
 */
const DAYS = 24;
const BOOKINGS_PER_HOUR = 8;
const SHIFTS = [6, 14, 22];
const START = Date.UTC(2027, 0, 4, 0, 0, 0);
const HOUR = 60 * 60 * 1000;

interface Size {
  heap: number;
  indexes: number;
  rows: number;
}

describe('the embedded database over 24 days of bookings, housekeeping and maintenance', () => {
  let t: TestApp;
  let db: Kysely<Database>;
  const sizes = new Map<number, Record<string, Size>>();
  const steps: StepDone[] = [];
  let firstRound = 0;

  const sizeOf = async (table: string): Promise<Size> => {
    const { rows } = await sql<Size>`select pg_table_size(${table}::regclass)::int as heap,
        pg_indexes_size(${table}::regclass)::int as indexes,
        (select count(*) from ${sql.raw(table)})::int as rows`.execute(db);
    return rows[0] as Size;
  };
  const tables = [
    'idempotency',
    'control.idempotency',
    'sessions',
    'attempt_counters',
    'failed_logins',
    'stock',
    'movements',
  ];

  beforeAll(async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(START);
    t = await startTestApp('pglite', {}, { clock: () => Date.now() });
    db = t.database.db;
    const maintenance = new PgliteMaintenance({
      db,
      runUnit: backgroundStep(t.app.admission),
      floorQuiet: () => true, // between the test's hours nothing is in line
      clock: () => Date.now(),
    });
    await sql`create schema control`.execute(db);
    await sql`create table control.idempotency (like public.idempotency including all)`.execute(db);
    await sql`analyze control.idempotency`.execute(db);
    steps.push(...(await maintenance.round()));
    firstRound = steps.length;
    await prepareLookups(db);

    const from = await locationId(db, 'A-01-01-01');
    const to = await locationId(db, 'A-01-01-02');
    const article = await articleId(db, '100001');
    let token = await loginDemo(t.app);
    for (let hour = 0; hour < DAYS * 24; hour++) {
      const hourStart = START + hour * HOUR;
      vi.setSystemTime(hourStart);
      if (SHIFTS.includes(hour % 24)) {
        // A shift change: a mistyped password, then the new shift's login; the night shift logs out.
        await caller(t.app, null)(loginPassword, { body: { username: 'demo', password: 'falsch' } });
        // (Until issue 40 this was a hand-written POST, which met no route: the logout is a GET, and no login ended.)
        if (hour % 24 === 6) expect((await caller(t.app, token)(logout)).statusCode).toBe(200);
        token = await loginDemo(t.app);
      }
      for (let i = 0; i < BOOKINGS_PER_HOUR; i++) {
        vi.setSystemTime(hourStart + (i + 1) * (HOUR / (BOOKINGS_PER_HOUR + 1)));
        const [a, b] = i % 2 === 0 ? [from, to] : [to, from];
        const response = await caller(t.app, token)(moveArticle, {
          body: { from: a, article, to: b, amount: 1 },
        });
        expect(response.statusCode, response.body).toBe(200);
      }
      vi.setSystemTime(hourStart + HOUR - 1000);
      await sql`insert into control.idempotency select * from public.idempotency i
        where not exists (select 1 from control.idempotency c where c.key = i.key)`.execute(db);
      await sql`delete from control.idempotency where created_at < now() - interval '7 days'`.execute(db);
      await housekeeping(db, { sessionIdleMinutes: 720 });
      steps.push(...(await maintenance.round()));
      if (hour % 24 === 23) {
        const day: Record<string, Size> = {};
        for (const table of tables) day[table] = await sizeOf(table);
        sizes.set(Math.floor(hour / 24) + 1, day);
      }
    }
  }, 600_000);
  afterAll(async () => {
    await t?.close();
    vi.useRealTimers();
  });

  const at = (day: number, table: string): Size => {
    const size = sizes.get(day)?.[table];
    if (!size) throw new Error(`no size of ${table} on day ${day}`);
    return size;
  };

  it('keeps the exactly-once records, sessions, counters and stock at the size of their live rows', () => {
    // The exactly-once records live 7 days: from day 8 on their count is steady, and so must be their space.
    // The bound: at most 25 % (and 16 KiB) above the size at day 12, heap and indexes each.
    for (const table of ['idempotency', 'sessions', 'attempt_counters', 'failed_logins', 'stock']) {
      const steady = at(12, table);
      const last = at(DAYS, table);
      expect(last.heap, `${table} heap`).toBeLessThanOrEqual(steady.heap * 1.25 + 16_384);
      expect(last.indexes, `${table} indexes`).toBeLessThanOrEqual(steady.indexes * 1.25 + 16_384);
    }
    expect(at(DAYS, 'idempotency').rows).toBeLessThanOrEqual(8 * 24 * BOOKINGS_PER_HOUR);
    // Without maintenance the same rows and deletes take ever more room: the control copy grew on.
    expect(at(DAYS, 'control.idempotency').rows).toBe(at(DAYS, 'idempotency').rows);
    expect(at(DAYS, 'control.idempotency').heap).toBeGreaterThan(2 * at(DAYS, 'idempotency').heap);
    expect(at(DAYS, 'control.idempotency').heap).toBeGreaterThan(1.5 * at(12, 'control.idempotency').heap);
  });

  it('lets the journal grow with its rows only', () => {
    const perRow = (day: number) => at(day, 'movements').heap / at(day, 'movements').rows;
    expect(at(DAYS, 'movements').rows).toBeGreaterThan(at(12, 'movements').rows);
    expect(perRow(DAYS)).toBeLessThanOrEqual(perRow(12) * 1.1);
  });

  it('keeps the plans on their indexes after the tables grew from empty', async () => {
    await db.connection().execute(async (session) => {
      const plan = async (statement: string) =>
        (await sql<{ 'QUERY PLAN': string }>`explain ${sql.raw(statement)}`.execute(session)).rows
          .map((r) => r['QUERY PLAN'])
          .join('\n');
      expect(await plan("execute record_answer(200, '{}', gen_random_uuid())")).toContain(
        'Index Scan using idempotency_pkey',
      );
      expect(await plan('execute journal_page(now(), 0)')).toContain(
        'Index Scan Backward using movements_at_id_idx',
      );
      expect(await plan('execute stock_of(1, 1)')).toMatch(/Index Scan|Bitmap Index Scan/);
      // The control copy, analysed while empty and never again, reads all of it for one key.
      expect(await plan("execute control_record(200, '{}', gen_random_uuid())")).toContain('Seq Scan');
    });
  });

  it(`cut the work into steps: 99 % within ${STEP_BUDGET_MS} ms, none as long as the overload limit`, () => {
    // The first round is a fresh database's first analyse of every table with rows (cold, before the first
    // booking); the rest ran between bookings. Times are wall-clock on a shared machine (a single step took
    // up to 187 ms while others' tests loaded it), hence a percentile, and for the longest the limit a
    // handheld may wait (OVERLOAD_MAX_WAIT_MS's default).
    const longest = steps.slice(firstRound).reduce((a, b) => (b.ms > a.ms ? b : a));
    const serving = steps
      .slice(firstRound)
      .map((s) => s.ms)
      .sort((a, b) => a - b);
    const p99 = serving[Math.floor(serving.length * 0.99)] ?? Number.NaN;
    console.info(
      `maintenance: ${steps.length} steps, the first round ${firstRound}; while serving p99 ${p99.toFixed(1)} ms, longest ${longest.ms.toFixed(1)} ms (${JSON.stringify(longest.step)})`,
    );
    expect(serving.length).toBeGreaterThan(DAYS * 10);
    expect(p99).toBeLessThanOrEqual(STEP_BUDGET_MS);
    expect(longest.ms).toBeLessThan(500);
  });
});

/**
 * The statements whose plans are checked at the end, prepared now — while the exactly-once records are
 * none (the control copy's analysed so) — and each run six times, so PostgreSQL settles on one plan for them,
 * as it does for the server's own prepared statements. Only a vacuum or analyse of the table makes it plan
 * them again.
 */
async function prepareLookups(db: Kysely<Database>): Promise<void> {
  await db.connection().execute(async (session) => {
    await sql`prepare record_answer(int, jsonb, uuid) as
      update idempotency set status_code = $1, response = $2 where key = $3`.execute(session);
    await sql`prepare control_record(int, jsonb, uuid) as
      update control.idempotency set status_code = $1, response = $2 where key = $3`.execute(session);
    await sql`prepare journal_page(timestamptz, int8) as
      select * from movements where (at, id) < ($1, $2) order by at desc, id desc limit 50`.execute(session);
    await sql`prepare stock_of(int, int) as
      select amount from stock where location_id = $1 and article_id = $2`.execute(session);
    for (let i = 0; i < 6; i++) {
      await sql`execute record_answer(200, '{}', gen_random_uuid())`.execute(session);
      await sql`execute control_record(200, '{}', gen_random_uuid())`.execute(session);
      await sql`execute journal_page(now(), 0)`.execute(session);
      await sql`execute stock_of(1, 1)`.execute(session);
    }
  });
}
