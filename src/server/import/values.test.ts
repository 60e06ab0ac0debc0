import { describe, expect, it } from 'vitest';
import { inEnglish } from './messages.ts';
import {
  isValidGtin,
  type Parsed,
  parseBoolean,
  parseDate,
  parseNumber,
  parseWholeNumber,
} from './values.ts';

const value = <T>(parsed: Parsed<T>) => (parsed.ok ? parsed.value : `refused: ${inEnglish(parsed.reason)}`);

describe('German cell values', () => {
  it('reads German and plain numbers', () => {
    expect(value(parseNumber('1.234,5'))).toBe(1234.5);
    expect(value(parseNumber('1.234.567'))).toBe(1234567);
    expect(value(parseNumber('1.234'))).toBe(1234);
    expect(value(parseNumber('12,75'))).toBe(12.75);
    expect(value(parseNumber('-3'))).toBe(-3);
    expect(value(parseNumber('12.5'))).toBe(12.5);
    expect(value(parseNumber(' 2 500 '))).toBe(2500);
    expect(value(parseNumber('1,2,3'))).toMatch(/^refused: "1,2,3" is not a number/);
    expect(value(parseNumber('12.34,5'))).toMatch(/^refused/);
    expect(value(parseNumber('zwölf'))).toMatch(/^refused/);
  });

  it('wants whole numbers in range where amounts are counted', () => {
    expect(value(parseWholeNumber('2.500,0', 0, 10_000))).toBe(2500);
    expect(value(parseWholeNumber('12,5', 0, 100))).toBe('refused: "12,5" is not a whole number');
    expect(value(parseWholeNumber('-1', 0, 100))).toBe('refused: -1 is not between 0 and 100');
  });

  it('reads German and ISO dates, and refuses dates that do not exist', () => {
    expect(value(parseDate('31.12.2027'))).toBe('2027-12-31');
    expect(value(parseDate('1.2.2027'))).toBe('2027-02-01');
    expect(value(parseDate('30.06.28'))).toBe('2028-06-30');
    expect(value(parseDate('2028-02-29'))).toBe('2028-02-29');
    expect(value(parseDate('31.12.2027 00:00:00'))).toBe('2027-12-31');
    expect(value(parseDate('2027-12-31T00:00'))).toBe('2027-12-31');
    expect(value(parseDate('29.02.2027'))).toBe('refused: "29.02.2027" is not a valid calendar date');
    expect(value(parseDate('2027-13-01'))).toMatch(/^refused/);
    expect(value(parseDate('12/31/2027'))).toMatch(/^refused: "12\/31\/2027" is not a date/);
  });

  it('reads ja/nein as exports write it', () => {
    for (const yes of ['ja', 'JA', 'j', 'x', '1', 'wahr', 'true'])
      expect(value(parseBoolean(yes, false))).toBe(true);
    for (const no of ['nein', 'N', '0', 'falsch', 'false']) expect(value(parseBoolean(no, true))).toBe(false);
    expect(value(parseBoolean('', true))).toBe(true);
    expect(value(parseBoolean('vielleicht', false))).toBe('refused: "vielleicht" is not ja or nein');
  });

  it('checks the check digit of EAN/GTIN codes', () => {
    expect(isValidGtin('4006381333931')).toBe(true);
    expect(isValidGtin('4006381333932')).toBe(false);
    expect(isValidGtin('96385074')).toBe(true);
    expect(isValidGtin('036000291452')).toBe(true);
    expect(isValidGtin('12345')).toBe(false);
  });
});
