import { describe, expect, it } from 'vitest';
import { carrierFromTracking } from './carrier.ts';

describe('carrier from the tracking number', () => {
  it.each([
    ['00340434161094042557', 'dhl'],
    ['JJD000390007827653', 'dhl'],
    ['1Z999AA10123456784', 'ups'],
    ['01234567890123', 'dpd'],
    ['91000100098', 'gls'],
    ['ABC', 'no-image'],
  ])('%s → %s', (tracking, carrier) => {
    expect(carrierFromTracking(tracking)).toBe(carrier);
  });
});
