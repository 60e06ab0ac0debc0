import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MINIMA_MAX,
  type MinimumRow,
  nachschubMinima,
  nachschubMinimumSetzen,
} from '../../src/contract/leitstand/nachschub.ts';
import { AMOUNT_MAX } from '../../src/contract/limits.ts';
import { type ReplenishmentRow, replenishmentList } from '../../src/contract/nachschub.ts';
import { texts } from '../../src/contract/texts.ts';
import { demo } from '../../src/server/seed/demo.ts';
import { loginAs, startTestApp, type TestApp, userIdOf } from '../support/app.ts';
import { databaseKinds } from '../support/db.ts';
import { caller } from '../support/endpoint-call.ts';

interface ListAnswer {
  data: { minima: MinimumRow[]; weitere: boolean; unterMinimum: ReplenishmentRow[] };
}

describe.each(databaseKinds())('Nachschub minimums in the Leitstand on %s', (kind) => {
  let t: TestApp;
  let worker: string;
  let lead: string;
  let admin: string;
  let leadId: number;

  beforeAll(async () => {
    t = await startTestApp(kind);
    worker = await loginAs(t.app, demo.passwordUser);
    lead = await loginAs(t.app, demo.leadUser);
    admin = await loginAs(t.app, demo.adminUser);
    leadId = await userIdOf(t.database.db, demo.leadUser.username);
  });
  afterAll(() => t.close());

  const list = (query: Record<string, string> = {}, as = lead) =>
    caller(t.app, as)(nachschubMinima, { query });
  const minima = async (query: Record<string, string> = {}) => (await list(query)).json<ListAnswer>().data;
  const handheldList = async () =>
    (await caller(t.app, worker)(replenishmentList)).json<{ data: ReplenishmentRow[] }>().data;
  const setze = (body: Record<string, unknown>, as = lead, key?: string) =>
    caller(t.app, as)(nachschubMinimumSetzen, { body, key });
  const minimumOf = async (code: string, nummer: string) =>
    (
      await t.database.db
        .selectFrom('replenishment_minimums as m')
        .innerJoin('locations as l', 'l.id', 'm.location_id')
        .innerJoin('articles as a', 'a.id', 'm.article_id')
        .select('m.minimum')
        .where('l.code', '=', code)
        .where('a.nummer', '=', nummer)
        .executeTakeFirst()
    )?.minimum ?? 0;
  const audit = () =>
    t.database.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', 'like', 'minimum.%')
      .orderBy('id')
      .execute();
  const count = async () =>
    Number(
      (
        await t.database.db
          .selectFrom('replenishment_minimums')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const stockOf = async (code: string, nummer: string) =>
    Number(
      (
        await t.database.db
          .selectFrom('stock as s')
          .innerJoin('locations as l', 'l.id', 's.location_id')
          .innerJoin('articles as a', 'a.id', 's.article_id')
          .select((eb) => eb.fn.coalesce(eb.fn.sum<string>('s.amount'), eb.lit(0)).as('amount'))
          .where('l.code', '=', code)
          .where('a.nummer', '=', nummer)
          .executeTakeFirstOrThrow()
      ).amount,
    );

  it('lists every minimum with its location, article and the stock there, by location and article', async () => {
    const data = await minima();
    expect(data.minima.length).toBe(Math.min(await count(), MINIMA_MAX));
    expect(data.weitere).toBe((await count()) > MINIMA_MAX);
    const row = data.minima.find(
      (m) => m.lagerplatz === demo.locations.second && m.nummer === demo.article.nummer,
    );
    expect(row).toMatchObject({
      name: demo.article.name,
      minimum: 20,
      bestand: await stockOf(demo.locations.second, demo.article.nummer),
    });
    const keys = data.minima.map((m) => [m.lagerplatz, m.nummer]);
    expect(keys).toEqual(
      [...keys].sort(([l1 = '', n1 = ''], [l2 = '', n2 = '']) =>
        l1 === l2 ? (n1 < n2 ? -1 : 1) : l1 < l2 ? -1 : 1,
      ),
    );
  });

  it('shows below minimum exactly what the handheld’s Nachschub list shows', async () => {
    const data = await minima();
    expect(data.unterMinimum.length).toBeGreaterThan(0);
    expect(data.unterMinimum).toEqual(await handheldList());
  });

  it('narrows the list by a search in location code, article nummer or name; % and _ are plain characters', async () => {
    const byLocation = await minima({ suche: demo.locations.second });
    expect(byLocation.minima.length).toBeGreaterThan(0);
    expect(byLocation.minima.every((m) => m.lagerplatz.includes(demo.locations.second))).toBe(true);
    const byName = await minima({ suche: 'kugelSCHREIBER blau' });
    expect(byName.minima.some((m) => m.nummer === demo.article.nummer)).toBe(true);
    expect((await minima({ suche: '%' })).minima).toEqual([]);
    expect((await minima({ suche: 'A_01' })).minima).toEqual([]);
  });

  it('sets a new minimum by location code and a scanned article (EAN): listed, on the handheld’s list, audited', async () => {
    const location = demo.locations.empty;
    const nummer = demo.article3.nummer;
    expect(await stockOf(location, nummer)).toBe(0);
    const key = randomUUID();
    const res = await setze({ lagerplatz: location, artikel: demo.article3.ean, minimum: 5 }, lead, key);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      message: `Minimum von ${nummer} auf ${location} ist jetzt 5.`,
    });
    expect((await minima({ suche: location })).minima).toContainEqual(
      expect.objectContaining({ lagerplatz: location, nummer, minimum: 5, bestand: 0 }),
    );
    expect(await handheldList()).toContainEqual(
      expect.objectContaining({ location, nummer, amount: 0, minimum: 5, missing: 5 }),
    );
    const rows = await audit();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      user_id: leadId,
      action: 'minimum.set',
      subject: `${location} / ${nummer}`,
      detail: { lagerplatz: location, artikel: nummer, vorher: 0, nachher: 5 },
      request_key: key,
    });
    expect(Math.abs(Date.now() - new Date(rows[0]?.at ?? 0).getTime())).toBeLessThan(60_000);
  });

  it('changes a minimum exactly once for one idempotency key: one effect, one audit row', async () => {
    const key = randomUUID();
    const body = { lagerplatz: demo.locations.empty, artikel: demo.article3.nummer, minimum: 7 };
    const first = await setze(body, lead, key);
    const again = await setze(body, lead, key);
    expect(first.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(await minimumOf(demo.locations.empty, demo.article3.nummer)).toBe(7);
    const rows = (await audit()).filter((r) => r.request_key === key);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.detail).toEqual({
      lagerplatz: demo.locations.empty,
      artikel: demo.article3.nummer,
      vorher: 5,
      nachher: 7,
    });
  });

  it('removes a minimum with 0: gone from both lists, audited; removing it again changes and journals nothing', async () => {
    const location = demo.locations.empty;
    const nummer = demo.article3.nummer;
    const res = await setze({ lagerplatz: location, artikel: nummer, minimum: 0 });
    expect(res.json()).toEqual({ success: true, message: `Minimum von ${nummer} auf ${location} entfernt.` });
    expect(await minimumOf(location, nummer)).toBe(0);
    expect((await minima({ suche: location })).minima.some((m) => m.nummer === nummer)).toBe(false);
    expect((await handheldList()).some((r) => r.location === location && r.nummer === nummer)).toBe(false);
    expect((await audit()).at(-1)).toMatchObject({
      action: 'minimum.remove',
      detail: { lagerplatz: location, artikel: nummer, vorher: 7, nachher: 0 },
    });
    const journalled = (await audit()).length;
    const again = await setze({ lagerplatz: location, artikel: nummer, minimum: 0 });
    expect(again.json()).toEqual({ success: true, message: `${nummer} auf ${location} hatte kein Minimum.` });
    expect(await audit()).toHaveLength(journalled);
  });

  it('takes AMOUNT_MAX as the largest minimum', async () => {
    const res = await setze({
      lagerplatz: demo.locations.empty,
      artikel: demo.article3.nummer,
      minimum: AMOUNT_MAX,
    });
    expect(res.statusCode).toBe(200);
    expect(await minimumOf(demo.locations.empty, demo.article3.nummer)).toBe(AMOUNT_MAX);
    await setze({ lagerplatz: demo.locations.empty, artikel: demo.article3.nummer, minimum: 0 });
  });

  it('refuses unknown codes with a German 404, ambiguous ones and a bad minimum with a 400, writing nothing', async () => {
    const before = { minimums: await count(), audit: (await audit()).length };
    const base = { lagerplatz: demo.locations.empty, artikel: demo.article3.nummer, minimum: 3 };
    // An unknown location or article is 404 as on every call (SPEC §8; decision 32: it was 400 here).
    const cases: [Record<string, unknown>, number, string][] = [
      [{ ...base, lagerplatz: 'Z-99-99' }, 404, texts.lookup.locationNotFound('Z-99-99')],
      [{ ...base, artikel: '999999999' }, 404, texts.lookup.articleNotFound('999999999')],
      [{ ...base, artikel: demo.ambiguousHerstellernummer }, 400, texts.lookup.articleAmbiguous('HN-DUP')],
      [{ ...base, minimum: -1 }, 400, 'Minimum muss mindestens 0 sein.'],
      [{ ...base, minimum: AMOUNT_MAX + 1 }, 400, 'Minimum darf höchstens 1.000.000 sein.'],
      [{ ...base, minimum: 2.5 }, 400, 'Minimum muss eine ganze Zahl sein.'],
      [{ ...base, minimum: '3' }, 400, 'Minimum muss eine Zahl sein.'],
      [{ artikel: base.artikel, minimum: 3 }, 400, 'Lagerplatz fehlt.'],
      [{ ...base, artikel: '  ' }, 400, 'Artikel fehlt.'],
    ];
    for (const [body, status, message] of cases) {
      const res = await setze(body);
      expect([body, res.statusCode, res.json()]).toMatchObject([body, status, { success: false, message }]);
    }
    expect({ minimums: await count(), audit: (await audit()).length }).toEqual(before);
  });

  it('is for shift leads and admins: a worker gets 403 with the German message on both calls', async () => {
    expect((await list({}, admin)).statusCode).toBe(200);
    const before = await count();
    for (const res of [
      await list({}, worker),
      await setze({ lagerplatz: demo.locations.empty, artikel: demo.article3.nummer, minimum: 4 }, worker),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ success: false, message: texts.errors.role.schichtleitung });
    }
    expect(await count()).toBe(before);
  });
});
