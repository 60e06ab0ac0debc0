import type { Kysely } from 'kysely';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { BodyOf } from '../contract/endpoint.ts';
import {
  type ArticleCode,
  type ArticleId,
  type DeliveryNoteId,
  type DeliveryNoteLineId,
  type KlaerfallId,
  type LocationCode,
  type LocationId,
  locationId,
  type ReceiptId,
  type ReceiptLineId,
  type UserId,
} from '../contract/ids.ts';
import { bookInventur } from '../contract/inventur.ts';
import { savePackageRecording } from '../contract/kartonagen.ts';
import { pickTake } from '../contract/kommissionierung.ts';
import { klaerfallZurueck } from '../contract/leitstand/klaerfaelle.ts';
import { findLp } from '../contract/lookup.ts';
import { bookReceipt, suggestLocation } from '../contract/wareneingang.ts';
import { bookWmsRetoure } from '../contract/wmsretoure.ts';
import type { Database } from './db/schema.ts';
import * as kartonagen from './features/kartonagen/service.ts';
import * as kommissionierung from './features/kommissionierung/service.ts';
import * as benutzer from './features/leitstand/benutzer/service.ts';
import * as klaerfaelle from './features/leitstand/klaerfaelle/service.ts';
import * as paketinhalt from './features/paketinhalt/service.ts';
import * as wareneingang from './features/wareneingang/service.ts';
import { articleByCode, articleById } from './repositories/article.repository.ts';
import { deliveryNoteById } from './repositories/delivery-note.repository.ts';
import { locationByCode, locationById } from './repositories/location.repository.ts';

/**
 * The brands of decision 32 are types only: these checks run in `tsc` (each `@ts-expect-error` must meet an
 * error, or the type check fails) and the tests below show that the wire stays as it was.
 */
function callsThatMustNotCompile(
  db: Kysely<Database>,
  ids: { location: LocationId; article: ArticleId },
  codes: { location: LocationCode; article: ArticleCode },
) {
  void locationById(db, ids.location);
  void articleById(db, ids.article);
  void locationByCode(db, codes.location);
  void articleByCode(db, codes.article);
  // @ts-expect-error an article's id is no location's
  void locationById(db, ids.article);
  // @ts-expect-error a location's id is no article's
  void articleById(db, ids.location);
  // @ts-expect-error a scanned code is no id
  void locationById(db, codes.location);
  // @ts-expect-error an article's code is no location's
  void locationByCode(db, codes.article);
  // @ts-expect-error a plain number is no location's id until the contract parsed it
  void locationById(db, 12);
  // @ts-expect-error nor a plain text a location's code
  void locationByCode(db, 'A-01-01-01');
}

interface Ids {
  deliveryNote: DeliveryNoteId;
  noteLine: DeliveryNoteLineId;
  receipt: ReceiptId;
  receiptLine: ReceiptLineId;
  klaerfall: KlaerfallId;
  location: LocationId;
  user: UserId;
}

/**
 * The documents' ids (a delivery note, a receipt, their lines, a Klärfall) and a user's: each is a number in
 * the database and on the wire, and a service that wants one refuses the others at compile time.
 */
function documentCallsThatMustNotCompile(db: Kysely<Database>, picker: kommissionierung.Picker, ids: Ids) {
  const pick = { deliveryNoteId: ids.deliveryNote, lineId: ids.noteLine, amount: 1 };
  const take = { ...pick, locationId: ids.location, requestKey: null };
  const booking = {
    receiptNumber: 'WE100001',
    lineId: ids.receiptLine,
    locationCode: 'A-01-01-01' as LocationCode,
    amount: 1,
    charge: null,
    mhd: null,
    surplusConfirmed: false,
    userId: 1,
    requestKey: null,
  };
  const resolution = { klaerfallId: ids.klaerfall, userId: 1, requestKey: null };
  void deliveryNoteById(db, ids.deliveryNote);
  void kommissionierung.pickTake(db, picker, take);
  void kommissionierung.pickShortage(db, picker, pick);
  void kommissionierung.pickRelease(db, picker, ids.deliveryNote);
  void paketinhalt.klaerfall(db, { deliveryNoteId: ids.deliveryNote, userId: 1 });
  void kartonagen.savePackageRecording(db, { deliveryNoteId: ids.deliveryNote, kartonagen: [], userId: 1 });
  void wareneingang.suggestLocation(db, ids.receiptLine, undefined);
  void wareneingang.bookReceipt(db, booking);
  void klaerfaelle.klaerfallZurueck(db, resolution);
  void benutzer.newUserCard(db, 30, { userId: 1, requestKey: null }, ids.user);
  // @ts-expect-error a receipt's id is no delivery note's
  void deliveryNoteById(db, ids.receipt);
  // @ts-expect-error nor a note line's
  void deliveryNoteById(db, ids.noteLine);
  // @ts-expect-error a plain number is no delivery note's id until the contract parsed it
  void deliveryNoteById(db, 12);
  // @ts-expect-error a receipt's id is no delivery note's, for a pick either
  void kommissionierung.pickTake(db, picker, { ...take, deliveryNoteId: ids.receipt });
  // @ts-expect-error a receipt line's id is no note line's
  void kommissionierung.pickShortage(db, picker, { ...pick, lineId: ids.receiptLine });
  // @ts-expect-error a Klärfall's id is no note's
  void kommissionierung.pickRelease(db, picker, ids.klaerfall);
  // @ts-expect-error a receipt's id is no note's at the packing station
  void paketinhalt.klaerfall(db, { deliveryNoteId: ids.receipt, userId: 1 });
  // @ts-expect-error nor a location's for the cartons
  void kartonagen.savePackageRecording(db, { deliveryNoteId: ids.location, kartonagen: [], userId: 1 });
  // @ts-expect-error a note line's id is no receipt line's
  void wareneingang.suggestLocation(db, ids.noteLine, undefined);
  // @ts-expect-error nor when goods are booked in
  void wareneingang.bookReceipt(db, { ...booking, lineId: ids.noteLine });
  // @ts-expect-error a delivery note's id is no Klärfall's (a stale page must not close the note's next one)
  void klaerfaelle.klaerfallZurueck(db, { ...resolution, klaerfallId: ids.deliveryNote });
  // @ts-expect-error a Klärfall's id is no user's (the Leitstand's Benutzer page)
  void benutzer.newUserCard(db, 30, { userId: 1, requestKey: null }, ids.klaerfall);
}

describe('the branded ids and codes', () => {
  it('are what a parsed request carries, under the wire names that stay (bookInventur, bookWmsRetoure, findLp)', () => {
    const count = bookInventur.body.parse({ lp: 3, article: 7, amount: 2 });
    expectTypeOf(count.lp).toEqualTypeOf<LocationId>();
    expectTypeOf(count.article).toEqualTypeOf<ArticleId>();
    expect(count).toEqual({ lp: 3, article: 7, amount: 2 });
    const wms = bookWmsRetoure.body.parse({ article: 7, lagerplatz: 3, amount: 1, charge: null, mhd: null });
    expectTypeOf(wms.lagerplatz).toEqualTypeOf<LocationId>();
    const lookup = findLp.params.parse({ code: ' A-01-01-01 ' });
    expectTypeOf(lookup.code).toEqualTypeOf<LocationCode>();
    expect(lookup.code).toBe('A-01-01-01');
  });

  it('are what a parsed request carries for the documents: picking, cartons, receipts, Klärfälle', () => {
    const take = pickTake.body.parse({ id: 4, positionId: 9, lagerplatzId: 3, menge: 1 });
    expectTypeOf(take.id).toEqualTypeOf<DeliveryNoteId>();
    expectTypeOf(take.positionId).toEqualTypeOf<DeliveryNoteLineId>();
    expect(take).toEqual({ id: 4, positionId: 9, lagerplatzId: 3, menge: 1 });
    const cartons = savePackageRecording.params.parse({ id: '4' });
    expectTypeOf(cartons.id).toEqualTypeOf<DeliveryNoteId>();
    expect(cartons.id).toBe(4);
    const booking = bookReceipt.body.parse({
      wareneingang: 'WE100001',
      position: 9,
      lagerplatz: 'A-01-01-01',
      amount: 1,
      charge: null,
      mhd: null,
    });
    expectTypeOf(booking.position).toEqualTypeOf<ReceiptLineId>();
    expectTypeOf(suggestLocation.params.parse({ position: '9' }).position).toEqualTypeOf<ReceiptLineId>();
    expectTypeOf(
      klaerfallZurueck.params.parse({ klaerfallId: '2' }).klaerfallId,
    ).toEqualTypeOf<KlaerfallId>();
    expectTypeOf<BodyOf<typeof pickTake>['id']>().toEqualTypeOf<number>();
    expect(typeof documentCallsThatMustNotCompile).toBe('function');
  });

  it('leave what a client sends plain: a number and a text, as before', () => {
    expectTypeOf<BodyOf<typeof bookInventur>['lp']>().toEqualTypeOf<number>();
    expect(locationId.safeParse(0).success).toBe(false);
    expect(locationId.safeParse(1).success).toBe(true);
    expect(typeof callsThatMustNotCompile).toBe('function');
  });
});
