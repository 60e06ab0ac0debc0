import { describe, expect, it } from 'vitest';
import * as capture from './capture.ts';
import { contract } from './index.ts';
import { OFFLINE_CALLS } from './outbox.ts';

describe('the calls that may wait in the outbox', () => {
  it('are capture calls of the contract that write (so each carries an idempotency key)', () => {
    const captureNames = Object.values(capture).map((e) => e.name);
    for (const name of OFFLINE_CALLS) {
      expect(captureNames, name).toContain(name);
      const endpoint = contract.find((e) => e.name === name);
      expect(endpoint?.method, name).toMatch(/^(PUT|POST)$/);
    }
  });

  it('leave every booking online-only', () => {
    const bookings = ['bookInventur', 'moveArticle', 'moveLocation', 'bookWmsRetoure', 'zollPaket'];
    for (const name of bookings) expect(OFFLINE_CALLS as readonly string[]).not.toContain(name);
  });
});
