import { describe, expect, it } from 'vitest';
import {
  contract,
  etikettenContract,
  exportContract,
  extraContract,
  leitstandContract,
} from '../../../../contract/index.ts';
import { screenOf } from './service.ts';

describe('the Übersicht’s screen of a write', () => {
  it('names every write by its screen, never by its path (issue 36.9: /api/wareneingang/buchen showed as it is)', () => {
    const writes = [
      ...contract,
      ...extraContract,
      ...leitstandContract,
      ...etikettenContract,
      ...exportContract,
    ]
      .filter((e) => e.method !== 'GET')
      .map((e) => `${e.method} ${e.path}`);
    expect(writes.length).toBeGreaterThan(30);
    expect(writes.filter((route) => screenOf(route).startsWith('/'))).toEqual([]);
    expect(screenOf('POST /api/wareneingang/buchen')).toBe('Wareneingang');
    expect(screenOf('POST /api/umbuchung/artikel/')).toBe('Artikel umlagern');
  });
});
