import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginPassword, setLanguage } from '../../src/contract/auth.ts';
import { texts } from '../../src/contract/texts.ts';
import { moveLocation } from '../../src/contract/umbuchung.ts';
import { receiptByNumber, wareneingangTexts } from '../../src/contract/wareneingang.ts';
import { demo } from '../../src/server/seed/demo-records.ts';
import { loginAs, startTestApp, type TestApp } from '../support/app.ts';
import { databaseKinds } from '../support/db.ts';
import { caller } from '../support/endpoint-call.ts';

/**
 * Every worker in their own language (issue 43, decision 35): the server renders its refusals in the caller's
 * language, with a stable code and the text's arguments beside the message — the same for every language.
 */
describe.each(databaseKinds())('refusals in the caller’s language on %s', (kind) => {
  let t: TestApp;
  let german: ReturnType<typeof caller>;
  let polish: ReturnType<typeof caller>;
  beforeAll(async () => {
    t = await startTestApp(kind);
    await t.database.db
      .updateTable('users')
      .set({ language: 'pl' })
      .where('username', '=', 'leitung')
      .execute();
    german = caller(t.app, await loginAs(t.app, demo.passwordUser));
    polish = caller(t.app, await loginAs(t.app, demo.leadUser));
  });
  afterAll(() => t.close());

  it('answers a Polish worker’s unknown receipt in Polish, a German one’s in German, with the same code', async () => {
    const call = { params: { wareneingang: 'WE999999' } };
    const inGerman = await german(receiptByNumber, call);
    const inPolish = await polish(receiptByNumber, call);
    expect(inGerman.statusCode).toBe(404);
    expect(inPolish.statusCode).toBe(404);
    expect(inGerman.json()).toEqual({
      success: false,
      message: wareneingangTexts.notFound('WE999999'),
      code: 'wareneingang.notFound',
      params: ['WE999999'],
    });
    expect(inPolish.json()).toEqual({
      success: false,
      message: 'Nie znaleziono przyjęcia towaru "WE999999"!',
      code: 'wareneingang.notFound',
      params: ['WE999999'],
    });
  });

  it('answers a booking onto an unknown location in Umbuchung in each language, and replays it so', async () => {
    const body = { from: 1, to: 2_000_000_000 };
    const key = crypto.randomUUID();
    const inPolish = await polish(moveLocation, { body, key });
    expect(inPolish.statusCode).toBe(404);
    expect(inPolish.json()).toEqual({
      success: false,
      message: 'Nie znaleziono lokalizacji.',
      code: 'lookup.unknownLocation',
      params: [],
    });
    // The same write again (the handheld retrying): the stored refusal, with its code
    const again = await polish(moveLocation, { body, key });
    expect(again.json()).toMatchObject({ code: 'lookup.unknownLocation', params: [] });
    const inGerman = await german(moveLocation, { body });
    expect(inGerman.json()).toEqual({
      success: false,
      message: 'Lagerplatz nicht gefunden.',
      code: 'lookup.unknownLocation',
      params: [],
    });
  });

  it('answers before the login in the device’s language (X-Language), German for an unknown one', async () => {
    const login = (language: string) =>
      caller(t.app, null)(loginPassword, {
        body: { username: 'niemand', password: 'falsch' },
        headers: { 'x-language': language },
      });
    const unknownLanguage = await login('xx');
    expect(unknownLanguage.statusCode).toBe(401);
    expect(unknownLanguage.json()).toMatchObject({ message: texts.login.failed, code: 'login.failed' });
    expect((await login('pl')).json()).toMatchObject({
      message: 'Nie znaleziono użytkownika lub brak uprawnień!',
      code: 'login.failed',
    });
  });

  it('lets a worker choose their own language, kept with them: the next answer and the next login follow it', async () => {
    const worker = await loginAs(t.app, demo.passwordUser);
    const call = caller(t.app, worker);
    expect((await call(setLanguage, { body: { language: 'pl' } })).json()).toEqual({ success: true });
    const refused = await call(receiptByNumber, { params: { wareneingang: 'WE999998' } });
    expect(refused.json()).toMatchObject({ message: 'Nie znaleziono przyjęcia towaru "WE999998"!' });
    const again = await caller(t.app, null)(loginPassword, {
      body: { username: demo.passwordUser.username, password: demo.passwordUser.password },
    });
    expect(again.json()).toMatchObject({ language: 'pl' });
    expect((await call(setLanguage, { body: { language: 'de' } })).statusCode).toBe(200);
    expect((await call(receiptByNumber, { params: { wareneingang: 'WE999998' } })).json()).toMatchObject({
      message: wareneingangTexts.notFound('WE999998'),
    });
  });

  it('refuses a language it does not have, in German, and asks for a login', async () => {
    const refused = await german(setLanguage, { body: { language: 'fr' } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ success: false, message: 'Sprache ist ungültig.' });
    expect((await caller(t.app, null)(setLanguage, { body: { language: 'pl' } })).statusCode).toBe(401);
  });

  it('tells the login the user’s language', async () => {
    const res = await caller(t.app, null)(loginPassword, {
      body: { username: demo.leadUser.username, password: demo.leadUser.password },
    });
    expect(res.json()).toMatchObject({ success: true, language: 'pl' });
  });
});
