import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assignBatch, batchByDeliveryNote, captureBatch } from '../../src/contract/batch.ts';
import { captureContainer } from '../../src/contract/container.ts';
import type { Endpoint } from '../../src/contract/endpoint.ts';
import { texts } from '../../src/contract/texts.ts';
import { captureTransporter } from '../../src/contract/transporter.ts';
import { bookWmsRetoure, wmsItem, wmsStorage } from '../../src/contract/wmsretoure.ts';
import { checkWagen, findWagen, zollHistory, zollPaket } from '../../src/contract/zollpaket.ts';
import { demo } from '../../src/server/seed/demo.ts';
import { loginDemo, startTestApp, type TestApp } from '../support/app.ts';
import { databaseKinds } from '../support/db.ts';
import { caller } from '../support/endpoint-call.ts';
import { articleId, locationId, stockInvariantViolations } from '../support/stock.ts';

describe.each(databaseKinds())('capture stations API on %s', (kind) => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp(kind);
    token = await loginDemo(t.app);
  });
  afterAll(() => t.close());

  const get = (endpoint: Endpoint, params?: Record<string, string>) =>
    caller(t.app, token)(endpoint, { params });
  const put = (endpoint: Endpoint, body: unknown) => caller(t.app, token)(endpoint, { body });

  describe('batches', () => {
    it('records a batch scan, refuses more than six characters and an unknown batch', async () => {
      const ok = await put(captureBatch, { batch: '123456' });
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toEqual({ success: true, message: texts.batch.captured('123456') });
      const long = await put(captureBatch, { batch: '1234567' });
      expect(long.statusCode).toBe(400);
      expect(long.json().message).toBe(texts.batch.tooLong);
      const unknown = await put(captureBatch, { batch: '999999' });
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
      expect((await get(batchByDeliveryNote, { belegnr: 'LS100001' })).json()).toEqual({
        data: { lieferschein: '123456' },
      });
      await t.database.db
        .updateTable('delivery_notes')
        .set({ batch_id: null })
        .where('belegnr', '=', 'LS100099')
        .execute();
      expect((await get(batchByDeliveryNote, { belegnr: 'LS100099' })).json()).toEqual({
        data: { lieferschein: '' },
      });
      expect((await get(batchByDeliveryNote, { belegnr: 'LS999' })).statusCode).toBe(404);
    });

    it('records which employee took over a batch by card', async () => {
      const ok = await put(assignBatch, { lieferschein: '123456', qrcode: demo.cardUser.card });
      expect(ok.json()).toEqual({ success: true, message: texts.batch.assigned('123456', 'Karten Nutzer') });
      const unknown = await put(assignBatch, { lieferschein: '123456', qrcode: 'FREMDE-KARTE' });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().message).toBe(texts.batch.employeeUnknown);
    });

    it('records a batch on a container, 404 for an unknown batch', async () => {
      const ok = await put(captureContainer, { container: 'ABGESCHLOSSENDHL', batch: '123456' });
      expect(ok.json()).toEqual({
        success: true,
        message: texts.container.captured('ABGESCHLOSSENDHL', '123456'),
      });
      expect((await put(captureContainer, { container: 'GLSPROD', batch: '000000' })).statusCode).toBe(404);
    });
  });

  describe('transporter', () => {
    it('needs kennzeichen, then plombe, then container, and a fill level in steps of 5', async () => {
      const base = { kennzeichen: 'HH-LS 123', plombe: 'P-77', container: 'WB-9', value: 55 };
      expect((await put(captureTransporter, { ...base, kennzeichen: '', plombe: '' })).json().message).toBe(
        texts.transporter.kennzeichenMissing,
      );
      expect((await put(captureTransporter, { ...base, plombe: '', container: '' })).json().message).toBe(
        texts.transporter.plombeMissing,
      );
      expect((await put(captureTransporter, { ...base, container: '' })).json().message).toBe(
        texts.transporter.containerMissing,
      );
      for (const value of [53, -5, 105])
        expect((await put(captureTransporter, { ...base, value })).statusCode).toBe(400);
      const ok = await put(captureTransporter, base);
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
      expect((await get(wmsItem, { article: '100002' })).json()).toMatchObject({
        found: true,
        charge: true,
        mindesthaltbarkeit: true,
      });
      expect((await get(wmsItem, { article: '100001' })).json()).toMatchObject({
        found: true,
        charge: false,
        mindesthaltbarkeit: false,
      });
      expect((await get(wmsItem, { article: 'HN-DUP' })).json()).toMatchObject({ found: false, count: 2 });
      expect((await get(wmsStorage, { lhm: 'LHM000001' })).json()).toMatchObject({
        found: true,
        name: 'Ladungsträger 1',
      });
      expect((await get(wmsStorage, { lhm: 'A-01-01-01' })).json()).toEqual({
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
      const res = await put(bookWmsRetoure, booking);
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
      const res = await put(bookWmsRetoure, {
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
        const res = await put(bookWmsRetoure, { ...base, ...change });
        expect(res.statusCode, message).toBe(400);
        expect(res.json().message).toBe(message);
      }
      expect((await put(bookWmsRetoure, { ...base, mhd: '31.12.2027' })).statusCode).toBe(400);
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
      expect((await get(checkWagen)).json()).toEqual({
        found: false,
        wagennummer: null,
        bezeichnung: null,
      });
      expect((await get(findWagen, { wagennummer: 'ZW99' })).json()).toEqual({
        found: false,
        wagennummer: null,
        message: texts.zollpaket.cartNotFound('ZW99'),
      });
      expect((await get(findWagen, { wagennummer: 'ZW01' })).json()).toEqual({
        found: true,
        wagennummer: 'ZW01',
        message: '',
      });
      expect((await get(checkWagen)).json()).toEqual({
        found: true,
        wagennummer: 'ZW01',
        bezeichnung: 'Zollwagen 1',
      });
      expect((await get(findWagen, { wagennummer: 'ZW02' })).json()).toEqual({
        found: false,
        wagennummer: null,
        message: texts.zollpaket.cartStillOpen('Zollwagen 1'),
      });

      const add = await put(zollPaket, {
        lieferschein: 'LS100002',
        wagennummer: 'ZW01',
        close: false,
      });
      expect(add.json()).toEqual({ success: true, message: texts.zollpaket.captured });
      const twice = await put(zollPaket, {
        lieferschein: 'LS100002',
        wagennummer: 'ZW01',
        close: false,
      });
      expect(twice.statusCode).toBe(400);
      expect(twice.json().message).toBe(texts.zollpaket.noteOnCart('LS100002', 'Zollwagen 1'));
      const unknown = await put(zollPaket, {
        lieferschein: 'LS999',
        wagennummer: 'ZW01',
        close: false,
      });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().message).toBe(texts.paketinhalt.deliveryNoteNotFound('LS999'));
      const empty = await put(zollPaket, {
        lieferschein: '',
        wagennummer: 'ZW01',
        close: false,
      });
      expect(empty.statusCode).toBe(400);

      const history = (await get(zollHistory)).json().data;
      expect(history[0]).toMatchObject({ lieferschein: 'LS100002', wagennummer: 'Zollwagen 1' });

      const close = await put(zollPaket, {
        lieferschein: '',
        wagennummer: 'ZW01',
        close: true,
      });
      expect(close.json()).toEqual({ success: true, message: texts.zollpaket.cartClosed });
      const again = await put(zollPaket, {
        lieferschein: '',
        wagennummer: 'ZW01',
        close: true,
      });
      expect(again.statusCode).toBe(400);
      expect(again.json().message).toBe(texts.zollpaket.cartAlreadyClosed('Zollwagen 1'));
      expect((await get(checkWagen)).json().found).toBe(false);
      const onClosed = await put(zollPaket, {
        lieferschein: 'LS100001',
        wagennummer: 'ZW01',
        close: false,
      });
      expect(onClosed.statusCode).toBe(400);
      expect(onClosed.json().message).toBe(texts.zollpaket.cartNotOpen('Zollwagen 1'));

      // The note stays on the first cart: the next cart refuses it.
      expect((await get(findWagen, { wagennummer: 'ZW02' })).json().found).toBe(true);
      const secondCart = await put(zollPaket, {
        lieferschein: 'LS100002',
        wagennummer: 'ZW02',
        close: false,
      });
      expect(secondCart.statusCode).toBe(400);
      expect(secondCart.json().message).toBe(texts.zollpaket.noteOnCart('LS100002', 'Zollwagen 1'));
      expect((await put(zollPaket, { lieferschein: '', wagennummer: 'ZW02', close: true })).statusCode).toBe(
        200,
      );
    });

    it('two workers opening carts at once end with exactly one open cart', async () => {
      const answers = await Promise.all(
        ['ZW03', 'ZW04', 'ZW05'].map((n) => get(findWagen, { wagennummer: n })),
      );
      expect(answers.filter((a) => a.json().found)).toHaveLength(1);
      const { rows } = await sql<{
        n: number;
      }>`select count(*)::int as n from carts where status = 'offen'`.execute(t.database.db);
      expect(rows[0]?.n).toBe(1);
    });
  });
});
