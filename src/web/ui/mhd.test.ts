import { describe, expect, it } from 'vitest';
import { parseMhd } from './mhd.ts';

describe('reading a best-before date', () => {
  it.each([
    ['311227', '2027-12-31'],
    ['31.12.2027', '2027-12-31'],
    ['1.3.2028', '2028-03-01'],
    ['01.03.28', '2028-03-01'],
    ['2027-12-31', '2027-12-31'],
    [' 290228 ', '2028-02-29'],
  ])('%s → %s', (input, iso) => {
    expect(parseMhd(input)).toBe(iso);
  });

  it.each(['310227', '31.02.2027', '2027-13-01', '12/31/2027', '', 'morgen', '1234567'])(
    'refuses %s',
    (input) => {
      expect(parseMhd(input)).toBeNull();
    },
  );
});
