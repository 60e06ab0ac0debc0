import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { texts } from '../../src/contract/texts.ts';
import { demo } from '../../src/server/seed/demo.ts';
import { authHeaders, loginDemo, startTestApp, type TestApp } from '../support/app.ts';
import { databaseKinds } from '../support/db.ts';
import { articleId, locationId, stockInvariantViolations } from '../support/stock.ts';

describe.each(databaseKinds())('capture stations API on %s', (kind) => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp(kind);
    token = await loginDemo(t.app);
  });
  afterAll(() => t.close());

  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: authHeaders(token) });
  const put = (url: string, payload: unknown) =>
    t.app.inject({
      method: 'PUT',
      url,
      payload: payload as Record<string, unknown>,
      headers: authHeaders(token, { 'x-idempotency-key': randomUUID() }),
    });

  describe('batches', () => {
    it('records a batch scan, refuses more than six characters and an unknown batch', async () => {
      const ok = await put('/api/batcherfassung', { batch: '123456' });
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toEqual({ success: true, message: texts.batch.captured('123456') });
      const long = await put('/api/batcherfassung', { batch: '1234567' });
      expect(long.statusCode).toBe(400);
      expect(long.json().message).toBe(texts.batch.tooLong);
      const unknown = await put('/api/batcherfassung', { batch: '999999' });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().message).toBe(texts.batch.notFound('999999'));
      const events = await t.database.db
        .selectFrom('batch_events')
        .selectAll()
        .where('batch_id', '=', '123456')
        .execute();
      expect(events).toHaveLength(1);
    });

    it("answers a delivery note's batch, '' when it has none, 404 for an unknown note", async () => {
      expect((await get('/api/batch/getBatchIdByLieferscheinBelegnr/LS100001')).json()).toEqual({
        data: { lieferschein: '123456' },
      });
      await t.database.db
        .updateTable('delivery_notes')
        .set({ batch_id: null })
        .where('belegnr', '=', 'LS100099')
        .execute();
      expect((await get('/api/batch/getBatchIdByLieferscheinBelegnr/LS100099')).json()).toEqual({
        data: { lieferschein: '' },
      });
      expect((await get('/api/batch/getBatchIdByLieferscheinBelegnr/LS999')).statusCode).toBe(404);
    });

    it('records which employee took over a batch by card', async () => {
      const ok = await put('/api/batch', { lieferschein: '123456', qrcode: demo.cardUser.card });
      expect(ok.json()).toEqual({ success: true, message: texts.batch.assigned('123456', 'Karten Nutzer') });
      const unknown = await put('/api/batch', { lieferschein: '123456', qrcode: 'FREMDE-KARTE' });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().message).toBe(texts.batch.employeeUnknown);
    });

    it('records a batch on a container, 404 for an unknown batch', async () => {
      const ok = await put('/api/containererfassung', { container: 'ABGESCHLOSSENDHL', batch: '123456' });
      expect(ok.json()).toEqual({
        success: true,
        message: texts.container.captured('ABGESCHLOSSENDHL', '123456'),
      });
      expect(
        (await put('/api/containererfassung', { container: 'GLSPROD', batch: '000000' })).statusCode,
      ).toBe(404);
    });
  });

  describe('transporter', () => {
    it('needs kennzeichen, then plombe, then container, and a fill level in steps of 5', async () => {
      const base = { kennzeichen: 'HH-LS 123', plombe: 'P-77', container: 'WB-9', value: 55 };
      expect(
        (await put('/api/transporterfassung', { ...base, kennzeichen: '', plombe: '' })).json().message,
      ).toBe(texts.transporter.kennzeichenMissing);
      expect(
        (await put('/api/transporterfassung', { ...base, plombe: '', container: '' })).json().message,
      ).toBe(texts.transporter.plombeMissing);
      expect((await put('/api/transporterfassung', { ...base, container: '' })).json().message).toBe(
        texts.transporter.containerMissing,
      );
      for (const value of [53, -5, 105])
        expect((await put('/api/transporterfassung', { ...base, value })).statusCode).toBe(400);
      const ok = await put('/api/transporterfassung', base);
      expect(ok.json()).toEqual({ success: true, message: texts.transporter.captured('HH-LS 123') });
      const row = await t.database.db.selectFrom('transporter_events').selectAll().executeTakeFirstOrThrow();
      expect(row).toMatchObject({
        kennzeichen: 'HH-LS 123',
        plombe: 'P-77',
        container: 'WB-9',
        fill_value: 55,
      });
    });
  });

  describe('WMS returns', () => {
    it('finds an article with its Charge and MHD flags, and load carriers only', async () => {
      expect((await get('/api/wmsretoure/item/100002')).json()).toMatchObject({
        found: true,
        charge: true,
        mindesthaltbarkeit: true,
      });
      expect((await get('/api/wmsretoure/item/100001')).json()).toMatchObject({
        found: true,
        charge: false,
        mindesthaltbarkeit: false,
      });
      expect((await get('/api/wmsretoure/item/HN-DUP')).json()).toMatchObject({ found: false, count: 2 });
      expect((await get('/api/wmsretoure/storage/LHM000001')).json()).toMatchObject({
        found: true,
        name: 'Ladungsträger 1',
      });
      expect((await get('/api/wmsretoure/storage/A-01-01-01')).json()).toEqual({
        found: false,
        id: null,
        name: null,
      });
    });

    it('books a return onto the load carrier with Charge, MHD and quality, journalled', async () => {
      const db = t.database.db;
      const lhm = await locationId(db, 'LHM000002');
      const article = await articleId(db, '100002');
      const booking = { article, lagerplatz: lhm, amount: 3, charge: 'CH-42', mhd: '2027-03-31', quality: 1 };
      const res = await put('/api/wmsretoure', booking);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        success: true,
        message: texts.wmsretoure.booked(3, '100002', 'LHM000002'),
      });
      const stock = await db
        .selectFrom('stock')
        .select(['charge', 'mhd', 'amount'])
        .where('location_id', '=', lhm)
        .execute();
      expect(stock).toEqual([{ charge: 'CH-42', mhd: '2027-03-31', amount: 3 }]);
      const ret = await db.selectFrom('wms_returns').selectAll().executeTakeFirstOrThrow();
      expect(ret).toMatchObject({ quality: 1, charge: 'CH-42' });
      expect(await stockInvariantViolations(db)).toBe(0);
    });

    it('defaults the quality to 2', async () => {
      const db = t.database.db;
      const res = await put('/api/wmsretoure', {
        article: await articleId(db, '100001'),
        lagerplatz: await locationId(db, 'LHM000003'),
        amount: 1,
        charge: null,
        mhd: null,
      });
      expect(res.statusCode).toBe(200);
      const row = await db
        .selectFrom('wms_returns')
        .select('quality')
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      expect(row.quality).toBe(2);
    });

    it('refuses a missing Charge or MHD, an amount below 1 and a location that is no LHM, writing nothing', async () => {
      const db = t.database.db;
      const base = {
        article: await articleId(db, '100002'),
        lagerplatz: await locationId(db, 'LHM000004'),
        amount: 2,
        charge: 'C1',
        mhd: '2027-01-01',
        quality: 2,
      };
      const cases: [Record<string, unknown>, string][] = [
        [{ charge: null }, texts.wmsretoure.chargeMissing],
        [{ charge: '  ' }, texts.wmsretoure.chargeMissing],
        [{ mhd: null }, texts.wmsretoure.mhdMissing],
        [{ amount: 0 }, texts.wmsretoure.amountInvalid],
        [{ lagerplatz: await locationId(db, 'A-01-01-01') }, texts.wmsretoure.notLhm],
      ];
      for (const [change, message] of cases) {
        const res = await put('/api/wmsretoure', { ...base, ...change });
        expect(res.statusCode, message).toBe(400);
        expect(res.json().message).toBe(message);
      }
      expect((await put('/api/wmsretoure', { ...base, mhd: '31.12.2027' })).statusCode).toBe(400);
      const onLhm = await db
        .selectFrom('stock')
        .select('id')
        .where('location_id', '=', base.lagerplatz)
        .execute();
      expect(onLhm).toHaveLength(0);
    });
  });

  describe('customs carts', () => {
    it('opens a cart, refuses a second one while it is open, collects notes and closes once', async () => {
      expect((await get('/api/zollpaketerfassung/checkWagen')).json()).toEqual({
        found: false,
        wagennummer: null,
        bezeichnung: null,
      });
      expect((await get('/api/zollpaketerfassung/findWagen/ZW99')).json()).toEqual({
        found: false,
        wagennummer: null,
        message: texts.zollpaket.cartNotFound('ZW99'),
      });
      expect((await get('/api/zollpaketerfassung/findWagen/ZW01')).json()).toEqual({
        found: true,
        wagennummer: 'ZW01',
        message: '',
      });
      expect((await get('/api/zollpaketerfassung/checkWagen')).json()).toEqual({
        found: true,
        wagennummer: 'ZW01',
        bezeichnung: 'Zollwagen 1',
      });
      expect((await get('/api/zollpaketerfassung/findWagen/ZW02')).json()).toEqual({
        found: false,
        wagennummer: null,
        message: texts.zollpaket.cartStillOpen('Zollwagen 1'),
      });

      const add = await put('/api/zollpaketerfassung/paket', {
        lieferschein: 'LS100002',
        wagennummer: 'ZW01',
        close: false,
      });
      expect(add.json()).toEqual({ success: true, message: texts.zollpaket.captured });
      const twice = await put('/api/zollpaketerfassung/paket', {
        lieferschein: 'LS100002',
        wagennummer: 'ZW01',
        close: false,
      });
      expect(twice.statusCode).toBe(400);
      expect(twice.json().message).toBe(texts.zollpaket.noteOnCart('LS100002', 'Zollwagen 1'));
      const unknown = await put('/api/zollpaketerfassung/paket', {
        lieferschein: 'LS999',
        wagennummer: 'ZW01',
        close: false,
      });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().message).toBe(texts.paketinhalt.deliveryNoteNotFound('LS999'));
      const empty = await put('/api/zollpaketerfassung/paket', {
        lieferschein: '',
        wagennummer: 'ZW01',
        close: false,
      });
      expect(empty.statusCode).toBe(400);

      const history = (await get('/api/zollpaketerfassung/history')).json().data;
      expect(history[0]).toMatchObject({ lieferschein: 'LS100002', wagennummer: 'Zollwagen 1' });

      const close = await put('/api/zollpaketerfassung/paket', {
        lieferschein: '',
        wagennummer: 'ZW01',
        close: true,
      });
      expect(close.json()).toEqual({ success: true, message: texts.zollpaket.cartClosed });
      const again = await put('/api/zollpaketerfassung/paket', {
        lieferschein: '',
        wagennummer: 'ZW01',
        close: true,
      });
      expect(again.statusCode).toBe(400);
      expect(again.json().message).toBe(texts.zollpaket.cartAlreadyClosed('Zollwagen 1'));
      expect((await get('/api/zollpaketerfassung/checkWagen')).json().found).toBe(false);
      const onClosed = await put('/api/zollpaketerfassung/paket', {
        lieferschein: 'LS100001',
        wagennummer: 'ZW01',
        close: false,
      });
      expect(onClosed.statusCode).toBe(400);
      expect(onClosed.json().message).toBe(texts.zollpaket.cartNotOpen('Zollwagen 1'));

      // The note stays on the first cart: the next cart refuses it.
      expect((await get('/api/zollpaketerfassung/findWagen/ZW02')).json().found).toBe(true);
      const secondCart = await put('/api/zollpaketerfassung/paket', {
        lieferschein: 'LS100002',
        wagennummer: 'ZW02',
        close: false,
      });
      expect(secondCart.statusCode).toBe(400);
      expect(secondCart.json().message).toBe(texts.zollpaket.noteOnCart('LS100002', 'Zollwagen 1'));
      expect(
        (await put('/api/zollpaketerfassung/paket', { lieferschein: '', wagennummer: 'ZW02', close: true }))
          .statusCode,
      ).toBe(200);
    });

    it('two workers opening carts at once end with exactly one open cart', async () => {
      const answers = await Promise.all(
        ['ZW03', 'ZW04', 'ZW05'].map((n) => get(`/api/zollpaketerfassung/findWagen/${n}`)),
      );
      expect(answers.filter((a) => a.json().found)).toHaveLength(1);
      const { rows } = await sql<{
        n: number;
      }>`select count(*)::int as n from carts where status = 'offen'`.execute(t.database.db);
      expect(rows[0]?.n).toBe(1);
    });
  });
});
