import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Auftrag } from '../../src/contract/kommissionierung.ts';
import type { JournalZeile } from '../../src/contract/leitstand/bestand.ts';
import type { Receipt } from '../../src/contract/wareneingang.ts';
import { createIntegrationToken } from '../../src/server/auth/integration-tokens.ts';
import { demo } from '../../src/server/seed/demo.ts';
import { authHeaders, loginAs, startTestApp, type TestApp } from '../support/app.ts';
import { databaseKinds } from '../support/db.ts';

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

  const get = async <T>(url: string, token: string): Promise<T> => {
    const res = await t.app.inject({ method: 'GET', url, headers: authHeaders(token) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<T>();
  };
  const post = async <T>(url: string, payload: Record<string, unknown>): Promise<T> => {
    const res = await t.app.inject({
      method: 'POST',
      url,
      payload,
      headers: authHeaders(worker, { 'x-idempotency-key': randomUUID() }),
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<T>();
  };
  type Page = { items: Record<string, unknown>[] };
  const feed = (name: string) => get<Page>(`/api/export/${name}?since=${EPOCH}`, integration);
  const journal = (art: string) =>
    get<{ zeilen: JournalZeile[] }>(`/api/leitstand/journal?art=${art}`, lead).then((r) => r.zeilen);

  it('names the receipt and the delivery note on their journal rows, and exports differences and shortages', async () => {
    // Wareneingang: 7 of 20 × 100001 booked in, then the receipt closed (13 short; 100002: 5 short).
    const receipt = await get<Receipt>(`/api/wareneingang/beleg/${demo.receipt.nummer}`, worker);
    const line = receipt.positionen.find((p) => p.nummer === '100001');
    await post('/api/wareneingang/buchen', {
      wareneingang: demo.receipt.nummer,
      position: line?.position,
      lagerplatz: 'A-01-01-02',
      amount: 7,
      charge: null,
      mhd: null,
    });
    await post('/api/wareneingang/abschliessen', { wareneingang: demo.receipt.nummer });

    // Kommissionierung: 2 × 100006 picked, 1 × 100008 reported missing.
    let note = (
      await post<{ data: Auftrag }>('/api/kommissionierung/auftrag', { belegnr: demo.deliveryNotes.pickable })
    ).data;
    const lineOf = (nummer: string) => {
      const found = note.positionen.find((p) => p.nummer === nummer);
      if (!found) throw new Error(`no line ${nummer}`);
      return found;
    };
    const picked = lineOf('100006');
    note = (
      await post<{ data: Auftrag }>('/api/kommissionierung/entnahme', {
        id: note.id,
        positionId: picked.id,
        lagerplatzId: picked.lagerplatz?.id,
        menge: 2,
      })
    ).data;
    await post('/api/kommissionierung/fehlmenge', { id: note.id, positionId: lineOf('100008').id, menge: 1 });

    // The Leitstand's journal and its CSV.
    expect((await journal('wareneingang')).map((z) => [z.artikel.nummer, z.menge, z.beleg])).toEqual([
      ['100001', 7, demo.receipt.nummer],
    ]);
    expect((await journal('kommissionierung')).map((z) => [z.artikel.nummer, z.menge, z.beleg])).toEqual([
      ['100006', 2, demo.deliveryNotes.pickable],
    ]);
    expect((await journal('inventur'))[0]?.beleg ?? null).toBeNull();
    const csv = await t.app.inject({
      method: 'GET',
      url: '/api/leitstand/journal.csv?art=kommissionierung',
      headers: authHeaders(lead),
    });
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
    const shortagesCsv = await t.app.inject({
      method: 'GET',
      url: `/api/export/pickshortages?since=${EPOCH}&format=csv`,
      headers: authHeaders(integration),
    });
    expect(shortagesCsv.body.split('\r\n')[0]).toBe('id,time,belegnr,article,amount,user');
  });
});
