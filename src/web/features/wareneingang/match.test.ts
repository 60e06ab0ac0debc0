import { describe, expect, it } from 'vitest';
import type { ReceiptLine } from '../../../contract/wareneingang.ts';
import { lineForScan, openOf } from './match.ts';

const line = (position: number, over: Partial<ReceiptLine> = {}): ReceiptLine => ({
  position,
  artikelId: 1,
  nummer: '100001',
  name: 'Kugelschreiber blau',
  ean: '4006381333931',
  herstellernummer: 'SCH-KS-100',
  chargePflicht: false,
  mhdPflicht: false,
  charge: null,
  mhd: null,
  erwartet: 20,
  erhalten: 0,
  fehlmenge: null,
  mehrmenge: null,
  ...over,
});

describe('finding the receipt line of a scanned article', () => {
  it('matches the Artikelnummer, the Herstellernummer and the EAN with or without a leading 0', () => {
    const lines = [line(1), line(2, { nummer: '100003', ean: '4012345678901', herstellernummer: 'TM' })];
    expect(lineForScan(lines, '100001', null)).toEqual({ line: lines[0] });
    expect(lineForScan(lines, 'SCH-KS-100', null)).toEqual({ line: lines[0] });
    expect(lineForScan(lines, '04012345678901', null)).toEqual({ line: lines[1] });
    expect(lineForScan(lines, '4006381333931', null)).toEqual({ line: lines[0] });
    expect(lineForScan(lines, '999', null)).toEqual({ none: true });
  });

  it("takes the line of the label's Charge, and names the announced ones when it has none of them", () => {
    const lines = [line(1, { charge: 'A', erhalten: 20 }), line(2, { charge: 'B' })];
    expect(lineForScan(lines, '100001', 'B')).toEqual({ line: lines[1] });
    expect(lineForScan(lines, '100001', 'C')).toEqual({ chargeExpected: 'A, B' });
    // Without a Charge on the label: the first line still open.
    expect(lineForScan(lines, '100001', null)).toEqual({ line: lines[1] });
    expect(openOf(lines[0] as ReceiptLine)).toBe(0);
    expect(openOf(line(3, { erhalten: 25 }))).toBe(0);
  });
});
