import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ZollwagenRow,
  zollwagenAbschliessen,
  zollwagenList,
  zollwagenTexts,
} from '../../src/contract/leitstand/zollwagen.ts';
import { texts } from '../../src/contract/texts.ts';
import * as zollpaket from '../../src/contract/zollpaket.ts';
import { demo } from '../../src/server/seed/demo.ts';
import { authHeaders, loginAs, startTestApp, type TestApp } from '../support/app.ts';
import { databaseKinds } from '../support/db.ts';
import { caller } from '../support/endpoint-call.ts';

interface ListAnswer {
  data: { offen: ZollwagenRow[]; abgeschlossen: ZollwagenRow[]; tage: number };
}

describe.each(databaseKinds())('Zollwagen in the Leitstand on %s', (kind) => {
  let t: TestApp;
  let worker: string;
  let lead: string;
  let admin: string;
  const users: Record<string, number> = {};
  const carts: Record<string, number> = {};

  beforeAll(async () => {
    t = await startTestApp(kind);
    worker = await loginAs(t.app, demo.passwordUser);
    lead = await loginAs(t.app, demo.leadUser);
    admin = await loginAs(t.app, demo.adminUser);
    for (const u of await t.database.db.selectFrom('users').select(['id', 'username']).execute())
      if (u.username) users[u.username] = u.id;
    for (const c of await t.database.db.selectFrom('carts').select(['id', 'wagennummer']).execute())
      carts[c.wagennummer] = c.id;
  });
  afterAll(() => t.close());

  const cartId = (wagennummer: string) => {
    const id = carts[wagennummer];
    if (!id) throw new Error(`no cart ${wagennummer}`);
    return id;
  };
  const list = (query: Record<string, string> = {}, as = lead) => caller(t.app, as)(zollwagenList, { query });
  const close = (id: number, as = lead, key?: string) =>
    caller(t.app, as)(zollwagenAbschliessen, { params: { id }, body: {}, key });
  /** The handheld's Zollpaket screen: scan a cart number (opens it), put a note on, or close it. */
  const openOnHandheld = async (wagennummer: string) => {
    const res = await caller(t.app, worker)(zollpaket.findWagen, { params: { wagennummer } });
    expect(res.json()).toMatchObject({ found: true, wagennummer });
  };
  const paket = (wagennummer: string, lieferschein: string, closeIt = false) =>
    caller(t.app, worker)(zollpaket.zollPaket, { body: { wagennummer, lieferschein, close: closeIt } });
  const checkWagen = async () => (await caller(t.app, worker)(zollpaket.checkWagen)).json();
  const cartRow = (wagennummer: string) =>
    t.database.db
      .selectFrom('carts')
      .select(['status', 'opened_by', 'opened_at', 'closed_at'])
      .where('wagennummer', '=', wagennummer)
      .executeTakeFirstOrThrow();
  const auditRows = () =>
    t.database.db.selectFrom('audit_log').selectAll().where('action', '=', 'zollwagen.close').execute();

  it('lists no cart while none was ever opened', async () => {
    const res = await list();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: { offen: [], abgeschlossen: [], tage: 7 } });
  });

  it('shows a cart opened on a handheld with its parcels: who, when, newest first', async () => {
    await openOnHandheld('ZW02');
    expect((await paket('ZW02', 'LS100050')).statusCode).toBe(200);
    expect((await paket('ZW02', 'LS100051')).statusCode).toBe(200);
    const { data } = (await list()).json<ListAnswer>();
    expect(data.abgeschlossen).toEqual([]);
    expect(data.offen).toHaveLength(1);
    const [cart] = data.offen;
    expect(cart).toMatchObject({
      id: cartId('ZW02'),
      wagennummer: 'ZW02',
      bezeichnung: 'Zollwagen 2',
      status: 'offen',
      geoeffnetVon: demo.passwordUser.name,
      abgeschlossenAm: null,
    });
    expect(cart?.pakete.map((p) => [p.lieferschein, p.von])).toEqual([
      ['LS100051', demo.passwordUser.name],
      ['LS100050', demo.passwordUser.name],
    ]);
    const opened = Date.parse(cart?.geoeffnetAm ?? '');
    expect(Math.abs(Date.now() - opened)).toBeLessThan(60_000);
    for (const p of cart?.pakete ?? []) expect(Date.parse(p.am)).toBeGreaterThanOrEqual(opened);
  });

  it('closes a cart left open exactly once, audited, leaving the state the handheld’s closing leaves', async () => {
    const before = await cartRow('ZW02');
    const key = randomUUID();
    const first = await close(cartId('ZW02'), lead, key);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ success: true, message: 'Wagen Zollwagen 2 abgeschlossen.' });
    const replay = await close(cartId('ZW02'), lead, key);
    expect(replay.statusCode).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json()).toEqual(first.json());

    const after = await cartRow('ZW02');
    expect(after).toMatchObject({
      status: 'abgeschlossen',
      opened_by: before.opened_by,
      opened_at: before.opened_at,
    });
    expect(after.closed_at).not.toBeNull();

    // The same as a cart closed on the handheld ('Abschließen' there): status, opener and times alike.
    await openOnHandheld('ZW03');
    expect((await paket('ZW03', '', true)).json()).toEqual({
      success: true,
      message: texts.zollpaket.cartClosed,
    });
    const onHandheld = await cartRow('ZW03');
    expect(Object.keys(onHandheld).sort()).toEqual(Object.keys(after).sort());
    expect(onHandheld).toMatchObject({ status: 'abgeschlossen', opened_by: users.demo });
    expect(onHandheld.closed_at).not.toBeNull();

    const audit = await auditRows();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      user_id: users.leitung,
      action: 'zollwagen.close',
      subject: 'ZW02',
      request_key: key,
      detail: { bezeichnung: 'Zollwagen 2', pakete: 2 },
    });
    expect(Math.abs(Date.now() - new Date(audit[0]?.at ?? 0).getTime())).toBeLessThan(60_000);
  });

  it('the handheld then sees the cart closed: no open cart, no note onto it, no second closing', async () => {
    expect(await checkWagen()).toEqual({ found: false, wagennummer: null, bezeichnung: null });
    const refused = await paket('ZW02', 'LS100052');
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      success: false,
      message: texts.zollpaket.cartNotOpen('Zollwagen 2'),
    });
    const again = await paket('ZW02', '', true);
    expect(again.json()).toMatchObject({
      success: false,
      message: texts.zollpaket.cartAlreadyClosed('Zollwagen 2'),
    });
  });

  it('refuses to close a cart closed already (409, German), and an unknown or malformed one; nothing journalled', async () => {
    const twice = await close(cartId('ZW02'));
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toMatchObject({
      success: false,
      message: 'Wagen Zollwagen 2 ist schon abgeschlossen.',
    });
    const unknown = await close(99999);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ success: false, message: zollwagenTexts.notFound(99999) });
    // A cart number where the id belongs, as no client sends it.
    const malformed = await t.app.inject({
      method: 'PUT',
      url: '/api/leitstand/zollwagen/ZW02/abschliessen',
      payload: {},
      headers: authHeaders(lead, { 'x-idempotency-key': randomUUID() }),
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ success: false, message: 'Wagen ist keine gültige Nummer.' });
    expect(await auditRows()).toHaveLength(1);
  });

  it('lists closed carts of the chosen period, latest first, each with the parcels of its last round', async () => {
    const { data } = (await list()).json<ListAnswer>();
    expect(data.offen).toEqual([]);
    expect(data.abgeschlossen.map((c) => c.wagennummer)).toEqual(['ZW03', 'ZW02']);
    const zw02 = data.abgeschlossen[1];
    expect(zw02?.pakete.map((p) => p.lieferschein)).toEqual(['LS100051', 'LS100050']);
    expect(zw02?.abgeschlossenAm).not.toBeNull();

    // Closed ten days ago: out of the default week, in a month.
    await t.database.db
      .updateTable('carts')
      .set({ closed_at: sql`now() - interval '10 days'` })
      .where('wagennummer', '=', 'ZW03')
      .execute();
    expect((await list()).json<ListAnswer>().data.abgeschlossen.map((c) => c.wagennummer)).toEqual(['ZW02']);
    const month = (await list({ tage: '30' })).json<ListAnswer>().data;
    expect(month.tage).toBe(30);
    expect(month.abgeschlossen.map((c) => c.wagennummer)).toEqual(['ZW02', 'ZW03']);
  });

  it('a cart opened again shows only the parcels put on since', async () => {
    await openOnHandheld('ZW02');
    expect((await paket('ZW02', 'LS100053')).statusCode).toBe(200);
    const { data } = (await list()).json<ListAnswer>();
    expect(data.offen.map((c) => [c.wagennummer, c.pakete.map((p) => p.lieferschein)])).toEqual([
      ['ZW02', ['LS100053']],
    ]);
    expect((await close(cartId('ZW02'))).statusCode).toBe(200);
    expect(await checkWagen()).toMatchObject({ found: false });
  });

  it('one of a handheld’s closing and the Leitstand’s at the same moment wins, the other is refused', async () => {
    await openOnHandheld('ZW04');
    const [desk, floor] = await Promise.all([close(cartId('ZW04')), paket('ZW04', '', true)]);
    expect([desk.statusCode, floor.statusCode].filter((status) => status === 200)).toHaveLength(1);
    const loser = desk.statusCode === 200 ? floor : desk;
    expect([loser.statusCode, loser.json()]).toMatchObject([
      desk.statusCode === 200 ? 400 : 409,
      { success: false, message: texts.zollpaket.cartAlreadyClosed('Zollwagen 4') },
    ]);
    expect((await cartRow('ZW04')).status).toBe('abgeschlossen');
  });

  it('refuses a bad period with a German 400', async () => {
    for (const tage of ['0', '91', 'x', '-1']) {
      const res = await list({ tage });
      expect([tage, res.statusCode]).toEqual([tage, 400]);
      expect(res.json().message).toMatch(/^Zeitraum in Tagen /);
    }
  });

  it('is for shift leads and admins: a worker gets 403 with the German message on both calls', async () => {
    expect((await list({}, admin)).statusCode).toBe(200);
    for (const res of [await list({}, worker), await close(cartId('ZW05'), worker)]) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ success: false, message: texts.errors.role.schichtleitung });
    }
    expect((await cartRow('ZW05')).status).toBe('abgeschlossen');
  });
});
