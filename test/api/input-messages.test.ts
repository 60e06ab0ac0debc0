import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureBatch } from '../../src/contract/batch.ts';
import type { Endpoint } from '../../src/contract/endpoint.ts';
import { bookInventur } from '../../src/contract/inventur.ts';
import { AMOUNT_MAX } from '../../src/contract/limits.ts';
import { findArticle, findLp } from '../../src/contract/lookup.ts';
import { paketausgang } from '../../src/contract/paketausgang.ts';
import { texts } from '../../src/contract/texts.ts';
import { captureTransporter } from '../../src/contract/transporter.ts';
import { bookWmsRetoure } from '../../src/contract/wmsretoure.ts';
import { loginDemo, startTestApp, type TestApp } from '../support/app.ts';
import { databaseKinds } from '../support/db.ts';
import { caller } from '../support/endpoint-call.ts';
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
    endpoint: Endpoint;
    params?: Record<string, string>;
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
        endpoint: findLp,
        params: { code: LONG },
        key: 'code',
        message: texts.errors.input.tooLong(texts.inventur.location, 200),
      },
      {
        name: 'findlp, a control character',
        endpoint: findLp,
        params: { code: 'A-01\u0001-01' },
        key: 'code',
        message: texts.errors.input.controlCharacter(texts.inventur.location),
      },
      {
        name: 'findarticle, 300 characters',
        endpoint: findArticle,
        params: { number: LONG },
        key: 'number',
        message: texts.errors.input.tooLong(texts.inventur.article, 200),
      },
      {
        name: 'findarticle, a control character',
        endpoint: findArticle,
        params: { number: '4006381\r333931' },
        key: 'number',
        message: texts.errors.input.controlCharacter(texts.inventur.article),
      },
      {
        name: 'paketausgang, 300 characters',
        endpoint: paketausgang,
        payload: { tracking: LONG },
        key: 'tracking',
        message: texts.errors.input.tooLong(texts.paketausgang.tracking, 100),
      },
      {
        name: 'paketausgang, a control character',
        endpoint: paketausgang,
        payload: { tracking: '003404341610\u00009404255' },
        key: 'tracking',
        message: texts.errors.input.controlCharacter(texts.paketausgang.tracking),
      },
      {
        name: 'batcherfassung, 300 characters',
        endpoint: captureBatch,
        payload: { batch: LONG },
        key: 'batch',
        message: texts.batch.tooLong,
      },
      {
        name: 'batcherfassung, a control character',
        endpoint: captureBatch,
        payload: { batch: '1234\u00075' },
        key: 'batch',
        message: texts.errors.input.controlCharacter(texts.batch.label),
      },
      {
        name: 'transporterfassung, 300 characters',
        endpoint: captureTransporter,
        payload: { ...transporter, kennzeichen: LONG },
        key: 'kennzeichen',
        message: texts.errors.input.tooLong(texts.transporter.kennzeichen, 20),
      },
      {
        name: 'transporterfassung, a control character',
        endpoint: captureTransporter,
        payload: { ...transporter, kennzeichen: 'B-LS\u001b100' },
        key: 'kennzeichen',
        message: texts.errors.input.controlCharacter(texts.transporter.kennzeichen),
      },
      {
        name: 'wmsretoure, 300 characters',
        endpoint: bookWmsRetoure,
        payload: { ...wms, charge: LONG },
        key: 'charge',
        message: texts.errors.input.tooLong(texts.wmsretoure.charge, 50),
      },
      {
        name: 'wmsretoure, a control character',
        endpoint: bookWmsRetoure,
        payload: { ...wms, charge: 'CH-\u007f1' },
        key: 'charge',
        message: texts.errors.input.controlCharacter(texts.wmsretoure.charge),
      },
      {
        name: 'inventur, amount above the range',
        endpoint: bookInventur,
        payload: { lp: ids.lp, article: ids.article, amount: 10_000_000 },
        key: 'amount',
        message: texts.errors.input.tooBig(texts.inventur.amount, AMOUNT_MAX),
      },
      {
        name: 'inventur, amount below the range',
        endpoint: bookInventur,
        payload: { lp: ids.lp, article: ids.article, amount: -3 },
        key: 'amount',
        message: texts.errors.input.tooSmall(texts.inventur.amount, 0),
      },
    ];
  };

  it('names the field as the screen does and says what is wrong, with 400, writing nothing', async () => {
    const before = await written();
    for (const c of cases()) {
      const res = await caller(t.app, token)(c.endpoint, { params: c.params, body: c.payload });
      expect(res.statusCode, c.name).toBe(400);
      expect(res.json(), c.name).toMatchObject({ success: false, message: c.message });
      // What the worker reads (the message; `code` beside it is the text's key, decision 35)
      expect(res.json().message, c.name).not.toMatch(new RegExp(`\\b${c.key}\\b`));
    }
    expect(await written()).toEqual(before);
  });

  it('takes the same scans once they are right (the refusal was the input, not the call)', async () => {
    const lp = await caller(t.app, token)(findLp, { params: { code: 'A-01-01-01' } });
    expect(lp.json()).toMatchObject({ found: true, id: ids.lp });
    // The GS1 group separator (ASCII 29) is part of a scan, not a refused control character.
    const gs1 = await caller(t.app, token)(findArticle, {
      params: { number: '0104006381333931\u001d10ABC' },
    });
    expect(gs1.statusCode).toBe(200);
  });

  it('keeps the spec’s own texts for an empty Transporter field', async () => {
    const res = await caller(t.app, token)(captureTransporter, {
      body: { kennzeichen: '  ', container: 'WB-7', plombe: 'P-1', value: 50 },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, message: texts.transporter.kennzeichenMissing });
  });
});
