import { describe, expect, it } from 'vitest';
import { SessionCache } from './session-cache.ts';

describe('the session cache', () => {
  const user = (sessionId: number) => ({
    id: 1,
    name: 'Demo Nutzer',
    role: 'mitarbeiter' as const,
    language: 'de' as const,
    sessionId,
  });

  it('keeps at most its bound of entries, dropping the oldest first, and stays off with 0 s', () => {
    const cache = new SessionCache(2000, () => 0, 3);
    for (const n of [1, 2, 3, 4]) cache.remember(`t${n}`, user(n));
    expect(cache.size).toBe(3);
    expect(cache.get('t1')).toBeNull();
    expect(cache.get('t4')).toEqual(user(4));
    cache.remember('t2', user(2)); // used again: now the newest
    cache.remember('t5', user(5));
    expect(cache.get('t3')).toBeNull();
    expect(cache.get('t2')).toEqual(user(2));

    const off = new SessionCache(0, () => 0);
    off.remember('t1', user(1));
    expect(off.get('t1')).toBeNull();
  });
});
