import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AMOUNT_MAX } from '../../src/contract/limits.ts';
import { texts } from '../../src/contract/texts.ts';
import { authHeaders, loginDemo, startTestApp, type TestApp } from '../support/app.ts';
import { databaseKinds } from '../support/db.ts';
import { countWrites } from '../support/write-counts.ts';

/**
 * What a worker reads when a scan is refused before it reaches a rule: the field by its name on the screen
 * (never the API's key), what is wrong with it, status 400 — and nothing written.
 */
const LONG = 'A'.repeat(300);

describe.each(databaseKinds())('refused scans on %s', (kind) => {
  let t: TestApp;
  let token: string;
  let ids: { lp: number; article: number; lhm: number };

  beforeAll(async () => {
    t = await startTestApp(kind);
    token = await loginDemo(t.app);
    const db = t.database.db;
    const location = (code: string) =>
      db.selectFrom('locations').select('id').where('code', '=', code).executeTakeFirstOrThrow();
    ids = {
      lp: (await location('A-01-01-01')).id,
      lhm: (await location('LHM000001')).id,
      article: (
        await db.selectFrom('articles').select('id').where('nummer', '=', '100001').executeTakeFirstOrThrow()
      ).id,
    };
  });
  afterAll(() => t.close());

  /** Everything a refused scan could have written: refused by its schema, it stores no key either. */
  const written = () => countWrites(t.database.db, { keys: 'all', logins: true });

  type Case = {
    name: string;
    method: 'GET' | 'PUT' | 'POST';
    url: string;
    payload?: Record<string, unknown>;
    /** The API's key of the refused field: it must not show. */
    key: string;
    message: string;
  };

  const cases = (): Case[] => {
    const transporter = { kennzeichen: 'B-LS 100', container: 'WB-7', plombe: 'P-1', value: 50 };
    const wms = { article: ids.article, lagerplatz: ids.lhm, amount: 1, mhd: '2027-12-31', quality: 2 };
    return [
      {
        name: 'findlp, 300 characters',
        method: 'GET',
        url: `/api/inventur/findlp/${LONG}`,
        key: 'code',
        message: texts.errors.input.tooLong(texts.inventur.location, 200),
      },
      {
        name: 'findlp, a control character',
        method: 'GET',
        url: '/api/inventur/findlp/A-01%01-01',
        key: 'code',
        message: texts.errors.input.controlCharacter(texts.inventur.location),
      },
      {
        name: 'findarticle, 300 characters',
        method: 'GET',
        url: `/api/inventur/findarticle/${LONG}`,
        key: 'number',
        message: texts.errors.input.tooLong(texts.inventur.article, 200),
      },
      {
        name: 'findarticle, a control character',
        method: 'GET',
        url: '/api/inventur/findarticle/4006381%0D333931',
        key: 'number',
        message: texts.errors.input.controlCharacter(texts.inventur.article),
      },
      {
        name: 'paketausgang, 300 characters',
        method: 'PUT',
        url: '/api/paketausgang',
        payload: { tracking: LONG },
        key: 'tracking',
        message: texts.errors.input.tooLong(texts.paketausgang.tracking, 100),
      },
      {
        name: 'paketausgang, a control character',
        method: 'PUT',
        url: '/api/paketausgang',
        payload: { tracking: '003404341610\u00009404255' },
        key: 'tracking',
        message: texts.errors.input.controlCharacter(texts.paketausgang.tracking),
      },
      {
        name: 'batcherfassung, 300 characters',
        method: 'PUT',
        url: '/api/batcherfassung',
        payload: { batch: LONG },
        key: 'batch',
        message: texts.batch.tooLong,
      },
      {
        name: 'batcherfassung, a control character',
        method: 'PUT',
        url: '/api/batcherfassung',
        payload: { batch: '1234\u00075' },
        key: 'batch',
        message: texts.errors.input.controlCharacter(texts.batch.label),
      },
      {
        name: 'transporterfassung, 300 characters',
        method: 'PUT',
        url: '/api/transporterfassung',
        payload: { ...transporter, kennzeichen: LONG },
        key: 'kennzeichen',
        message: texts.errors.input.tooLong(texts.transporter.kennzeichen, 20),
      },
      {
        name: 'transporterfassung, a control character',
        method: 'PUT',
        url: '/api/transporterfassung',
        payload: { ...transporter, kennzeichen: 'B-LS\u001b100' },
        key: 'kennzeichen',
        message: texts.errors.input.controlCharacter(texts.transporter.kennzeichen),
      },
      {
        name: 'wmsretoure, 300 characters',
        method: 'PUT',
        url: '/api/wmsretoure',
        payload: { ...wms, charge: LONG },
        key: 'charge',
        message: texts.errors.input.tooLong(texts.wmsretoure.charge, 50),
      },
      {
        name: 'wmsretoure, a control character',
        method: 'PUT',
        url: '/api/wmsretoure',
        payload: { ...wms, charge: 'CH-\u007f1' },
        key: 'charge',
        message: texts.errors.input.controlCharacter(texts.wmsretoure.charge),
      },
      {
        name: 'inventur, amount above the range',
        method: 'POST',
        url: '/api/inventur/',
        payload: { lp: ids.lp, article: ids.article, amount: 10_000_000 },
        key: 'amount',
        message: texts.errors.input.tooBig(texts.inventur.amount, AMOUNT_MAX),
      },
      {
        name: 'inventur, amount below the range',
        method: 'POST',
        url: '/api/inventur/',
        payload: { lp: ids.lp, article: ids.article, amount: -3 },
        key: 'amount',
        message: texts.errors.input.tooSmall(texts.inventur.amount, 0),
      },
    ];
  };

  it('names the field as the screen does and says what is wrong, with 400, writing nothing', async () => {
    const before = await written();
    for (const c of cases()) {
      const res = await t.app.inject({
        method: c.method,
        url: c.url,
        headers: authHeaders(token, c.method === 'GET' ? {} : { 'x-idempotency-key': randomUUID() }),
        ...(c.payload ? { payload: c.payload } : {}),
      });
      expect(res.statusCode, c.name).toBe(400);
      expect(res.json(), c.name).toEqual({ success: false, message: c.message });
      expect(res.body, c.name).not.toMatch(new RegExp(`\\b${c.key}\\b`));
    }
    expect(await written()).toEqual(before);
  });

  it('takes the same scans once they are right (the refusal was the input, not the call)', async () => {
    const lp = await t.app.inject({
      method: 'GET',
      url: '/api/inventur/findlp/A-01-01-01',
      headers: authHeaders(token),
    });
    expect(lp.json()).toMatchObject({ found: true, id: ids.lp });
    // The GS1 group separator (ASCII 29) is part of a scan, not a refused control character.
    const gs1 = await t.app.inject({
      method: 'GET',
      url: `/api/inventur/findarticle/${encodeURIComponent('0104006381333931\u001d10ABC')}`,
      headers: authHeaders(token),
    });
    expect(gs1.statusCode).toBe(200);
  });

  it('keeps the spec’s own texts for an empty Transporter field', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/transporterfassung',
      headers: authHeaders(token, { 'x-idempotency-key': randomUUID() }),
      payload: { kennzeichen: '  ', container: 'WB-7', plombe: 'P-1', value: 50 },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ success: false, message: texts.transporter.kennzeichenMissing });
  });
});
