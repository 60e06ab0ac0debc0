import type { Kysely } from 'kysely';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { BodyOf } from '../../contract/endpoint.ts';
import {
  type ArticleCode,
  type ArticleId,
  type LocationCode,
  type LocationId,
  locationId,
} from '../../contract/ids.ts';
import { bookInventur } from '../../contract/inventur.ts';
import { findLp } from '../../contract/lookup.ts';
import { bookWmsRetoure } from '../../contract/wmsretoure.ts';
import type { Database } from '../db/schema.ts';
import { articleByCode, articleById } from './article.repository.ts';
import { locationByCode, locationById } from './location.repository.ts';

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

  it('leave what a client sends plain: a number and a text, as before', () => {
    expectTypeOf<BodyOf<typeof bookInventur>['lp']>().toEqualTypeOf<number>();
    expect(locationId.safeParse(0).success).toBe(false);
    expect(locationId.safeParse(1).success).toBe(true);
    expect(typeof callsThatMustNotCompile).toBe('function');
  });
});
