import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { texts } from '../../src/contract/texts.ts';
import { demo } from '../../src/server/db/seed/demo.ts';
import { authHeaders, loginDemo, startTestApp, type TestApp } from '../support/app.ts';
import { databaseKinds } from '../support/db.ts';

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

  const assign = (qrcode: string, ip: string, options: { batch?: string; key?: string; as?: string } = {}) =>
    t.app.inject({
      method: 'PUT',
      url: '/api/batch',
      payload: { lieferschein: options.batch ?? '123456', qrcode },
      headers: authHeaders(options.as ?? token, { 'x-idempotency-key': options.key ?? randomUUID() }),
      remoteAddress: ip,
    });
  const cardLogin = (stechuhrdevice: string, ip: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/user/login/qrcode',
      payload: { stechuhrdevice },
      remoteAddress: ip,
    });

  it('locks a worker who scans wrong cards after the per-user limit, from any address and any new login', async () => {
    for (let i = 0; i < 3; i++) {
      const wrong = await assign(`FREMDE-KARTE-${i}`, `10.50.0.${i}`);
      expect(wrong.statusCode).toBe(404);
      expect(wrong.json()).toEqual({ success: false, message: texts.batch.employeeUnknown });
    }
    const locked = await assign(demo.cardUser.card, '10.50.1.1');
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toEqual({ success: false, message: texts.batch.tooManyCards });
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
