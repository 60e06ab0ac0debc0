import { describe, expect, it } from 'vitest';
import { afterRelease } from '../db/durability.ts';
import { directSteps, HeavyBusy, HeavyOperations, StepSize } from './back-office.ts';

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

describe('a timed step', () => {
  /** Keeps the thread busy for `ms`, as building CSV lines or running PGlite does. */
  const busy = (ms: number) => {
    const end = performance.now() + ms;
    while (performance.now() < end);
  };

  it('counts the time it held the thread, not the time it waited for a database on another machine', async () => {
    const size = new StepSize({ targetMs: 5, max: 1000, start: 100 });
    // Each step waits 30 ms for its answer (PostgreSQL's round trips and its commit's sync) with the thread
    // free, and holds the thread 0.2 ms whatever its rows: it grows by half a step towards the most. By the
    // time it took (30 ms for 100 rows) it would shrink to 16 rows and stay there.
    for (let i = 0; i < 12; i++) {
      await size.timed(async (rows) => {
        await new Promise((resolve) => setTimeout(resolve, 30));
        busy(0.2);
        return { rows };
      });
    }
    // Quiet, it reaches the most (100 × 1.5⁷ > 1,000). On a machine busy with other work (CI's other test
    // files, load 13 on two cores) a thread descheduled inside a step counts as held, and a step "held" for
    // tens of ms cuts the size at once; it grows back by half a step. So the bound is one that sizing by wall
    // time could never reach, with room: three times its 16 rows. (It was 150 after 8 steps, and failed once at
    // load 13.)
    expect(size.rows).toBeGreaterThan(50);
  });

  it('cuts a step that holds the thread longer than its target', async () => {
    const size = new StepSize({ targetMs: 5, max: 1000, start: 100 });
    await size.timed(async (rows) => {
      busy(rows * 0.2); // 20 ms for 100 rows: 0.2 ms a row
      return { rows };
    });
    expect(size.rows).toBeLessThanOrEqual(25); // 5 ms worth, or fewer on a busier machine
  });
});

describe('steps without a gate (a CLI import)', () => {
  it('wait for the disk after each step, unless the step says its commits are told to no one yet', async () => {
    const never = new Promise<void>(() => {}); // a WAL sync that has not finished
    const turns = () => new Promise((resolve) => setTimeout(() => resolve('waited'), 20));
    const ahead = directSteps.run(() => afterRelease(never), { waitForDisk: false }).then(() => 'went on');
    expect(await Promise.race([ahead, turns()])).toBe('went on');
    const waiting = directSteps.run(() => afterRelease(never)).then(() => 'went on');
    expect(await Promise.race([waiting, turns()])).toBe('waited');
  });
});
