import { describe, expect, it } from 'vitest';
import { eanVariants } from './ean.ts';

describe('the EANs a scan may stand for', () => {
  it('adds one leading 0 and drops one', () => {
    expect(eanVariants('4006381333931')).toEqual(['4006381333931', '04006381333931']);
    expect(eanVariants('04006381333931')).toEqual(['04006381333931', '004006381333931', '4006381333931']);
  });

  it('is none for a code that is not all digits', () => {
    expect(eanVariants('SCH-KS-100')).toEqual([]);
    expect(eanVariants('')).toEqual([]);
  });
});
