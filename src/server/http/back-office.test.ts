import { describe, expect, it } from 'vitest';
import { HeavyBusy, HeavyOperations, StepSize } from './back-office.ts';

describe('heavy operations', () => {
  it('lets at most max run at once and refuses the next with a Retry-After until one ends', () => {
    const heavy = new HeavyOperations(2);
    const first = heavy.enter();
    const second = heavy.enter();
    expect(heavy.inWork).toBe(2);
    let refusal: unknown;
    try {
      heavy.enter();
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(HeavyBusy);
    expect((refusal as HeavyBusy).retryAfterSeconds).toBeGreaterThan(0);
    first();
    first(); // a second release of the same place frees nothing more
    expect(heavy.inWork).toBe(1);
    heavy.enter();
    expect(() => heavy.enter()).toThrow(HeavyBusy);
    second();
    expect(heavy.inWork).toBe(1);
  });
});

describe('step size', () => {
  it('starts small, then reads as many rows as fit the target time, within its bounds', () => {
    const size = new StepSize({ targetMs: 10, min: 20, max: 4000, start: 100 });
    expect(size.rows).toBe(100);
    size.measured(100, 2); // 0.02 ms a row: 500 would fit, but a step grows by half at most
    expect(size.rows).toBe(150);
    for (let i = 0; i < 30; i++) size.measured(size.rows, size.rows * 0.002); // 0.002 ms a row
    expect(size.rows).toBe(4000); // 5,000 would fit; 4,000 the most
    size.measured(20, 200); // 10 ms a row: believed at once, the least
    expect(size.rows).toBe(20);
    size.measured(0, 500); // a step that read nothing says nothing about rows
    expect(size.rows).toBe(20);
  });

  it('cuts a step at once when rows get dearer (from disk, not the cache), and grows back slowly', () => {
    const size = new StepSize({ targetMs: 5, max: 5000, start: 1000 });
    size.measured(1000, 1); // 0.001 ms a row, from the cache
    const cached = size.rows;
    expect(cached).toBe(1500);
    size.measured(cached, cached * 0.07); // 0.07 ms a row from disk: 105 ms
    expect(size.rows).toBe(71); // 5 ms worth at once
    size.measured(71, 71 * 0.001); // cheap again
    expect(size.rows).toBeLessThanOrEqual(107); // by half at most
  });
});
