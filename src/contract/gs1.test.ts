import { describe, expect, it } from 'vitest';
import { GROUP_SEPARATOR as GS, isoDate, parseGs1, validCheckDigit } from './gs1.ts';

const today = new Date('2026-11-23T12:00:00Z');
const read = (scan: string) => parseGs1(scan, today);
const data = (scan: string) => {
  const result = read(scan);
  if (result.kind !== 'gs1') throw new Error(`${scan}: ${JSON.stringify(result)}`);
  return result.data;
};

describe('GS1 codes as scanners send them', () => {
  it('reads a GS1 DataMatrix (UDI label) with its symbology identifier and group separators', () => {
    const scan = `]d20108806388269617112302141728021310230214A3263-01${GS}21059${GS}240ARO4808C`;
    expect(data(scan).elements).toEqual([
      { ai: '01', value: '08806388269617' },
      { ai: '11', value: '230214' },
      { ai: '17', value: '280213' },
      { ai: '10', value: '230214A3263-01' },
      { ai: '21', value: '059' },
      { ai: '240', value: 'ARO4808C' },
    ]);
    expect(data(scan)).toMatchObject({
      gtin: '08806388269617',
      batch: '230214A3263-01',
      expiry: '2028-02-13',
    });
  });

  it('reads a GS1-128 carton label: GTIN of the contents, count, batch and best-before', () => {
    const scan = `]C10204006381333931172612001012345A${GS}3024`;
    expect(data(scan)).toMatchObject({
      gtin: '04006381333931',
      expiry: '2026-12-31', // day 00: the month's last day
      batch: '12345A',
      count: 24,
      sscc: null,
    });
  });

  it('reads a pallet label SSCC, also without the symbology identifier', () => {
    expect(data(']C100106141411234567897').sscc).toBe('106141411234567897');
    expect(data('00106141411234567897').sscc).toBe('106141411234567897');
  });

  it('reads the human-readable form with brackets, and weights (310n)', () => {
    expect(data('(01)09521234543213(3103)000123(10)CH 42')).toMatchObject({
      gtin: '09521234543213',
      batch: 'CH 42',
      elements: [
        { ai: '01', value: '09521234543213' },
        { ai: '3103', value: '000123' },
        { ai: '10', value: 'CH 42' },
      ],
    });
  });

  it('reads GS1 Digital Link URIs, with numeric AIs or the short names, query attributes included', () => {
    expect(data('https://id.gs1.org/01/09506000134352/10/ABC/21/12345?17=231231&foo=bar')).toMatchObject({
      gtin: '09506000134352',
      batch: 'ABC',
      expiry: '2023-12-31',
    });
    expect(data('https://example.com/some/path/gtin/9506000134352/lot/L%2F7')).toMatchObject({
      gtin: '09506000134352', // GTIN-13 in the link: the GTIN-14 with a leading 0
      batch: 'L/7',
    });
    expect(read('https://example.com/produkte/kugelschreiber').kind).toBe('none');
  });

  it('leaves plain codes alone: EAN-13, article numbers, locations, load carriers', () => {
    for (const scan of ['4006381333931', '04006381333931', '100001', 'A-01-01-01', 'LHM000001', 'HN-DUP']) {
      expect(read(scan), scan).toEqual({ kind: 'none' });
    }
  });

  it('says in German what is wrong with a broken GS1 code', () => {
    expect(read(']C10104006381333932')).toEqual({
      kind: 'invalid',
      message: 'GS1-Code: Prüfziffer in Feld (01) falsch. Bitte erneut scannen.',
    });
    expect(read(`]d2010400638133393199ABC${GS}55X`)).toEqual({
      kind: 'invalid',
      message: 'GS1-Code: unbekannter Datenbezeichner (55X).',
    });
    expect(read(']C1010400638133')).toMatchObject({ message: 'GS1-Code: Feld (01) ist zu kurz.' });
    expect(read('(01)04006381333931(17)261340')).toMatchObject({
      message: 'GS1-Code: Datum in Feld (17) ungültig.',
    });
    expect(read('(01)04006381333931(30)zwölf')).toMatchObject({
      message: 'GS1-Code: Feld (30) darf nur Ziffern enthalten.',
    });
    expect(read('(01)04006381333931 (10)')).toMatchObject({ kind: 'invalid' });
    // Without any GS1 mark, a digit string that does not read cleanly is no GS1 code at all.
    expect(read('0104006381333932')).toEqual({ kind: 'none' });
  });
});

describe('GS1 helpers', () => {
  it('checks mod-10 check digits of GTINs and SSCCs', () => {
    expect(validCheckDigit('4006381333931')).toBe(true);
    expect(validCheckDigit('04006381333931')).toBe(true);
    expect(validCheckDigit('106141411234567897')).toBe(true);
    expect(validCheckDigit('96385074')).toBe(true); // GTIN-8
    expect(validCheckDigit('4006381333932')).toBe(false);
    expect(validCheckDigit('40063')).toBe(false);
  });

  it('dates YYMMDD with GS1 sliding century window', () => {
    expect(isoDate('260229', today)).toBeNull(); // 2026 is no leap year
    expect(isoDate('280200', today)).toBe('2028-02-29');
    expect(isoDate('761231', today)).toBe('2076-12-31'); // 50 years ahead: still this century
    expect(isoDate('771231', today)).toBe('1977-12-31'); // 51 ahead: the last one
    expect(isoDate('991301', today)).toBeNull();
  });
});
