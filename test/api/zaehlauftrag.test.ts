// Over 400 lines: the handheld's whole count task lifecycle — claim, blind count, tolerance, recount, stale,
// approval, replays, Fehlmenge and bad input — on one database per engine, each test on locations of its own.
import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { logout } from '../../src/contract/auth.ts';
import type { Endpoint } from '../../src/contract/endpoint.ts';
import { bookInventur } from '../../src/contract/inventur.ts';
import { pickClaim, pickShortage } from '../../src/contract/kommissionierung.ts';
import { cartShortage, cartStart, type Fahrt } from '../../src/contract/kommissionierwagen.ts';
import { texts } from '../../src/contract/texts.ts';
import { moveArticle } from '../../src/contract/umbuchung.ts';
import {
  zaehlauftragTexts as Z,
  type Zaehlauftrag,
  zaehlauftragAbbrechen,
  zaehlauftragAktuell,
  zaehlauftragFertig,
  zaehlauftragLeer,
  zaehlauftragNaechster,
  zaehlauftragPlatz,
  zaehlauftragZaehlung,
} from '../../src/contract/zaehlauftrag.ts';
import type { AbcClass } from '../../src/server/db/schema.ts';
import { orderRecount, postCount } from '../../src/server/domain/count-tasks.ts';
import { demo } from '../../src/server/seed/demo.ts';
import { loginAs, startTestApp, type TestApp, userIdOf } from '../support/app.ts';
import { databaseKinds } from '../support/db.ts';
import { caller } from '../support/endpoint-call.ts';
import { articleId, locationId, stockInvariantViolations, stockOf } from '../support/stock.ts';

/** What a blind count's answers must never name: the book stock, an expected amount, a difference. */
const BLIND = /bestand|book|buch|soll|erwartet|expected|previous|vorher|differenz|difference|diff/i;

function keysOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(keysOf);
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([key, inner]) => [key, ...keysOf(inner)]);
  return [];
}

/** The count calls whose answers must be blind. */
const handheld = new Set<Endpoint>([
  zaehlauftragNaechster,
  zaehlauftragAktuell,
  zaehlauftragPlatz,
  zaehlauftragZaehlung,
  zaehlauftragLeer,
  zaehlauftragFertig,
  zaehlauftragAbbrechen,
]);

describe.each(databaseKinds())('Zählauftrag API (Permanente Inventur) on %s', (kind) => {
  let t: TestApp;
  const now = Date.parse('2026-11-28T08:00:00Z');
  const today = '2026-11-28';
  let anna: string;
  let lead: string;
  let admin: string;
  let annaId: number;
  let leadId: number;
  let adminId: number;
  /** Every answer of the handheld's count calls, checked to be blind. */
  const answers: unknown[] = [];

  beforeAll(async () => {
    t = await startTestApp(kind, {}, { clock: () => now });
    anna = await loginAs(t.app, demo.passwordUser);
    lead = await loginAs(t.app, demo.leadUser);
    admin = await loginAs(t.app, demo.adminUser);
    annaId = await userIdOf(db(), demo.passwordUser.username);
    leadId = await userIdOf(db(), demo.leadUser.username);
    adminId = await userIdOf(db(), demo.adminUser.username);
  });
  afterAll(() => t.close());
  // Each test counts locations of its own: what it left open or in work is dropped, so a failing test does
  // not leave a claim that the next one's 'Nächster Zählauftrag' would find.
  afterEach(async () => {
    await db()
      .updateTable('count_tasks')
      .set({ status: 'verworfen' })
      .where('status', 'in', ['offen', 'in_arbeit'])
      .execute();
  });

  const db = () => t.database.db;
  const call = async (
    endpoint: Endpoint,
    as: string,
    body: unknown = {},
    params?: { id: number },
    key?: string,
  ) => {
    const res = await caller(t.app, as)(endpoint, { body, params, key } as never);
    if (handheld.has(endpoint)) answers.push(res.json());
    return res;
  };
  const ok = <T>(res: LightMyRequestResponse): T => {
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ data: T }>().data;
  };
  const refused = (res: LightMyRequestResponse) => [res.statusCode, res.json<{ message: string }>().message];
  const next = (as: string) => call(zaehlauftragNaechster, as);
  const platz = (as: string, id: number, lagerplatz: string) =>
    call(zaehlauftragPlatz, as, { lagerplatz }, { id });
  const zaehle = async (as: string, id: number, nummer: string, menge: number, key?: string) =>
    call(zaehlauftragZaehlung, as, { artikelId: await articleId(db(), nummer), menge }, { id }, key);
  const fertig = (as: string, id: number, key?: string) => call(zaehlauftragFertig, as, {}, { id }, key);
  const leer = (as: string, id: number) => call(zaehlauftragLeer, as, {}, { id });
  const abbrechen = (as: string, id: number) => call(zaehlauftragAbbrechen, as, {}, { id });

  /** The location holds exactly these amounts (set by free Inventur counts, journalled as any booking). */
  async function prepare(code: string, amounts: Record<string, number>): Promise<number> {
    const lp = await locationId(db(), code);
    const held = await db()
      .selectFrom('stock as s')
      .innerJoin('articles as a', 'a.id', 's.article_id')
      .select('a.nummer')
      .distinct()
      .where('s.location_id', '=', lp)
      .execute();
    for (const [nummer, amount] of [...held.map((h) => [h.nummer, 0] as const), ...Object.entries(amounts)]) {
      const res = await call(bookInventur, lead, { lp, article: await articleId(db(), nummer), amount });
      expect(res.statusCode, res.body).toBe(200);
    }
    return lp;
  }
  /** A count task of its own on `code` (as a plan's 'Aufträge anlegen' makes one). */
  async function task(
    code: string,
    options: { due?: string; assigned?: number; notUser?: number; reason?: 'plan' | 'fehlmenge' } = {},
  ): Promise<number> {
    const row = await db()
      .insertInto('count_tasks')
      .values({
        location_id: await locationId(db(), code),
        reason: options.reason ?? 'plan',
        due_on: options.due ?? today,
        assigned_user_id: options.assigned ?? null,
        not_user_id: options.notUser ?? null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }
  const taskRow = (id: number) =>
    db().selectFrom('count_tasks').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const recountOf = (id: number) =>
    db().selectFrom('count_tasks').selectAll().where('recount_of', '=', id).executeTakeFirst();
  const journalOf = (taskId: number) =>
    db()
      .selectFrom('movements')
      .select(['kind', 'amount', 'from_location_id', 'to_location_id', 'user_id'])
      .where('count_task_id', '=', taskId)
      .orderBy('id')
      .execute();
  const countLines = async () =>
    (
      await db()
        .selectFrom('count_lines')
        .select(sql<number>`count(*)::int`.as('n'))
        .executeTakeFirstOrThrow()
    ).n;
  /** Claims the next task as `as`, which must be on `code`, and scans its location. */
  async function claimAndScan(as: string, code: string): Promise<number> {
    const claimed = ok<Zaehlauftrag>(await next(as));
    expect(claimed.lagerplatz.code).toBe(code);
    ok(await platz(as, claimed.id, code));
    return claimed.id;
  }
  const setClass = async (code: string, abc: AbcClass) =>
    db()
      .insertInto('location_abc')
      .values({ location_id: await locationId(db(), code), abc_class: abc })
      .execute();

  it('demo: the plan Gang A gives the next task in walking order, and a difference waits for leitung', async () => {
    const claimed = ok<Zaehlauftrag>(await next(anna));
    expect(claimed).toEqual({
      id: expect.any(Number),
      lagerplatz: { id: await locationId(db(), 'A-01-01-01'), code: 'A-01-01-01' },
      grund: 'plan',
      faellig: expect.any(String),
      platzGescannt: false,
      positionen: [],
    });
    // The task is held: a reload resumes it.
    expect(ok<Zaehlauftrag>(await call(zaehlauftragAktuell, anna)).id).toBe(claimed.id);
    expect((await abbrechen(anna, claimed.id)).statusCode).toBe(200);
    expect(ok(await call(zaehlauftragAktuell, anna))).toBeNull();

    const { difference } = demo.inventory;
    const waiting = await db()
      .selectFrom('count_tasks as t')
      .innerJoin('locations as l', 'l.id', 't.location_id')
      .innerJoin('count_lines as c', 'c.task_id', 't.id')
      .innerJoin('users as u', 'u.id', 't.counted_by')
      .innerJoin('count_tasks as f', 'f.id', 't.recount_of')
      .innerJoin('users as fu', 'fu.id', 'f.counted_by')
      .select(['l.code', 'c.counted', 'c.book', 'u.name', 'fu.name as first'])
      .where('t.status', '=', 'wartet')
      .execute();
    expect(waiting).toEqual([
      {
        code: difference.location,
        counted: difference.recount,
        book: difference.book,
        name: demo.cardUser.name,
        first: demo.passwordUser.name,
      },
    ]);
    const planTasks = await db()
      .selectFrom('count_tasks as t')
      .innerJoin('count_plans as p', 'p.id', 't.plan_id')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('p.name', '=', demo.inventory.plan.name)
      .where('t.status', '=', 'offen')
      .executeTakeFirstOrThrow();
    // Every aisle-A shelf but the one whose difference waits.
    expect(planTasks.n).toBe(79);
    // The other tests count locations of their own: the demo's plan tasks are dropped here.
    await db()
      .updateTable('count_tasks')
      .set({ status: 'verworfen' })
      .where('status', '=', 'offen')
      .execute();
  });

  it('counts blind: an article twice adds up, an unexpected one is counted, within tolerance it posts at once', async () => {
    const lp = await prepare('C-02-02-02', { '100001': 10, '100003': 5 });
    const id = await task('C-02-02-02');
    const claimed = ok<Zaehlauftrag>(await next(anna));
    expect(claimed.id).toBe(id);
    // Articles only after the location.
    expect(refused(await zaehle(anna, id, '100001', 4))).toEqual([409, Z.locationFirst('C-02-02-02')]);
    expect(ok<Zaehlauftrag>(await platz(anna, id, 'C-02-02-02')).platzGescannt).toBe(true);
    ok(await zaehle(anna, id, '100001', 4));
    ok(await zaehle(anna, id, '100001', 6));
    ok(await zaehle(anna, id, '100003', 5));
    const counted = ok<Zaehlauftrag>(await zaehle(anna, id, '100004', 1));
    expect(counted.positionen.map((p) => [p.nummer, p.gezaehlt])).toEqual([
      ['100001', 10],
      ['100003', 5],
      ['100004', 1],
    ]);
    expect(ok(await fertig(anna, id))).toEqual({ ergebnis: 'gebucht', meldung: Z.outcome.gebucht });
    expect(await stockOf(db(), lp, await articleId(db(), '100004'))).toBe(1);
    expect(await stockOf(db(), lp, await articleId(db(), '100001'))).toBe(10);
    // Only the difference is journalled, as kind inventur with the task, by the counter.
    expect(await journalOf(id)).toEqual([
      { kind: 'inventur', amount: 1, from_location_id: null, to_location_id: lp, user_id: annaId },
    ]);
    const lines = await db()
      .selectFrom('count_lines')
      .select(['counted', 'book', 'unexpected'])
      .where('task_id', '=', id)
      .orderBy('article_id')
      .execute();
    expect(lines).toEqual([
      { counted: 10, book: 10, unexpected: false },
      { counted: 5, book: 5, unexpected: false },
      { counted: 1, book: 0, unexpected: true },
    ]);
    expect(await taskRow(id)).toMatchObject({ status: 'gebucht', counted_by: annaId, approved_by: null });
    expect(await stockInvariantViolations(db())).toBe(0);
  });

  it("claims the caller's assigned task first, then the earliest due, then walking order; one counter per task", async () => {
    const mine = await task('B-03-02-01', { due: '2026-11-30', assigned: annaId });
    const dueFirst = await task('B-03-04-04', { due: '2026-11-26' });
    const laterCode = await task('B-03-02-02', { due: '2026-11-27' });
    const earlierCode = await task('B-03-01-01', { due: '2026-11-27' });
    const admins = await task('B-03-01-02', { due: '2026-11-20', assigned: adminId });
    const drop = (ids: number[]) =>
      db().updateTable('count_tasks').set({ status: 'verworfen' }).where('id', 'in', ids).execute();
    // Assigned to the caller, though due later; else the earliest due, though last in walking order.
    expect(ok<Zaehlauftrag>(await next(anna)).id).toBe(mine);
    expect(ok<Zaehlauftrag>(await next(lead)).id).toBe(dueFirst);
    expect(ok<Zaehlauftrag>(await next(admin)).id).toBe(admins);
    for (const [as, id] of [
      [anna, mine],
      [lead, dueFirst],
      [admin, admins],
    ] as const)
      expect((await abbrechen(as, id)).statusCode).toBe(200);
    await drop([mine, dueFirst, admins]);
    // Due the same day: walking order.
    expect(ok<Zaehlauftrag>(await next(lead)).id).toBe(earlierCode);
    // 'Nächster' again resumes the own task instead of claiming a second one.
    expect(ok<Zaehlauftrag>(await next(lead)).id).toBe(earlierCode);
    // Someone else's task: refused, nothing recorded.
    expect(refused(await platz(anna, earlierCode, 'B-03-01-01'))).toEqual([
      409,
      Z.otherCounter(demo.leadUser.name),
    ]);
    expect(await taskRow(earlierCode)).toMatchObject({ claimed_by: leadId, started_at: null });
    expect((await abbrechen(lead, earlierCode)).statusCode).toBe(200);
    await drop([earlierCode]);
    // Two counters at once, one task left for them: one gets it, the other nothing.
    const both = await Promise.all([next(anna), next(lead)]);
    const got = both.map((res) => ok<Zaehlauftrag | null>(res)?.id ?? null);
    expect(got.sort()).toEqual([laterCode, null].sort());
    const holder = got[0] === laterCode ? anna : lead;
    expect((await abbrechen(holder, laterCode)).statusCode).toBe(200);
    await db().updateTable('count_tasks').set({ status: 'verworfen' }).where('id', '=', laterCode).execute();
  });

  it('lets another counter take over a task whose login is gone; its count so far is dropped', async () => {
    await prepare('B-03-03-01', { '100001': 3 });
    const id = await task('B-03-03-01');
    const gone = await loginAs(t.app, demo.passwordUser);
    await claimAndScan(gone, 'B-03-03-01');
    ok(await zaehle(gone, id, '100001', 2));
    expect((await call(logout, gone)).statusCode).toBe(200);
    // The claim's login is gone (Anna's other login does not hold it): the lead takes the task over.
    const taken = ok<Zaehlauftrag>(await next(lead));
    expect(taken).toMatchObject({ id, platzGescannt: false, positionen: [] });
    expect(refused(await zaehle(anna, id, '100001', 1))).toEqual([409, Z.otherCounter(demo.leadUser.name)]);
    ok(await platz(lead, id, 'B-03-03-01'));
    ok(await zaehle(lead, id, '100001', 3));
    expect(ok(await fertig(lead, id))).toMatchObject({ ergebnis: 'gebucht' });
    expect(await taskRow(id)).toMatchObject({ counted_by: leadId });
  });

  it('sends a count above tolerance to another counter; the recount above again waits, and is posted once', async () => {
    const lp = await prepare('B-04-01-01', { '100003': 20 });
    const first = await task('B-04-01-01');
    await claimAndScan(anna, 'B-04-01-01');
    ok(await zaehle(anna, first, '100003', 10));
    expect(ok(await fertig(anna, first))).toEqual({
      ergebnis: 'nachzaehlung',
      meldung: Z.outcome.nachzaehlung,
    });
    expect(await stockOf(db(), lp, await articleId(db(), '100003'))).toBe(20);
    expect(await journalOf(first)).toEqual([]);
    const recount = await recountOf(first);
    expect(recount).toMatchObject({
      reason: 'nachzaehlung',
      status: 'offen',
      due_on: today,
      not_user_id: annaId,
    });
    // The first counter gets none; another does.
    expect(ok(await next(anna))).toBeNull();
    const id = await claimAndScan(lead, 'B-04-01-01');
    expect(id).toBe(recount?.id);
    ok(await zaehle(lead, id, '100003', 12));
    expect(ok(await fertig(lead, id))).toEqual({ ergebnis: 'wartet', meldung: Z.outcome.wartet });
    expect(await stockOf(db(), lp, await articleId(db(), '100003'))).toBe(20);

    // Two leads approve at once: one posts, the other is told it is posted already.
    const approve = () =>
      db()
        .transaction()
        .execute((trx) => postCount(trx, id, adminId, { requestKey: null, timeZone: 'Europe/Berlin' }))
        .then(
          (outcome) => outcome,
          (error: Error) => error.message,
        );
    const outcomes = await Promise.all([approve(), approve()]);
    expect(outcomes.sort()).toEqual(['gebucht', Z.alreadyPosted].sort());
    expect(await stockOf(db(), lp, await articleId(db(), '100003'))).toBe(12);
    expect(await journalOf(id)).toEqual([
      { kind: 'inventur', amount: 8, from_location_id: lp, to_location_id: null, user_id: adminId },
    ]);
    expect(await taskRow(id)).toMatchObject({ status: 'gebucht', approved_by: adminId, counted_by: leadId });
    expect(await stockInvariantViolations(db())).toBe(0);
  });

  it("orders another recount of a waiting count for anyone but its counter ('Nachzählen')", async () => {
    const [waiting] = await db()
      .selectFrom('count_tasks')
      .select(['id', 'counted_by'])
      .where('status', '=', 'wartet')
      .execute();
    if (!waiting) throw new Error('the demo difference is not waiting');
    const { recountTaskId } = await db()
      .transaction()
      .execute((trx) => orderRecount(trx, waiting.id, leadId, { timeZone: 'Europe/Berlin' }));
    expect(await taskRow(waiting.id)).toMatchObject({ status: 'nachzaehlung' });
    expect(await taskRow(recountTaskId)).toMatchObject({
      status: 'offen',
      reason: 'nachzaehlung',
      not_user_id: waiting.counted_by,
    });
    // It is no longer waiting: neither 'Buchen' nor 'Nachzählen' again.
    await expect(
      db()
        .transaction()
        .execute((trx) =>
          postCount(trx, waiting.id, leadId, { requestKey: null, timeZone: 'Europe/Berlin' }),
        ),
    ).rejects.toThrow(Z.notWaiting);
    await db()
      .updateTable('count_tasks')
      .set({ status: 'verworfen' })
      .where('id', '=', recountTaskId)
      .execute();
  });

  it("'Buchen' of a waiting count whose location was booked since: nothing posted, a recount instead", async () => {
    const lp = await prepare('B-04-03-01', { '100003': 20 });
    const first = await task('B-04-03-01');
    await claimAndScan(anna, 'B-04-03-01');
    ok(await zaehle(anna, first, '100003', 10));
    expect(ok(await fertig(anna, first))).toMatchObject({ ergebnis: 'nachzaehlung' });
    const id = await claimAndScan(lead, 'B-04-03-01');
    ok(await zaehle(lead, id, '100003', 11));
    expect(ok(await fertig(lead, id))).toMatchObject({ ergebnis: 'wartet' });
    const moved = await call(moveArticle, admin, {
      from: lp,
      article: await articleId(db(), '100003'),
      to: await locationId(db(), 'B-04-03-02'),
      amount: 1,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const outcome = await db()
      .transaction()
      .execute((trx) => postCount(trx, id, adminId, { requestKey: null, timeZone: 'Europe/Berlin' }));
    expect(outcome).toBe('veraltet');
    expect(await journalOf(id)).toEqual([]);
    expect(await stockOf(db(), lp, await articleId(db(), '100003'))).toBe(19);
    expect(await taskRow(id)).toMatchObject({ status: 'veraltet', approved_by: null });
    expect(await recountOf(id)).toMatchObject({ status: 'offen', not_user_id: leadId });
  });

  it('makes a count stale when the location is booked during it: nothing posted, a recount instead', async () => {
    const lp = await prepare('B-04-02-01', { '100001': 10 });
    const other = await locationId(db(), 'B-04-02-02');
    const id = await task('B-04-02-01');
    await claimAndScan(anna, 'B-04-02-01');
    ok(await zaehle(anna, id, '100001', 10));
    // A rebooking out of the location between the location's scan and 'Fertig'.
    const moved = await call(moveArticle, lead, {
      from: lp,
      article: await articleId(db(), '100001'),
      to: other,
      amount: 2,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(ok(await fertig(anna, id))).toEqual({ ergebnis: 'veraltet', meldung: Z.outcome.veraltet });
    expect(await journalOf(id)).toEqual([]);
    expect(await stockOf(db(), lp, await articleId(db(), '100001'))).toBe(8);
    expect(await taskRow(id)).toMatchObject({ status: 'veraltet' });
    const recount = await recountOf(id);
    expect(recount).toMatchObject({ status: 'offen', reason: 'nachzaehlung', not_user_id: null });

    // A booking on another location leaves the recount valid: it posts.
    await claimAndScan(lead, 'B-04-02-01');
    const elsewhere = await call(moveArticle, lead, {
      from: other,
      article: await articleId(db(), '100001'),
      to: await locationId(db(), 'B-04-02-03'),
      amount: 1,
    });
    expect(elsewhere.statusCode, elsewhere.body).toBe(200);
    ok(await zaehle(lead, recount?.id ?? 0, '100001', 8));
    expect(ok(await fertig(lead, recount?.id ?? 0))).toMatchObject({ ergebnis: 'gebucht' });

    // A booking into the location (a free Inventur count finding more) makes a count stale too.
    const into = await task('B-04-02-01');
    await claimAndScan(anna, 'B-04-02-01');
    ok(await zaehle(anna, into, '100001', 8));
    const more = await call(bookInventur, lead, { lp, article: await articleId(db(), '100001'), amount: 9 });
    expect(more.statusCode, more.body).toBe(200);
    expect(ok(await fertig(anna, into))).toMatchObject({ ergebnis: 'veraltet' });
    expect(await journalOf(into)).toEqual([]);
  });

  it("judges each location by its ABC class's tolerance: pieces or percent of book stock", async () => {
    const cases: { code: string; abc: AbcClass | null; book: number; counted: number; outcome: string }[] = [
      { code: 'C-03-01-01', abc: 'A', book: 10, counted: 9, outcome: 'nachzaehlung' },
      { code: 'C-03-01-02', abc: 'B', book: 10, counted: 12, outcome: 'gebucht' },
      { code: 'C-03-01-03', abc: 'B', book: 10, counted: 13, outcome: 'nachzaehlung' },
      { code: 'C-03-01-04', abc: 'C', book: 10, counted: 6, outcome: 'gebucht' },
      // No class ('-': 2 pieces or 5 %): 4 of 100 is within the percent, 6 of 100 above both.
      { code: 'C-03-02-01', abc: null, book: 100, counted: 96, outcome: 'gebucht' },
      { code: 'C-03-02-02', abc: null, book: 100, counted: 94, outcome: 'nachzaehlung' },
    ];
    for (const c of cases) {
      await prepare(c.code, { '100001': c.book });
      if (c.abc) await setClass(c.code, c.abc);
      const id = await task(c.code);
      await claimAndScan(anna, c.code);
      ok(await zaehle(anna, id, '100001', c.counted));
      expect([c.code, ok<{ ergebnis: string }>(await fertig(anna, id)).ergebnis]).toEqual([
        c.code,
        c.outcome,
      ]);
      const recount = await recountOf(id);
      if (recount)
        await db()
          .updateTable('count_tasks')
          .set({ status: 'verworfen' })
          .where('id', '=', recount.id)
          .execute();
    }
  });

  it("'Platz leer' posts the location empty; the stock there goes out, journalled", async () => {
    const lp = await prepare('C-04-01-01', { '100001': 1 });
    const id = await task('C-04-01-01');
    expect(await claimAndScan(anna, 'C-04-01-01')).toBe(id);
    expect(ok(await leer(anna, id))).toEqual({ ergebnis: 'gebucht', meldung: Z.outcome.gebucht });
    expect(await stockOf(db(), lp, await articleId(db(), '100001'))).toBe(0);
    expect(await journalOf(id)).toEqual([
      { kind: 'inventur', amount: 1, from_location_id: lp, to_location_id: null, user_id: annaId },
    ]);
  });

  it('applies every count call exactly once: a replay changes nothing and answers the same', async () => {
    await prepare('C-04-02-01', { '100001': 5 });
    const id = await task('C-04-02-01');
    await claimAndScan(anna, 'C-04-02-01');
    const first = await zaehle(anna, id, '100001', 3, '0b0b0b0b-0000-4000-8000-000000000001');
    const again = await zaehle(anna, id, '100001', 3, '0b0b0b0b-0000-4000-8000-000000000001');
    expect(again.json()).toEqual(first.json());
    ok(await zaehle(anna, id, '100001', 2));
    const done = await fertig(anna, id, '0b0b0b0b-0000-4000-8000-000000000002');
    expect(done.json()).toMatchObject({ data: { ergebnis: 'gebucht' } });
    const replay = await fertig(anna, id, '0b0b0b0b-0000-4000-8000-000000000002');
    expect(replay.json()).toEqual(done.json());
    expect(await journalOf(id)).toEqual([]);
    expect(await taskRow(id)).toMatchObject({ status: 'gebucht' });
  });

  it("a picker's Fehlmenge makes a count task due today — once per location, single note and cart alike", async () => {
    const openThere = (location: number) =>
      db()
        .selectFrom('count_tasks')
        .select(['reason', 'due_on', 'status'])
        .where('location_id', '=', location)
        .where('status', 'in', ['offen', 'in_arbeit', 'wartet'])
        .execute();
    const place = await locationId(db(), 'B-01-02-01');
    expect(await openThere(place)).toEqual([]);
    const note = ok<{ id: number; positionen: { id: number; nummer: string }[] }>(
      await call(pickClaim, anna, { belegnr: demo.deliveryNotes.pickable }),
    );
    const line = note.positionen.find((p) => p.nummer === '100006');
    const short = await call(pickShortage, anna, {
      id: note.id,
      positionId: line?.id,
      menge: 1,
      lagerplatzId: place,
    });
    expect(short.statusCode, short.body).toBe(200);
    expect(await openThere(place)).toEqual([{ reason: 'fehlmenge', due_on: today, status: 'offen' }]);

    // The cart's Fehlmenge goes through the same rule: a location with an open task gets none more, one
    // without gets one.
    const trip = ok<Fahrt>(await call(cartStart, lead, { code: demo.pickCart.code }));
    const [withTask, without] = trip.route;
    if (!withTask || !without) throw new Error('the cart has fewer than two stops');
    if ((await openThere(withTask.lagerplatz.id)).length === 0) await task(withTask.lagerplatz.code);
    await db()
      .updateTable('count_tasks')
      .set({ status: 'verworfen' })
      .where('location_id', '=', without.lagerplatz.id)
      .where('status', '=', 'offen')
      .execute();
    for (const stop of [withTask, without]) {
      const res = await call(cartShortage, lead, {
        fahrtId: trip.id,
        positionId: stop.positionen[0]?.positionId,
        menge: 1,
        lagerplatzId: stop.lagerplatz.id,
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    expect(await openThere(withTask.lagerplatz.id)).toHaveLength(1);
    expect(await openThere(without.lagerplatz.id)).toEqual([
      { reason: 'fehlmenge', due_on: today, status: 'offen' },
    ]);
  });

  it('refuses bad input with a German message and the right status, and writes nothing', async () => {
    await prepare('C-04-03-01', { '100001': 5 });
    const id = await task('C-04-03-01', { assigned: annaId });
    const claimed = ok<Zaehlauftrag>(await next(anna));
    expect(claimed.id).toBe(id);
    const before = { lines: await countLines(), task: await taskRow(id) };
    // A location other than the task's.
    expect(refused(await platz(anna, id, 'C-04-03-02'))).toEqual([409, Z.wrongLocation('C-04-03-01')]);
    ok(await platz(anna, id, 'C-04-03-01'));
    // An unknown task, an amount of 0 or below, someone else's task, 'Fertig' with nothing counted.
    expect(refused(await platz(anna, 99_999_999, 'C-04-03-01'))).toEqual([404, Z.unknownTask]);
    for (const menge of [0, -1]) {
      const res = await zaehle(anna, id, '100001', menge);
      expect(refused(res)).toEqual([400, texts.errors.input.tooSmall(texts.inventur.amount, 1)]);
    }
    expect(refused(await zaehle(lead, id, '100001', 1))).toEqual([
      409,
      Z.otherCounter(demo.passwordUser.name),
    ]);
    expect(refused(await fertig(lead, id))).toEqual([409, Z.otherCounter(demo.passwordUser.name)]);
    expect(refused(await fertig(anna, id))).toEqual([409, Z.nothingYet]);
    expect(await countLines()).toBe(before.lines);
    ok(await zaehle(anna, id, '100001', 5));
    expect(refused(await leer(anna, id))).toEqual([409, Z.notEmpty]);
    ok(await fertig(anna, id));
    // The task is over: no more counts on it.
    expect(refused(await zaehle(anna, id, '100001', 1))).toEqual([409, Z.notInWork]);
    expect(before.task.status).toBe('in_arbeit');
  });

  it('never answers the book stock, an expected amount or a difference', () => {
    expect(answers.length).toBeGreaterThan(50);
    const named = new Set(answers.flatMap(keysOf));
    expect([...named].filter((key) => BLIND.test(key))).toEqual([]);
    // And the check sees such a key where there is one.
    expect(keysOf({ data: { positionen: [{ bestand: 3 }] } }).filter((key) => BLIND.test(key))).toEqual([
      'bestand',
    ]);
  });
});
