import { describe, expect, it } from 'vitest';
import { ABC_SHARES } from '../../../../contract/leitstand/inventur-auswertung.ts';
import { classify } from './abc.ts';

/** The rule as plainly as it can be written: a comparator's sort and a walk, one class per article. */
function byTheRule(counts: Map<number, number>): Map<number, string> {
  const ranked = [...counts].filter(([, n]) => n > 0).sort(([a, m], [b, n]) => n - m || a - b);
  const total = ranked.reduce((sum, [, n]) => sum + n, 0);
  const classes = new Map<number, string>();
  let before = 0;
  for (const [id, n] of ranked) {
    const share = (100 * before) / total;
    classes.set(id, share < ABC_SHARES.A ? 'A' : share < ABC_SHARES.A + ABC_SHARES.B ? 'B' : 'C');
    before += n;
  }
  return classes;
}

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
    expect([7, 3, 9, 5, 8].map((id) => classes.of(id))).toEqual(['A', 'A', 'A', 'B', 'C']);
    expect(classes.of(4)).toBe('C'); // no movement
    expect(classes.of(1234)).toBe('C'); // not in the journal's window at all
    expect(classes.articles).toEqual({ A: 3, B: 1, C: 1 });
    expect(classes.movements).toBe(130);
  });

  it('breaks a tie by id exactly at the largest ids and counts (an id near 2^31, counts in the millions)', () => {
    // 4,000,000 movements. Before each: 3,160,000 none (A), 440,000 79 % (A), then the tie at 200,000 each:
    // the lower id 90 % (B), the higher 95 % (C).
    const low = 2_147_483_000;
    const high = 2_147_483_001;
    const classes = classify(
      new Map([
        [high, 200_000],
        [1, 3_160_000],
        [low, 200_000],
        [2, 440_000],
      ]),
    );
    expect([1, 2, low, high].map((id) => classes.of(id))).toEqual(['A', 'A', 'B', 'C']);
  });

  it('classes 100,000 articles as the rule does, as the large seed has them', () => {
    const counts = new Map(Array.from({ length: 100_000 }, (_, i) => [i + 1, (i * 7919) % 500] as const));
    const classes = classify(counts);
    const expected = byTheRule(counts);
    const wrong = [...counts.keys()].filter((id) => classes.of(id) !== (expected.get(id) ?? 'C'));
    expect(wrong).toEqual([]);
    const tally = { A: 0, B: 0, C: 0 };
    for (const klasse of expected.values()) tally[klasse as 'A' | 'B' | 'C']++;
    expect(classes.articles).toEqual(tally);
    expect(tally.A > 0 && tally.B > 0 && tally.C > 0).toBe(true);
  });
});
