import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type DifferenzRow,
  differenzBuchen,
  differenzen,
  differenzNachzaehlen,
  type PlanRow,
  type TaskRow,
  type VeraltetRow,
  zaehlauftraege,
  zaehlauftraegeAnlegen,
  zaehlauftragVerwerfen,
  zaehlauftragZuweisen,
  zaehlplaene,
  zaehlplanAendern,
  zaehlplanAnlegen,
  zaehlplanEntfernen,
} from '../../src/contract/leitstand/inventur.ts';
import { createStepSize, createTasks } from '../../src/server/features/leitstand/inventur/create-tasks.ts';
import type { Steps } from '../../src/server/http/back-office.ts';
import { demo } from '../../src/server/seed/demo.ts';
import { loginAs, startTestApp, type TestApp, userIdOf } from '../support/app.ts';
import { databaseKinds } from '../support/db.ts';
import { type BodyOf, caller } from '../support/endpoint-call.ts';

const form = (over: Record<string, unknown> = {}): BodyOf<typeof zaehlplanAnlegen> => ({
  name: 'Gang IV-A',
  art: 'bereich',
  von: 'IV-A-001',
  bis: 'IV-A-010',
  tage: null,
  klasse: null,
  faelligInTagen: 2,
  benutzerId: null,
  ...over,
});

/** A day in the site's time zone (testConfig: Europe/Berlin), `plus` days from today, as 'YYYY-MM-DD'. */
const berlinDay = (plus = 0) =>
  new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Berlin' }).format(
    new Date(Date.now() + plus * 86_400_000),
  );
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();

/** Steps without a gate, for the service called directly (a test of its slices). */
const direct: Steps = { run: (work) => work() };

describe.each(databaseKinds())('Permanente Inventur in the Leitstand on %s', (kind) => {
  let t: TestApp;
  let worker: string;
  let lead: string;
  let leadId: number;
  let workerId: number;
  /** Counters of their own: a recount must go to somebody who has not counted the location. */
  const counterIds: Record<'eva' | 'paul' | 'rita', number> = { eva: 0, paul: 0, rita: 0 };

  beforeAll(async () => {
    t = await startTestApp(kind);
    worker = await loginAs(t.app, demo.passwordUser);
    lead = await loginAs(t.app, demo.leadUser);
    leadId = await userIdOf(t.database.db, demo.leadUser.username);
    workerId = await userIdOf(t.database.db, demo.passwordUser.username);
    // Locations of this file's own (prefix IV-): A range, B not counted, C zero/corrected, D abc, P paging.
    await sql`
      insert into locations (code, name, lagertyp)
      select 'IV-' || g.aisle || '-' || lpad(n::text, 3, '0'), '', 'Fach'
      from (values ('A', 30), ('B', 4), ('C', 5), ('D', 4), ('P', 60), ('S', 30)) as g(aisle, size),
           generate_series(1, g.size) n`.execute(t.database.db);
    for (const name of ['eva', 'paul', 'rita'] as const) {
      const row = await t.database.db
        .insertInto('users')
        .values({ name: `Zähler ${name}`, username: `zaehler-${name}`, role: 'mitarbeiter' })
        .returning('id')
        .executeTakeFirstOrThrow();
      counterIds[name] = row.id;
    }
  });
  afterAll(() => t.close());

  const db = () => t.database.db;
  const as = (token = lead) => caller(t.app, token);
  const planList = async () => (await as()(zaehlplaene)).json<{ data: { plaene: PlanRow[] } }>().data.plaene;
  const planId = async (name: string) => {
    const row = (await planList()).find((p) => p.name === name);
    if (!row) throw new Error(`no plan ${name}`);
    return row.id;
  };
  const create = async (over: Record<string, unknown>) => {
    const res = await as()(zaehlplanAnlegen, { body: form(over) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ id: number }>().id;
  };
  const makeTasks = (id: number, key?: string) =>
    as()(zaehlauftraegeAnlegen, { params: { id }, body: {}, ...(key ? { key } : {}) });
  const locationId = async (code: string) =>
    (await db().selectFrom('locations').select('id').where('code', '=', code).executeTakeFirstOrThrow()).id;
  /** The codes of the tasks a plan made, in code order. */
  const tasksOf = async (plan: number) =>
    (
      await db()
        .selectFrom('count_tasks as t')
        .innerJoin('locations as l', 'l.id', 't.location_id')
        .select('l.code')
        .where('t.plan_id', '=', plan)
        .orderBy('l.code')
        .execute()
    ).map((r) => r.code);
  const auditOf = (prefix: string) =>
    db().selectFrom('audit_log').selectAll().where('action', 'like', `${prefix}%`).orderBy('id').execute();
  const taskList = async (query: Record<string, string>) =>
    (await as()(zaehlauftraege, { query })).json<{
      data: { auftraege: TaskRow[]; gesamt: number; seite: number };
    }>().data;
  /** A count task straight into the table (the handheld's side is helper A's, tested there). */
  const insertTask = async (code: string, values: Record<string, unknown>) =>
    (
      await db()
        .insertInto('count_tasks')
        .values({
          location_id: await locationId(code),
          reason: 'plan',
          due_on: berlinDay(),
          ...values,
        } as never)
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;

  it('refuses a worker’s login every call of the pages (403), and changes nothing', async () => {
    const calls = [
      await as(worker)(zaehlplaene),
      await as(worker)(zaehlplanAnlegen, { body: form() }),
      await as(worker)(zaehlplanAendern, { params: { id: 1 }, body: form() }),
      await as(worker)(zaehlplanEntfernen, { params: { id: 1 }, body: {} }),
      await as(worker)(zaehlauftraegeAnlegen, { params: { id: 1 }, body: {} }),
      await as(worker)(zaehlauftraege),
      await as(worker)(zaehlauftragZuweisen, { params: { id: 1 }, body: { benutzerId: null } }),
      await as(worker)(zaehlauftragVerwerfen, { params: { id: 1 }, body: {} }),
      await as(worker)(differenzen),
      await as(worker)(differenzBuchen, { params: { id: 1 }, body: {} }),
      await as(worker)(differenzNachzaehlen, { params: { id: 1 }, body: { benutzerId: null } }),
    ];
    expect(calls.map((r) => r.statusCode)).toEqual(calls.map(() => 403));
    expect(
      await db().selectFrom('count_plans').select('id').where('name', '=', 'Gang IV-A').execute(),
    ).toEqual([]);
  });

  it('creates, edits in place and removes a plan, each change audited; its open tasks stay without a plan', async () => {
    const created = await as()(zaehlplanAnlegen, {
      body: form({ name: 'Ecke', von: ' IV-A-001 ', bis: 'IV-A-003', benutzerId: counterIds.eva }),
    });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json()).toMatchObject({ success: true, message: 'Zählplan „Ecke“ angelegt.' });
    const id = created.json<{ id: number }>().id;
    expect((await planList()).find((p) => p.id === id)).toMatchObject({
      name: 'Ecke',
      art: 'bereich',
      von: 'IV-A-001',
      bis: 'IV-A-003',
      tage: null,
      klasse: null,
      faelligInTagen: 2,
      benutzer: 'Zähler eva',
      offen: 0,
      angelegtVon: demo.leadUser.name,
    });
    expect((await auditOf('countPlan.create')).at(-1)).toMatchObject({
      user_id: leadId,
      subject: 'Ecke',
      detail: {
        name: 'Ecke',
        art: 'Bereich (Lagerplätze von–bis)',
        von: 'IV-A-001',
        zugewiesen: 'Zähler eva',
      },
    });

    // Edited in place: only what changed is journalled, before → after; unused fields of the kind are dropped.
    const edited = await as()(zaehlplanAendern, {
      params: { id },
      body: form({
        name: 'Ecke',
        art: 'nicht_gezaehlt',
        von: 'IV-A-001',
        bis: 'IV-A-003',
        tage: 30,
        klasse: 'A',
      }),
    });
    expect(edited.json()).toEqual({ success: true, message: 'Zählplan „Ecke“ gespeichert.' });
    expect((await planList()).find((p) => p.id === id)).toMatchObject({
      art: 'nicht_gezaehlt',
      tage: 30,
      klasse: null,
      benutzer: null,
    });
    const [update] = await auditOf('countPlan.update');
    expect(update?.detail).toEqual({
      art: 'Bereich (Lagerplätze von–bis) → Seit Tagen nicht gezählt',
      tage: '– → 30',
      zugewiesen: 'Zähler eva → –',
    });
    // Saved unchanged: nothing journalled.
    await as()(zaehlplanAendern, {
      params: { id },
      body: form({ name: 'Ecke', art: 'nicht_gezaehlt', von: 'IV-A-001', bis: 'IV-A-003', tage: 30 }),
    });
    expect(await auditOf('countPlan.update')).toHaveLength(1);

    // Removed with its three open tasks: they stay, open, without a plan; the answer says so.
    expect((await makeTasks(id)).json()).toMatchObject({ angelegt: 3, uebersprungen: 0 });
    const taskIds = (
      await db().selectFrom('count_tasks').select('id').where('plan_id', '=', id).execute()
    ).map((r) => r.id);
    const removed = await as()(zaehlplanEntfernen, { params: { id }, body: {} });
    expect(removed.json()).toEqual({
      success: true,
      message: 'Zählplan „Ecke“ entfernt; 3 offene Zählaufträge bleiben.',
    });
    const kept = await db()
      .selectFrom('count_tasks')
      .select(['plan_id', 'status'])
      .where('id', 'in', taskIds)
      .execute();
    expect(kept).toEqual(taskIds.map(() => ({ plan_id: null, status: 'offen' })));
    expect((await auditOf('countPlan.remove'))[0]).toMatchObject({
      subject: 'Ecke',
      detail: { offeneAuftraege: 3 },
    });
    const again = await as()(zaehlplanEntfernen, { params: { id }, body: {} });
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe('Diesen Zählplan gibt es nicht mehr. Bitte die Seite neu laden.');
    await db().updateTable('count_tasks').set({ status: 'verworfen' }).where('id', 'in', taskIds).execute();
  });

  it('refuses a plan that breaks a rule, in German, and writes nothing', async () => {
    const cases: [Record<string, unknown>, number, string][] = [
      [{ name: '' }, 400, 'Name fehlt.'],
      [
        { von: null, bis: null },
        400,
        'Für einen Bereich bitte „Lagerplatz von“ und „Lagerplatz bis“ angeben.',
      ],
      [{ bis: '' }, 400, 'Für einen Bereich bitte „Lagerplatz von“ und „Lagerplatz bis“ angeben.'],
      [{ von: 'IV-A-009', bis: 'IV-A-002' }, 400, '„Lagerplatz von“ muss vor „Lagerplatz bis“ liegen.'],
      [
        { art: 'nicht_gezaehlt', von: 'IV-A-001', bis: null },
        400,
        'Bitte „Lagerplatz von“ und „Lagerplatz bis“',
      ],
      [{ art: 'nicht_gezaehlt', tage: null }, 400, 'Bitte die Tage angeben.'],
      [{ art: 'null_oder_korrigiert', tage: 0 }, 400, 'Tage'],
      [{ art: 'abc', klasse: null }, 400, 'Bitte die ABC-Klasse angeben.'],
      [{ art: 'abc', klasse: 'D' }, 400, 'ABC-Klasse'],
      [{ art: 'irgendwas' }, 400, 'Art'],
      [{ faelligInTagen: -1 }, 400, 'Fällig in Tagen'],
      [{ benutzerId: 999_999 }, 400, 'Diesen Benutzer gibt es nicht oder er ist deaktiviert.'],
    ];
    for (const [over, status, message] of cases) {
      const res = await as()(zaehlplanAnlegen, { body: form({ name: 'Falsch', ...over }) });
      expect(res.statusCode, JSON.stringify(over)).toBe(status);
      expect(res.json().message, JSON.stringify(over)).toContain(message);
    }
    expect((await planList()).filter((p) => p.name === 'Falsch' || p.name === '')).toEqual([]);
    await create({ name: 'Doppelt' });
    const duplicate = await as()(zaehlplanAnlegen, { body: form({ name: 'Doppelt' }) });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json().message).toBe('Einen Zählplan „Doppelt“ gibt es schon.');
    const missing = await makeTasks(999_999);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe('Diesen Zählplan gibt es nicht mehr. Bitte die Seite neu laden.');
    await as()(zaehlplanEntfernen, { params: { id: await planId('Doppelt') }, body: {} });
  });

  it('makes a task per location of a range, due today + N days, for the assignee; again: all skipped as open', async () => {
    const id = await create({
      name: 'Gang IV-A',
      von: 'IV-A-001',
      bis: 'IV-A-010',
      benutzerId: counterIds.paul,
    });
    const first = await makeTasks(id);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({
      success: true,
      message: '10 Zählaufträge angelegt.',
      angelegt: 10,
      uebersprungen: 0,
    });
    const codes = Array.from({ length: 10 }, (_, i) => `IV-A-${String(i + 1).padStart(3, '0')}`);
    expect(await tasksOf(id)).toEqual(codes);
    const rows = await db()
      .selectFrom('count_tasks')
      .select(['reason', 'status', sql<string>`due_on::text`.as('due'), 'assigned_user_id'])
      .where('plan_id', '=', id)
      .execute();
    expect(new Set(rows.map((r) => JSON.stringify(r)))).toEqual(
      new Set([
        JSON.stringify({
          reason: 'plan',
          status: 'offen',
          due: berlinDay(2),
          assigned_user_id: counterIds.paul,
        }),
      ]),
    );
    expect((await auditOf('countTasks.create')).at(-1)).toMatchObject({
      user_id: leadId,
      subject: 'Gang IV-A',
      detail: { angelegt: 10, uebersprungen: 0, faellig: berlinDay(2) },
    });
    expect((await planList()).find((p) => p.id === id)?.offen).toBe(10);

    // Again: every location has its task open. A counted (posted) one gets a new task, an open one none.
    await db()
      .updateTable('count_tasks')
      .set({ status: 'gebucht', finished_at: new Date().toISOString() })
      .where('location_id', '=', await locationId('IV-A-001'))
      .execute();
    const again = await makeTasks(id);
    expect(again.json()).toEqual({
      success: true,
      message: '1 Zählauftrag angelegt, 9 übersprungen (schon offen).',
      angelegt: 1,
      uebersprungen: 9,
    });
  });

  it('makes no task for a plan whose assignee was switched off since (409 in German): nobody else would get it', async () => {
    const name = 'Für Rita';
    const id = await create({ name, von: 'IV-A-011', bis: 'IV-A-012', benutzerId: counterIds.rita });
    await db().updateTable('users').set({ active: false }).where('id', '=', counterIds.rita).execute();
    try {
      const refused = await makeTasks(id);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toBe(
        'Der Plan ist einem deaktivierten Benutzer zugewiesen – bitte zuerst „Zuweisen an“ im Plan ändern.',
      );
      expect(await tasksOf(id)).toEqual([]);
    } finally {
      await db().updateTable('users').set({ active: true }).where('id', '=', counterIds.rita).execute();
    }
    expect((await makeTasks(id)).json()).toMatchObject({ angelegt: 2 });
    await db().updateTable('count_tasks').set({ status: 'verworfen' }).where('plan_id', '=', id).execute();
  });

  it('makes tasks for locations not counted for N days: never, or last counted before (a task or a free Inventur)', async () => {
    const b2 = await locationId('IV-B-002');
    await insertTask('IV-B-001', { status: 'gebucht', finished_at: daysAgo(5) });
    await insertTask('IV-B-003', { status: 'gebucht', finished_at: daysAgo(40) });
    const article = (await db().selectFrom('articles').select('id').limit(1).executeTakeFirstOrThrow()).id;
    await db()
      .insertInto('inventory_counts')
      .values({
        location_id: b2,
        article_id: article,
        counted: 1,
        previous: 1,
        user_id: workerId,
        at: daysAgo(5),
      })
      .execute();
    const id = await create({
      name: 'Lange nicht gezählt',
      art: 'nicht_gezaehlt',
      von: 'IV-B-001',
      bis: 'IV-B-004',
      tage: 30,
    });
    const res = await makeTasks(id);
    expect(res.json()).toMatchObject({ angelegt: 2, uebersprungen: 0 });
    expect(await tasksOf(id)).toEqual(['IV-B-003', 'IV-B-004']);
  });

  it('makes tasks for locations whose stock went to zero or was corrected in the last N days', async () => {
    const [c1, c2, c3, c4, c5] = await Promise.all([1, 2, 3, 4, 5].map((n) => locationId(`IV-C-00${n}`)));
    const article = (await db().selectFrom('articles').select('id').limit(1).executeTakeFirstOrThrow()).id;
    const move = (values: Record<string, unknown>) =>
      db()
        .insertInto('movements')
        .values({ article_id: article, amount: 1, charge: null, user_id: workerId, ...values } as never)
        .execute();
    // c1: corrected 3 days ago. c2: its last piece left 2 days ago (no stock now). c3: a piece left, some stay.
    // c4: corrected 20 days ago. c5: corrected 1 day ago by a count task's own posting (that count is the count).
    await move({ kind: 'korrektur', to_location_id: c1, at: daysAgo(3) });
    await move({ kind: 'umlagerung', from_location_id: c2, to_location_id: c3, at: daysAgo(2) });
    await db()
      .insertInto('stock')
      .values({ location_id: c3 as number, article_id: article, charge: null, amount: 4 })
      .execute();
    await move({ kind: 'umlagerung', from_location_id: c3, to_location_id: c1, at: daysAgo(2) });
    await move({ kind: 'korrektur', from_location_id: c4, at: daysAgo(20) });
    const posted = await insertTask('IV-C-005', { status: 'gebucht', finished_at: daysAgo(1) });
    await move({ kind: 'inventur', from_location_id: c5, at: daysAgo(1), count_task_id: posted });
    const id = await create({
      name: 'Null oder korrigiert',
      art: 'null_oder_korrigiert',
      von: 'IV-C-001',
      bis: 'IV-C-005',
      tage: 10,
    });
    expect((await makeTasks(id)).json()).toMatchObject({ angelegt: 2, uebersprungen: 0 });
    expect(await tasksOf(id)).toEqual(['IV-C-001', 'IV-C-002']);
  });

  it('makes tasks for a class’s locations not counted within its frequency (class A: 30 days)', async () => {
    const ids = await Promise.all([1, 2, 3, 4].map((n) => locationId(`IV-D-00${n}`)));
    await db()
      .insertInto('location_abc')
      .values(
        ids.map((location_id, i) => ({ location_id, abc_class: i < 3 ? ('A' as const) : ('B' as const) })),
      )
      .execute();
    await insertTask('IV-D-002', { status: 'gebucht', finished_at: daysAgo(10) });
    await insertTask('IV-D-003', { status: 'gebucht', finished_at: daysAgo(40) });
    const id = await create({ name: 'A-Klasse', art: 'abc', von: null, bis: null, klasse: 'A' });
    // Without a range every location is read; only this file's class-A ones are classed.
    expect((await makeTasks(id)).json()).toMatchObject({ angelegt: 2, uebersprungen: 0 });
    expect(await tasksOf(id)).toEqual(['IV-D-001', 'IV-D-003']);
    // Class A counted every 10 days now: the one counted 10 days ago is due too (one open already: skipped).
    await db().updateTable('count_classes').set({ frequency_days: 9 }).where('abc_class', '=', 'A').execute();
    expect((await makeTasks(id)).json()).toMatchObject({ angelegt: 1, uebersprungen: 2 });
    await db()
      .updateTable('count_classes')
      .set({ frequency_days: 30 })
      .where('abc_class', '=', 'A')
      .execute();
  });

  it('makes the tasks once per X-Idempotency-Key: the key again, also at the same moment, replays the answer', async () => {
    const id = await create({ name: 'Einmal', von: 'IV-S-001', bis: 'IV-S-010' });
    const key = randomUUID();
    const first = await makeTasks(id, key);
    expect(first.json()).toMatchObject({ angelegt: 10, uebersprungen: 0 });
    const again = await makeTasks(id, key);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());

    await as()(zaehlplanAendern, {
      params: { id },
      body: form({ name: 'Einmal', von: 'IV-S-011', bis: 'IV-S-020' }),
    });
    const other = randomUUID();
    const both = await Promise.all([makeTasks(id, other), makeTasks(id, other)]);
    expect(both.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(both[1]?.json()).toEqual(both[0]?.json());
    expect(both[0]?.json()).toMatchObject({ angelegt: 10, uebersprungen: 0 });
    expect(await tasksOf(id)).toHaveLength(20);
    expect((await auditOf('countTasks.create')).filter((a) => a.subject === 'Einmal')).toHaveLength(2);
  });

  it('reads a range larger than a step slice by slice in code order, and takes every location once', async () => {
    const id = await create({ name: 'In Scheiben', von: 'IV-S-021', bis: 'IV-S-030' });
    await insertTask('IV-S-025', { status: 'offen' });
    const answer = await createTasks(
      direct,
      db(),
      id,
      { userId: leadId, requestKey: null },
      { now: new Date(), timeZone: 'Europe/Berlin' },
      createStepSize(3),
    );
    expect(answer).toMatchObject({ angelegt: 9, uebersprungen: 1 });
    expect(await tasksOf(id)).toEqual(
      ['021', '022', '023', '024', '026', '027', '028', '029', '030'].map((n) => `IV-S-${n}`),
    );
  });

  it('lists the tasks filtered by status, plan, aisle and due day, a page at a time', async () => {
    const id = await create({ name: 'Blättern', von: 'IV-P-001', bis: 'IV-P-060', faelligInTagen: 1 });
    await makeTasks(id);
    const page1 = await taskList({ plan: String(id) });
    expect(page1.gesamt).toBe(60);
    expect(page1.auftraege).toHaveLength(50);
    expect(page1.auftraege[0]).toEqual({
      id: expect.any(Number),
      lagerplatz: 'IV-P-001',
      grund: 'plan',
      plan: 'Blättern',
      faellig: berlinDay(1),
      status: 'offen',
      zugewiesen: null,
      gezaehltVon: null,
      nichtBenutzerId: null,
    });
    const page2 = await taskList({ plan: String(id), seite: '2' });
    expect(page2.auftraege.map((a) => a.lagerplatz)).toEqual(
      Array.from({ length: 10 }, (_, i) => `IV-P-0${51 + i}`),
    );
    expect((await taskList({ platz: 'IV-P-01' })).gesamt).toBe(10);
    expect((await taskList({ plan: String(id), faelligBis: berlinDay(0) })).gesamt).toBe(0);
    expect((await taskList({ plan: String(id), faelligBis: berlinDay(1) })).gesamt).toBe(60);
    expect((await taskList({ plan: String(id), status: 'in_arbeit' })).gesamt).toBe(0);
    expect((await taskList({ plan: String(id), status: 'aktiv' })).gesamt).toBe(60);
    const bad = await as()(zaehlauftraege, { query: { status: 'irgendwas' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('Status');
  });

  it('gives an open task to a user and discards one (both audited); refuses a task in work or the one who counted', async () => {
    const open = (await taskList({ platz: 'IV-P-001' })).auftraege[0];
    if (!open) throw new Error('no task');
    const assigned = await as()(zaehlauftragZuweisen, {
      params: { id: open.id },
      body: { benutzerId: counterIds.rita },
    });
    expect(assigned.json()).toEqual({
      success: true,
      message: 'Zählauftrag IV-P-001 an Zähler rita zugewiesen.',
    });
    expect((await taskList({ platz: 'IV-P-001' })).auftraege[0]?.zugewiesen).toEqual({
      id: counterIds.rita,
      name: 'Zähler rita',
    });
    expect((await auditOf('countTask.assign')).at(-1)).toMatchObject({
      subject: 'IV-P-001',
      detail: { vorher: 'alle', nachher: 'Zähler rita' },
    });
    const freed = await as()(zaehlauftragZuweisen, { params: { id: open.id }, body: { benutzerId: null } });
    expect(freed.json().message).toBe('Zählauftrag IV-P-001 ist für alle frei.');

    // A recount must not go to who counted before.
    // (The plan's own task there is finished first: one open task per location.)
    await db()
      .updateTable('count_tasks')
      .set({ status: 'nachzaehlung', counted_by: counterIds.eva })
      .where('location_id', '=', await locationId('IV-P-002'))
      .execute();
    const recount = await insertTask('IV-P-002', { reason: 'nachzaehlung', not_user_id: counterIds.eva });
    const refused = await as()(zaehlauftragZuweisen, {
      params: { id: recount },
      body: { benutzerId: counterIds.eva },
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      'Zähler eva hat diesen Platz schon gezählt; die Nachzählung muss jemand anderes machen.',
    );

    // In work on a handheld: neither given away nor discarded.
    const p3 = (await taskList({ platz: 'IV-P-003' })).auftraege[0];
    if (!p3) throw new Error('no task');
    await db()
      .updateTable('count_tasks')
      .set({ status: 'in_arbeit', claimed_by: counterIds.paul })
      .where('id', '=', p3.id)
      .execute();
    const busy = await as()(zaehlauftragVerwerfen, { params: { id: p3.id }, body: {} });
    expect(busy.statusCode).toBe(409);
    expect(busy.json().message).toBe(
      'Zählauftrag IV-P-003 ist nicht mehr offen (in Arbeit). Bitte die Seite neu laden.',
    );
    expect((await taskList({ platz: 'IV-P-003' })).auftraege[0]?.gezaehltVon).toBe('Zähler paul');

    const discarded = await as()(zaehlauftragVerwerfen, { params: { id: open.id }, body: {} });
    expect(discarded.json()).toEqual({ success: true, message: 'Zählauftrag IV-P-001 verworfen.' });
    expect((await taskList({ platz: 'IV-P-001', status: 'verworfen' })).gesamt).toBe(1);
    expect((await auditOf('countTask.discard')).at(-1)).toMatchObject({
      user_id: leadId,
      subject: 'IV-P-001',
    });
    const twice = await as()(zaehlauftragVerwerfen, { params: { id: open.id }, body: {} });
    expect(twice.statusCode).toBe(409);
    const unknown = await as()(zaehlauftragVerwerfen, { params: { id: 999_999 }, body: {} });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('Diesen Zählauftrag gibt es nicht.');
  });

  const articleOf = async (nummer: string) =>
    (await db().selectFrom('articles').select('id').where('nummer', '=', nummer).executeTakeFirstOrThrow())
      .id;
  /** Stock of `amount` at `code`, journalled as a correction so journal and stock agree. */
  const stockAt = async (code: string, nummer: string, amount: number) => {
    const location_id = await locationId(code);
    const article_id = await articleOf(nummer);
    await db().insertInto('stock').values({ location_id, article_id, charge: null, amount }).execute();
    await db()
      .insertInto('movements')
      .values({
        kind: 'korrektur',
        article_id,
        to_location_id: location_id,
        amount,
        charge: null,
        user_id: leadId,
      })
      .execute();
  };
  const lastMovement = async () =>
    Number(
      (await sql<{ id: number }>`select coalesce(max(id), 0) as id from movements`.execute(db())).rows[0]?.id,
    );
  /** A finished count of `code` by `counter` with its lines (article nummer → [counted, book]). */
  const finishedCount = async (
    code: string,
    counter: number,
    status: string,
    lines: Record<string, [number, number]>,
    more: Record<string, unknown> = {},
  ) => {
    const id = await insertTask(code, {
      status,
      counted_by: counter,
      claimed_by: counter,
      started_at: daysAgo(0.01),
      start_movement_id: await lastMovement(),
      finished_at: new Date().toISOString(),
      ...more,
    });
    for (const [nummer, [counted, book]] of Object.entries(lines))
      await db()
        .insertInto('count_lines')
        .values({ task_id: id, article_id: await articleOf(nummer), counted, book, unexpected: book === 0 })
        .execute();
    return id;
  };
  const differenceList = async () =>
    (await as()(differenzen)).json<{ data: { differenzen: DifferenzRow[]; veraltet: VeraltetRow[] } }>().data;
  /** Stock and journal of an article at a location: what the journal adds up to must be the stock. */
  const stockAndJournal = async (code: string, nummer: string) => {
    const location = await locationId(code);
    const article = await articleOf(nummer);
    const { rows } = await sql<{ stock: string; journal: string }>`
      select (select coalesce(sum(amount), 0) from stock where location_id = ${location} and article_id = ${article}) as stock,
             (select coalesce(sum(case when to_location_id = ${location} then amount else -amount end), 0)
              from movements where article_id = ${article}
                and (to_location_id = ${location} or from_location_id = ${location})) as journal`.execute(
      db(),
    );
    return { stock: Number(rows[0]?.stock), journal: Number(rows[0]?.journal) };
  };

  it('lists a waiting recount with counted, book stock, difference in pieces and % and the earlier count', async () => {
    await stockAt('IV-A-020', '100001', 10);
    const first = await finishedCount('IV-A-020', counterIds.eva, 'nachzaehlung', { '100001': [7, 10] });
    const recount = await finishedCount(
      'IV-A-020',
      counterIds.paul,
      'wartet',
      { '100001': [8, 10], '100003': [2, 0] },
      { reason: 'nachzaehlung', recount_of: first, not_user_id: counterIds.eva },
    );
    const row = (await differenceList()).differenzen.find((d) => d.id === recount);
    expect(row).toEqual({
      id: recount,
      lagerplatz: 'IV-A-020',
      gezaehltVon: 'Zähler paul',
      gezaehltAm: expect.any(String),
      frueher: [
        {
          auftragId: first,
          status: 'nachzaehlung',
          gezaehltVon: 'Zähler eva',
          gezaehltAm: expect.any(String),
        },
      ],
      artikel: [
        {
          artikelId: await articleOf('100001'),
          nummer: '100001',
          name: demo.article.name,
          gezaehlt: 8,
          buchbestand: 10,
          differenz: -2,
          prozent: -20,
          frueher: [7],
        },
        expect.objectContaining({
          nummer: '100003',
          gezaehlt: 2,
          buchbestand: 0,
          differenz: 2,
          prozent: null,
          frueher: [0],
        }),
      ],
      gezaehltVonIds: expect.arrayContaining([counterIds.eva, counterIds.paul]),
    });
  });

  it('posts a difference once when two leads press “Buchen” at once: stock = count, journal = stock', async () => {
    const waiting = (await differenceList()).differenzen.find((d) => d.lagerplatz === 'IV-A-020');
    if (!waiting) throw new Error('no difference');
    const admin = await loginAs(t.app, demo.adminUser);
    const both = await Promise.all([
      as()(differenzBuchen, { params: { id: waiting.id }, body: {} }),
      as(admin)(differenzBuchen, { params: { id: waiting.id }, body: {} }),
    ]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const posted = both.find((r) => r.statusCode === 200);
    const refused = both.find((r) => r.statusCode === 409);
    expect(posted?.json()).toEqual({ success: true, message: 'Differenz an IV-A-020 gebucht.' });
    expect(refused?.json().message).toBe('Diese Zählung ist bereits gebucht.');
    expect(await stockAndJournal('IV-A-020', '100001')).toEqual({ stock: 8, journal: 8 });
    expect(await stockAndJournal('IV-A-020', '100003')).toEqual({ stock: 2, journal: 2 });
    const rows = await db()
      .selectFrom('movements')
      .select(['kind', 'amount'])
      .where('count_task_id', '=', waiting.id)
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { kind: 'inventur', amount: 2 },
      { kind: 'inventur', amount: 2 },
    ]);
    const task = await db()
      .selectFrom('count_tasks')
      .select(['status', 'approved_by'])
      .where('id', '=', waiting.id)
      .executeTakeFirstOrThrow();
    expect(task.status).toBe('gebucht');
    expect([leadId, await userIdOf(db(), demo.adminUser.username)]).toContain(task.approved_by);
    expect(await auditOf('countDifference.post')).toEqual([
      expect.objectContaining({
        subject: 'IV-A-020',
        detail: expect.objectContaining({ artikel: '100001: 10 → 8, 100003: 0 → 2' }),
      }),
    ]);
    expect((await differenceList()).differenzen.map((d) => d.id)).not.toContain(waiting.id);
    const again = await as()(differenzBuchen, { params: { id: waiting.id }, body: {} });
    expect(again.statusCode).toBe(409);
  });

  it('orders a recount for yet another person: refused for either earlier counter, given to a third (audited)', async () => {
    await stockAt('IV-A-021', '100001', 5);
    const first = await finishedCount('IV-A-021', counterIds.eva, 'nachzaehlung', { '100001': [1, 5] });
    const waiting = await finishedCount(
      'IV-A-021',
      counterIds.paul,
      'wartet',
      { '100001': [2, 5] },
      { reason: 'nachzaehlung', recount_of: first, not_user_id: counterIds.eva },
    );
    for (const [name, id] of [
      ['eva', counterIds.eva],
      ['paul', counterIds.paul],
    ] as const) {
      const refused = await as()(differenzNachzaehlen, { params: { id: waiting }, body: { benutzerId: id } });
      expect(refused.statusCode, name).toBe(409);
      expect(refused.json().message).toBe(
        `Zähler ${name} hat diesen Platz schon gezählt; die Nachzählung muss jemand anderes machen.`,
      );
    }
    const ordered = await as()(differenzNachzaehlen, {
      params: { id: waiting },
      body: { benutzerId: counterIds.rita },
    });
    expect(ordered.statusCode, ordered.body).toBe(200);
    expect(ordered.json()).toMatchObject({
      success: true,
      message: 'Nachzählung für IV-A-021 angelegt, fällig heute.',
    });
    const recount = await db()
      .selectFrom('count_tasks')
      .select([
        'id',
        'reason',
        'status',
        'recount_of',
        'assigned_user_id',
        'not_user_id',
        sql<string>`due_on::text`.as('due'),
      ])
      .where('id', '=', ordered.json<{ auftragId: number }>().auftragId)
      .executeTakeFirstOrThrow();
    expect(recount).toMatchObject({
      reason: 'nachzaehlung',
      status: 'offen',
      recount_of: waiting,
      assigned_user_id: counterIds.rita,
      not_user_id: counterIds.paul,
      due: berlinDay(),
    });
    expect((await differenceList()).differenzen.map((d) => d.id)).not.toContain(waiting);
    expect(await stockAndJournal('IV-A-021', '100001')).toEqual({ stock: 5, journal: 5 });
    expect((await auditOf('countDifference.recount')).at(-1)).toMatchObject({
      subject: 'IV-A-021',
      detail: { zaehlauftrag: waiting, nachzaehlung: recount.id, zugewiesen: 'Zähler rita' },
    });
    // Decided: neither posted nor recounted again.
    const late = await as()(differenzBuchen, { params: { id: waiting }, body: {} });
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe('Diese Zählung wartet nicht auf Freigabe.');
  });

  it('decides a difference once per X-Idempotency-Key: “Nachzählen” sent twice makes one recount', async () => {
    await stockAt('IV-A-023', '100001', 4);
    const first = await finishedCount('IV-A-023', counterIds.eva, 'nachzaehlung', { '100001': [0, 4] });
    const waiting = await finishedCount(
      'IV-A-023',
      counterIds.paul,
      'wartet',
      { '100001': [0, 4] },
      { reason: 'nachzaehlung', recount_of: first, not_user_id: counterIds.eva },
    );
    const key = randomUUID();
    const once = await as()(differenzNachzaehlen, {
      params: { id: waiting },
      body: { benutzerId: null },
      key,
    });
    const again = await as()(differenzNachzaehlen, {
      params: { id: waiting },
      body: { benutzerId: null },
      key,
    });
    expect(once.statusCode, once.body).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(once.json());
    const recounts = await db()
      .selectFrom('count_tasks')
      .select('id')
      .where('recount_of', '=', waiting)
      .execute();
    expect(recounts).toEqual([{ id: once.json<{ auftragId: number }>().auftragId }]);
    expect((await auditOf('countDifference.recount')).filter((a) => a.subject === 'IV-A-023')).toHaveLength(
      1,
    );
  });

  it('shows a stale count with its recount', async () => {
    const stale = await finishedCount('IV-A-022', counterIds.eva, 'veraltet', {});
    const recount = await insertTask('IV-A-022', { reason: 'nachzaehlung', recount_of: stale });
    expect((await differenceList()).veraltet.find((v) => v.id === stale)).toEqual({
      id: stale,
      lagerplatz: 'IV-A-022',
      gezaehltVon: 'Zähler eva',
      gezaehltAm: expect.any(String),
      nachzaehlung: { id: recount, status: 'offen' },
    });
  });
});
