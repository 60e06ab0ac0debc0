import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loginCard } from '../../src/contract/auth.ts';
import { assignBatch } from '../../src/contract/batch.ts';
import { packageContentCheat, scanPackageItem } from '../../src/contract/paketinhalt.ts';
import { buildPath } from '../../src/contract/path.ts';
import { texts } from '../../src/contract/texts.ts';
import { demo } from '../../src/server/seed/demo.ts';
import { authHeaders, loginDemo, startTestApp, type TestApp } from '../support/app.ts';
import { databaseKinds } from '../support/db.ts';
import { caller } from '../support/endpoint-call.ts';

describe.each(databaseKinds())('card checks at Batch (Lieferschein) on %s', (kind) => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp(kind, { loginMaxFailuresPerUser: 3, loginMaxFailuresPerIp: 12 });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.database.db.deleteFrom('attempt_counters').execute();
    token = await loginDemo(t.app);
  });

  // These calls come from a client address of their own, which the contract caller does not set: raw
  // requests, their paths from the contract.
  const assign = (qrcode: string, ip: string, options: { batch?: string; key?: string; as?: string } = {}) =>
    t.app.inject({
      method: 'PUT',
      url: assignBatch.path,
      payload: { lieferschein: options.batch ?? '123456', qrcode },
      headers: authHeaders(options.as ?? token, { 'x-idempotency-key': options.key ?? randomUUID() }),
      remoteAddress: ip,
    });
  const cardLogin = (stechuhrdevice: string, ip: string) =>
    t.app.inject({
      method: 'POST',
      url: loginCard.path,
      payload: { stechuhrdevice },
      remoteAddress: ip,
    });

  it('locks a worker who scans wrong cards after the per-user limit, from any address and any new login', async () => {
    for (let i = 0; i < 3; i++) {
      const wrong = await assign(`FREMDE-KARTE-${i}`, `10.50.0.${i}`);
      expect(wrong.statusCode).toBe(404);
      expect(wrong.json()).toMatchObject({ success: false, message: texts.batch.employeeUnknown });
    }
    const locked = await assign(demo.cardUser.card, '10.50.1.1');
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toMatchObject({ success: false, message: texts.batch.tooManyCards });
    // A new login of the same worker does not start a new count.
    const again = await loginDemo(t.app);
    expect((await assign(demo.cardUser.card, '10.50.1.2', { as: again })).statusCode).toBe(429);
  });

  it('counts wrong cards at Batch and at the card login against one budget per address', async () => {
    for (let i = 0; i < 11; i++) expect((await cardLogin(`FALSCH${i}`, '10.51.0.1')).statusCode).toBe(401);
    expect((await assign('FREMDE-KARTE', '10.51.0.1')).statusCode).toBe(404);
    expect((await cardLogin(demo.cardUser.card, '10.51.0.1')).statusCode).toBe(429);
    expect((await assign(demo.cardUser.card, '10.51.0.1')).statusCode).toBe(429);
    expect((await cardLogin(demo.cardUser.card, '10.51.0.2')).statusCode).toBe(200);
  });

  it("answers a deactivated worker's card exactly as an unknown one, as the card login does", async () => {
    const unknown = await assign('FREMDE-KARTE', '10.52.0.1');
    const unknownLogin = await cardLogin('FREMDE-KARTE', '10.52.0.1');
    await t.database.db
      .updateTable('users')
      .set({ active: false })
      .where('name', '=', demo.cardUser.name)
      .execute();
    try {
      const deactivated = await assign(demo.cardUser.card, '10.52.0.1');
      expect([deactivated.statusCode, deactivated.json()]).toEqual([unknown.statusCode, unknown.json()]);
      const deactivatedLogin = await cardLogin(demo.cardUser.card, '10.52.0.1');
      expect([deactivatedLogin.statusCode, deactivatedLogin.json()]).toEqual([
        unknownLogin.statusCode,
        unknownLogin.json(),
      ]);
    } finally {
      await t.database.db
        .updateTable('users')
        .set({ active: true })
        .where('name', '=', demo.cardUser.name)
        .execute();
    }
  });

  it('does not count a refusal that checked no card (unknown batch), nor a repeat of a stored answer', async () => {
    for (let i = 0; i < 5; i++) {
      const res = await assign(`FREMDE-KARTE-${i}`, '10.53.0.1', { batch: '999999' });
      expect(res.json().message).toBe(texts.batch.notFound('999999'));
    }
    const key = randomUUID();
    expect((await assign('FREMDE-KARTE', '10.53.0.1', { key })).statusCode).toBe(404);
    for (let i = 0; i < 4; i++)
      expect((await assign('FREMDE-KARTE', '10.53.0.1', { key })).statusCode).toBe(404);
    expect((await assign(demo.cardUser.card, '10.53.0.1')).statusCode).toBe(200);
  });

  it('replays the stored answer of an action done before, also while the worker is locked', async () => {
    const key = randomUUID();
    const done = await assign(demo.cardUser.card, '10.54.0.1', { key });
    expect(done.statusCode).toBe(200);
    for (let i = 0; i < 3; i++) expect((await assign(`FREMDE-KARTE-${i}`, '10.54.0.1')).statusCode).toBe(404);
    expect((await assign(demo.cardUser.card, '10.54.0.1')).statusCode).toBe(429);
    const repeat = await assign(demo.cardUser.card, '10.54.0.1', { key });
    expect(repeat.statusCode).toBe(200);
    expect(repeat.headers['idempotent-replayed']).toBe('true');
    expect(repeat.json()).toEqual(done.json());
  });
});

describe.each(databaseKinds())('cheat codes at the packing station on %s', (kind) => {
  const CHEAT = 'ALLES-FERTIG-42';
  let t: TestApp;
  let token: string;
  let cardToken: string;
  const notes: Record<string, number> = {};
  beforeAll(async () => {
    t = await startTestApp(kind, { cheatCode: CHEAT, loginMaxFailuresPerUser: 3, loginMaxFailuresPerIp: 5 });
    // Two shift leads guessing (a worker's cheat code is refused by role before it is compared).
    await t.database.db.updateTable('users').set({ role: 'schichtleitung' }).execute();
    for (const n of await t.database.db.selectFrom('delivery_notes').select(['id', 'belegnr']).execute())
      notes[n.belegnr] = n.id;
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.database.db.deleteFrom('attempt_counters').execute();
    token = await loginDemo(t.app);
    const card = await caller(t.app, null)(loginCard, { body: { stechuhrdevice: demo.cardUser.card } });
    cardToken = card.json().token;
  });

  // From a client address of their own, as above: raw requests, their paths from the contract.
  const cheat = (code: string, ip: string, options: { note?: string; as?: string } = {}) =>
    t.app.inject({
      method: 'PUT',
      url: packageContentCheat.path,
      payload: { id: notes[options.note ?? 'LS100098'], code },
      headers: authHeaders(options.as ?? token, { 'x-idempotency-key': randomUUID() }),
      remoteAddress: ip,
    });
  const scanItem = (itemNr: string, ip: string, belegnr = 'LS100001') =>
    t.app.inject({
      method: 'POST',
      url: buildPath(scanPackageItem.path, { itemNr }),
      payload: {
        id: notes[belegnr],
        itemNr,
        belegnr,
        eu: 1,
        user_id: 1,
        paketinhalt: [],
        versandart: 'DHL037',
      },
      headers: authHeaders(token, { 'x-idempotency-key': randomUUID() }),
      remoteAddress: ip,
    });

  it('locks a user who tries wrong cheat codes after the per-user limit, with a German message', async () => {
    for (let i = 0; i < 3; i++) {
      const wrong = await cheat(`RATEN-${i}`, `10.60.0.${i}`);
      expect(wrong.statusCode).toBe(403);
      expect(wrong.json()).toMatchObject({ success: false, message: texts.paketinhalt.cheatRefused });
    }
    const locked = await cheat(CHEAT, '10.60.1.1');
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toMatchObject({ success: false, message: texts.paketinhalt.tooManyCodes });
    // The other worker is not locked.
    expect((await cheat(CHEAT, '10.60.1.2', { as: cardToken })).statusCode).toBe(200);
  });

  it('locks an address that tries wrong cheat codes for several users', async () => {
    for (let i = 0; i < 3; i++) expect((await cheat(`RATEN-${i}`, '10.61.0.1')).statusCode).toBe(403);
    for (let i = 0; i < 2; i++)
      expect((await cheat(`RATEN-${i}`, '10.61.0.1', { as: cardToken })).statusCode).toBe(403);
    expect((await cheat(CHEAT, '10.61.0.1', { as: cardToken })).statusCode).toBe(429);
    expect((await cheat(CHEAT, '10.61.0.2', { as: cardToken })).statusCode).toBe(200);
  });

  it("clears a user's count when they give the right code", async () => {
    for (let i = 0; i < 2; i++) expect((await cheat(`RATEN-${i}`, '10.62.0.1')).statusCode).toBe(403);
    expect((await cheat(CHEAT, '10.62.0.2', { note: 'LS100002' })).statusCode).toBe(200);
    for (let i = 0; i < 2; i++) expect((await cheat(`RATEN-${i}`, '10.62.0.3')).statusCode).toBe(403);
    expect((await cheat(`RATEN-x`, '10.62.0.4')).statusCode).toBe(403);
    expect((await cheat(`RATEN-y`, '10.62.0.5')).statusCode).toBe(429);
  });

  it('counts item scans that match nothing (each also tried the cheat code) with the budget of an address', async () => {
    // Real items and delivery note numbers are no guesses: not counted.
    expect((await scanItem('100001', '10.63.0.1')).statusCode).toBe(200);
    expect((await scanItem('LS100002', '10.63.0.1')).statusCode).toBe(404);
    for (let i = 0; i < 5; i++) {
      const miss = await scanItem(`RATEN-${i}`, '10.63.0.1');
      expect(miss.statusCode).toBe(404);
      expect(miss.json().message).toBe(texts.paketinhalt.itemNotInNote(`RATEN-${i}`));
    }
    const locked = await scanItem(CHEAT, '10.63.0.2');
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toMatchObject({ success: false, message: texts.paketinhalt.tooManyCodes });
  });
});

describe.each(databaseKinds())('no cheat code configured on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind, { cheatCode: null, loginMaxFailuresPerUser: 3, loginMaxFailuresPerIp: 5 });
  });
  afterAll(() => t.close());

  it('counts nothing at the packing station: there is no code to guess', async () => {
    const token = await loginDemo(t.app);
    const note = await t.database.db
      .selectFrom('delivery_notes')
      .select('id')
      .where('belegnr', '=', 'LS100001')
      .executeTakeFirstOrThrow();
    for (let i = 0; i < 8; i++) {
      const miss = await caller(t.app, token)(scanPackageItem, {
        params: { itemNr: `RATEN-${i}` },
        body: {
          id: note.id,
          itemNr: `RATEN-${i}`,
          belegnr: 'LS100001',
          eu: 1,
          user_id: 1,
          paketinhalt: [],
          versandart: '',
        },
      });
      expect(miss.statusCode).toBe(404);
    }
    const counted = await t.database.db
      .selectFrom('attempt_counters')
      .select('kind')
      .where('kind', 'not like', 'password-%')
      .execute();
    expect(counted).toEqual([]);
  });
});
