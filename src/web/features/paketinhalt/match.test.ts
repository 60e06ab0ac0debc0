import { describe, expect, it } from 'vitest';
import type { PackageContentRow } from '../../../contract/paketinhalt.ts';
import { matchingRows } from './match.ts';

const row = (over: Partial<PackageContentRow>): PackageContentRow => ({
  id: 1,
  artikel_id: 1,
  nummer: '100001',
  herstellernummer: 'SCH-KS-100',
  name_de: 'Kugelschreiber blau',
  ean: '4006381333931',
  lsmenge: 2,
  pemenge: 0,
  ...over,
});

describe('matching a scan to the delivery note', () => {
  const rows = [row({}), row({ id: 2, nummer: '100003', herstellernummer: null, ean: '04012345678901' })];
  it.each([
    ['100001', 1],
    ['SCH-KS-100', 1],
    ['4006381333931', 1],
    ['04006381333931', 1],
    ['4012345678901', 2],
    ['04012345678901', 2],
  ])('%s matches row %i', (scan, id) => {
    expect(matchingRows(rows, scan).map((r) => r.id)).toEqual([id]);
  });
  it('matches nothing for an unknown code', () => {
    expect(matchingRows(rows, '999')).toEqual([]);
  });
});
