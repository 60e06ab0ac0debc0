import { describe, expect, it } from 'vitest';
import { contract } from './index.ts';
import { OFFLINE_CALLS } from './outbox.ts';
import { outboxEndpoints } from './outbox-endpoints.ts';

describe('the calls that may wait in the outbox', () => {
  it('are capture calls of the contract that write (so each carries an idempotency key)', () => {
    for (const name of OFFLINE_CALLS) {
      const endpoint = contract.find((e) => e.name === name);
      expect(outboxEndpoints[name], name).toBe(endpoint);
      expect(endpoint?.method, name).toMatch(/^(PUT|POST)$/);
    }
  });

  it('leave every booking online-only', () => {
    const bookings = ['bookInventur', 'moveArticle', 'moveLocation', 'bookWmsRetoure', 'zollPaket'];
    for (const name of bookings) expect(OFFLINE_CALLS as readonly string[]).not.toContain(name);
  });
});
