import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Endpoint } from '../../src/contract/endpoint.ts';
import { exportEndpoints, exportPickShortages, type Feed } from '../../src/contract/export.ts';
import { type Auftrag, pickClaim, pickShortage, pickTake } from '../../src/contract/kommissionierung.ts';
import {
  type JournalZeile,
  journal as journalCall,
  journalCsv,
} from '../../src/contract/leitstand/bestand.ts';
import { bookReceipt, closeReceipt, type Receipt, receiptByNumber } from '../../src/contract/wareneingang.ts';
import { createIntegrationToken } from '../../src/server/auth/integration-tokens.ts';
import { demo } from '../../src/server/seed/demo.ts';
import { loginAs, startTestApp, type TestApp } from '../support/app.ts';
import { databaseKinds } from '../support/db.ts';
import { type Call, caller } from '../support/endpoint-call.ts';

const EPOCH = '2000-01-01T00:00:00Z';

/**
 * Issue 36.8: a journal row names the document it was booked for — the receipt (Wareneingang), the delivery
 * note (Kommissionierung) — in the Leitstand's journal, its CSV and the movements export; and the export has
 * feeds of receipt differences and picking shortages.
 */
describe.each(databaseKinds())('journal documents on %s', (kind) => {
  let t: TestApp;
  let worker: string;
  let lead: string;
  let integration: string;

  beforeAll(async () => {
    t = await startTestApp(kind);
    worker = await loginAs(t.app, demo.passwordUser);
    lead = await loginAs(t.app, demo.leadUser);
    integration = await createIntegrationToken(t.database.db, 'erp');
  });
  afterAll(() => t.close());

  const get = async <T>(endpoint: Endpoint, token: string, call: Call = {}): Promise<T> => {
    const res = await caller(t.app, token)(endpoint, call);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<T>();
  };
  const post = async <T>(endpoint: Endpoint, body: Record<string, unknown>): Promise<T> => {
    const res = await caller(t.app, worker)(endpoint, { body });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<T>();
  };
  type Page = { items: Record<string, unknown>[] };
  const feed = (name: Feed) => get<Page>(exportEndpoints[name], integration, { query: { since: EPOCH } });
  const journal = (art: string) =>
    get<{ zeilen: JournalZeile[] }>(journalCall, lead, { query: { art } }).then((r) => r.zeilen);

  it('names the receipt and the delivery note on their journal rows, and exports differences and shortages', async () => {
    // Wareneingang: 7 of 20 × 100001 booked in, then the receipt closed (13 short; 100002: 5 short).
    const receipt = await get<Receipt>(receiptByNumber, worker, {
      params: { wareneingang: demo.receipt.nummer },
    });
    const line = receipt.positionen.find((p) => p.nummer === '100001');
    await post(bookReceipt, {
      wareneingang: demo.receipt.nummer,
      position: line?.position,
      lagerplatz: 'A-01-01-02',
      amount: 7,
      charge: null,
      mhd: null,
    });
    await post(closeReceipt, { wareneingang: demo.receipt.nummer });

    // Kommissionierung: 2 × 100006 picked, 1 × 100008 reported missing.
    let note = (await post<{ data: Auftrag }>(pickClaim, { belegnr: demo.deliveryNotes.pickable })).data;
    const lineOf = (nummer: string) => {
      const found = note.positionen.find((p) => p.nummer === nummer);
      if (!found) throw new Error(`no line ${nummer}`);
      return found;
    };
    const picked = lineOf('100006');
    note = (
      await post<{ data: Auftrag }>(pickTake, {
        id: note.id,
        positionId: picked.id,
        lagerplatzId: picked.lagerplatz?.id,
        menge: 2,
      })
    ).data;
    await post(pickShortage, { id: note.id, positionId: lineOf('100008').id, menge: 1 });

    // The Leitstand's journal and its CSV.
    expect((await journal('wareneingang')).map((z) => [z.artikel.nummer, z.menge, z.beleg])).toEqual([
      ['100001', 7, demo.receipt.nummer],
    ]);
    expect((await journal('kommissionierung')).map((z) => [z.artikel.nummer, z.menge, z.beleg])).toEqual([
      ['100006', 2, demo.deliveryNotes.pickable],
    ]);
    expect((await journal('inventur'))[0]?.beleg ?? null).toBeNull();
    const csv = await caller(t.app, lead)(journalCsv, { query: { art: 'kommissionierung' } });
    const [header, row] = csv.body.replace(/^\uFEFF/, '').split('\r\n');
    expect(header?.split(';').at(-1)).toBe('Beleg');
    expect(row?.split(';').at(-1)).toBe(demo.deliveryNotes.pickable);

    // The movements export: the fields it had, and the documents after them.
    const movements = (await feed('movements')).items;
    const booked = movements.filter((m) => m.kind === 'wareneingang' || m.kind === 'kommissionierung');
    expect(booked).toEqual([
      {
        id: expect.any(Number),
        time: expect.any(String),
        kind: 'wareneingang',
        article: '100001',
        from: null,
        to: 'A-01-01-02',
        amount: 7,
        charge: null,
        mhd: null,
        user: demo.passwordUser.name,
        receipt: demo.receipt.nummer,
        belegnr: null,
      },
      {
        id: expect.any(Number),
        time: expect.any(String),
        kind: 'kommissionierung',
        article: '100006',
        from: 'B-01-02-01',
        to: null,
        amount: 2,
        charge: null,
        mhd: null,
        user: demo.passwordUser.name,
        receipt: null,
        belegnr: demo.deliveryNotes.pickable,
      },
    ]);
    expect(movements.find((m) => m.kind === 'seed')).toMatchObject({ receipt: null, belegnr: null });

    expect((await feed('receiptdifferences')).items).toEqual([
      {
        id: expect.any(Number),
        time: expect.any(String),
        receipt: demo.receipt.nummer,
        supplier: demo.receipt.lieferant,
        article: '100001',
        charge: null,
        mhd: null,
        expected: 20,
        received: 7,
        short: 13,
        over: 0,
        user: demo.passwordUser.name,
      },
      {
        id: expect.any(Number),
        time: expect.any(String),
        receipt: demo.receipt.nummer,
        supplier: demo.receipt.lieferant,
        article: '100002',
        charge: demo.receipt.charge,
        mhd: demo.receipt.mhd,
        expected: 5,
        received: 0,
        short: 5,
        over: 0,
        user: demo.passwordUser.name,
      },
    ]);
    expect((await feed('pickshortages')).items).toEqual([
      {
        id: expect.any(Number),
        time: expect.any(String),
        belegnr: demo.deliveryNotes.pickable,
        article: '100008',
        amount: 1,
        user: demo.passwordUser.name,
      },
    ]);
    const shortagesCsv = await caller(t.app, integration)(exportPickShortages, {
      query: { since: EPOCH, format: 'csv' },
    });
    expect(shortagesCsv.body.split('\r\n')[0]).toBe('id,time,belegnr,article,amount,user');
  });
});
