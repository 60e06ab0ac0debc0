import { describe, expect, it } from 'vitest';
import { normalizeScan } from './scan-settings.ts';

describe('reading a scan through the device settings', () => {
  it('strips the scanner prefix and suffix only where they are', () => {
    const framed = { prefix: '#', suffix: '$', groupSeparatorAs: '' };
    expect(normalizeScan('#100001$', framed)).toBe('100001');
    expect(normalizeScan('100001', framed)).toBe('100001');
    expect(normalizeScan('A-#01$-01', framed)).toBe('A-#01$-01');
  });

  it('turns what the wedge types for the GS1 group separator back into ASCII 29', () => {
    const wedge = { prefix: ']C1', suffix: '', groupSeparatorAs: '<GS>' };
    expect(normalizeScan(']C10104006381333931' + '10CH-1<GS>3024', wedge)).toBe(
      '0104006381333931' + '10CH-1\u001d3024',
    );
    expect(normalizeScan('100001', { prefix: '', suffix: '', groupSeparatorAs: '' })).toBe('100001');
  });
});
