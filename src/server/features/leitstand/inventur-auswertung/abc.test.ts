import { describe, expect, it } from 'vitest';
import { classify } from './abc.ts';

describe('the ABC split of the articles by their movements', () => {
  it('ranks most movements first, ties by id, and splits at 80 % and 95 % of all movements', () => {
    // 130 movements. Before each: 7 none (A), 3 38 % (A; 3 before 9 by id), 9 62 % (A), 5 85 % (B), 8 96 % (C).
    const counts = new Map([
      [9, 30],
      [8, 5],
      [5, 15],
      [7, 50],
      [3, 30],
      [4, 0],
    ]);
    const classes = classify(counts);
    expect([...classes.entries()]).toEqual([
      [7, 'A'],
      [3, 'A'],
      [9, 'A'],
      [5, 'B'],
      [8, 'C'],
    ]);
    expect(classes.has(4)).toBe(false); // no movement: not ranked, C
  });

  it('keeps ids and counts exact at their largest (an id near 2^31, a count in the millions)', () => {
    const classes = classify(
      new Map([
        [2_147_483_000, 4_000_000],
        [1, 3_999_999],
      ]),
    );
    expect([...classes.keys()]).toEqual([2_147_483_000, 1]);
  });

  it('ranks 100,000 articles in one go, as the large seed has them', () => {
    const counts = new Map(Array.from({ length: 100_000 }, (_, i) => [i + 1, (i * 7919) % 500] as const));
    const classes = classify(counts);
    const ranked = [...classes.keys()];
    for (let i = 1; i < ranked.length; i++) {
      const a = counts.get(ranked[i - 1] ?? 0) ?? 0;
      const b = counts.get(ranked[i] ?? 0) ?? 0;
      expect(a > b || (a === b && (ranked[i - 1] ?? 0) < (ranked[i] ?? 0))).toBe(true);
    }
  });
});
