import { describe, expect, it } from 'vitest';
import { endsScannersBurst, isScannersBurst, withinBurst } from './burst.ts';
import { createKeyBurst } from './key-burst.ts';
import { BURST_GAP_MS, SCANNER_MIN_KEYS } from './timing.ts';

/** Key times `gap` ms apart from 1000 on. */
const keys = (count: number, gap: number) => Array.from({ length: count }, (_, i) => 1000 + i * gap);

describe('a scanner’s burst or a person typing', () => {
  it('takes keys at most 50 ms apart for one burst', () => {
    expect(withinBurst(1000, 1000 + BURST_GAP_MS)).toBe(true);
    expect(withinBurst(1000, 1000 + BURST_GAP_MS + 1)).toBe(false);
  });

  it('takes four keys 2 ms apart, ended by Enter 2 ms later, for a scanner’s', () => {
    const pressed = keys(4, 2);
    expect(isScannersBurst(pressed, 1008)).toBe(true);
  });

  it('never takes 1 to 3 keys for a scan, however fast (a typed amount stays an amount)', () => {
    expect(isScannersBurst(keys(3, 2), 1006)).toBe(false);
    expect(isScannersBurst([], 1000)).toBe(false);
  });

  it('takes keys a person types (80 ms apart) for a person’s', () => {
    expect(isScannersBurst(keys(6, 80), 1000 + 6 * 80)).toBe(false);
  });

  it('takes a burst whose Enter comes more than 50 ms after its last key for a person’s', () => {
    expect(isScannersBurst(keys(6, 2), 1010 + BURST_GAP_MS + 1)).toBe(false);
    expect(isScannersBurst(keys(6, 2), 1010 + BURST_GAP_MS)).toBe(true);
  });

  it('takes a burst with one pause inside for a person’s', () => {
    expect(isScannersBurst([1000, 1002, 1100, 1102, 1104], 1106)).toBe(false);
  });

  it('takes a run of keys for a scanner’s only when its Enter or Tab came within the burst', () => {
    expect(endsScannersBurst(6, true, 4)).toBe(true);
    expect(endsScannersBurst(6, false, 4)).toBe(false);
    expect(endsScannersBurst(3, true, 4)).toBe(false);
  });

  it('asks for eight keys in a field a person types into (a name, a password)', () => {
    expect(isScannersBurst(keys(7, 2), 1014, SCANNER_MIN_KEYS)).toBe(false);
    expect(isScannersBurst(keys(8, 2), 1016, SCANNER_MIN_KEYS)).toBe(true);
  });
});

describe('a field’s burst, key by key (a scan field’s Tab)', () => {
  it('ends a scan at a Tab right after four keys of a burst', () => {
    const burst = createKeyBurst();
    for (const at of keys(4, 2)) burst.add(at);
    expect(burst.endsScan(1008)).toBe(true);
    expect(burst.endsScan(1006 + BURST_GAP_MS + 1)).toBe(false);
  });

  it('starts anew after a pause: a person’s word, then three fast keys, is no scan', () => {
    const burst = createKeyBurst();
    for (const at of keys(6, 120)) burst.add(at);
    for (const at of [3000, 3002, 3004]) burst.add(at);
    expect(burst.endsScan(3006)).toBe(false);
    burst.add(3006);
    expect(burst.endsScan(3008)).toBe(true);
  });
});
