// Longer than 400 lines on purpose: one test per rule of the admission gate (decisions 26 and 31), each on
// a clock the test moves by hand; split, the helpers at the top would be written twice.
import { describe, expect, it, vi } from 'vitest';
import { afterRelease, deferred } from '../db/durability.ts';
import { AdmissionGate, BACK_OFFICE_TURN_MS, Overloaded } from './admission.ts';

/** A clock the test moves by hand (ms). */
function manualClock() {
  let now = 1_000;
  return {
    now: () => now,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

/** Lets the event loop take a few turns: the gate starts work and passes places on at the next turn. */
const settle = async () => {
  for (let turn = 0; turn < 5; turn++) await new Promise<void>((resolve) => setImmediate(resolve));
};

/** Work the test finishes (or fails) by hand; `started` says whether the gate let it begin. */
function job(name: string, log: string[]) {
  let finish!: () => void;
  let fail!: (error: Error) => void;
  const done = new Promise<string>((resolve, reject) => {
    finish = () => resolve(name);
    fail = reject;
  });
  const state = { started: false };
  return {
    state,
    finish,
    fail,
    work: () => {
      state.started = true;
      log.push(name);
      return done;
    },
  };
}

/** What became of a run: its value, or the reason it was refused. */
function outcome(promise: Promise<string>) {
  const result: { value?: string; refused?: string; retryAfter?: number; error?: unknown } = {};
  promise.then(
    (value) => {
      result.value = value;
    },
    (error: unknown) => {
      if (error instanceof Overloaded) {
        result.refused = error.reason;
        result.retryAfter = error.retryAfterSeconds;
      } else result.error = error;
    },
  );
  return result;
}

describe('the admission gate', () => {
  it('admits up to its places at once and lets the rest wait, first come first served', async () => {
    const clock = manualClock();
    const gate = new AdmissionGate({ concurrency: 2, maxWaitMs: 1000, now: clock.now });
    const log: string[] = [];
    const jobs = ['a', 'b', 'c', 'd', 'e'].map((name) => job(name, log));
    const results = jobs.map((j) => outcome(gate.run(j.work)));
    await settle();
    expect(log).toEqual(['a', 'b']);
    expect([gate.inWork, gate.waiting]).toEqual([2, 3]);

    jobs[1]?.finish();
    await settle();
    expect(log).toEqual(['a', 'b', 'c']);
    expect(results[1]?.value).toBe('b');
    jobs[0]?.finish();
    jobs[2]?.finish();
    await settle();
    expect(log).toEqual(['a', 'b', 'c', 'd', 'e']);
    jobs[3]?.finish();
    jobs[4]?.finish();
    await settle();
    expect(results.map((r) => r.value)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect([gate.inWork, gate.waiting]).toEqual([0, 0]);
  });

  it('refuses at once an arrival whose estimated wait is above 60 % of the longest: places ahead × service time ÷ places', async () => {
    const clock = manualClock();
    const gate = new AdmissionGate({ concurrency: 2, maxWaitMs: 100, now: clock.now });
    const log: string[] = [];
    // Requests that took 40 ms teach the gate its service time.
    for (let i = 0; i < 400; i++)
      await gate.run(async () => {
        clock.advance(40);
      });
    expect(gate.serviceMs()).toBeGreaterThan(39.9);
    expect(gate.serviceMs()).toBeLessThanOrEqual(40);
    expect(gate.arrivalLimitMs()).toBe(60);

    const holders = [job('x', log), job('y', log)];
    for (const h of holders) outcome(gate.run(h.work));
    // Each one in line adds 40 / 2 = 20 ms: the 3rd in line waits ≈ 60 ms, a 4th would wait ≈ 80 ms.
    const line = Array.from({ length: 5 }, (_, i) => job(`w${i}`, log));
    const results = line.map((j) => outcome(gate.run(j.work)));
    await settle();
    expect(results.map((r) => r.refused ?? 'waiting')).toEqual([
      'waiting',
      'waiting',
      'waiting',
      'estimate',
      'estimate',
    ]);
    expect(gate.waiting).toBe(3);
    expect(gate.shed.estimate).toBe(2);

    // The ones in line get their turn; the refused ones never run.
    for (const h of holders) h.finish();
    for (const j of line) j.finish();
    await settle();
    expect(log.filter((name) => /^w\d$/.test(name))).toEqual(['w0', 'w1', 'w2']);
    expect([gate.inWork, gate.waiting]).toEqual([0, 0]);
  });

  it('is not thrown by one long pause: 64 callers in line after a 100 ms garbage collection are still served', async () => {
    const clock = manualClock();
    const gate = new AdmissionGate({ concurrency: 1, maxWaitMs: 500, now: clock.now });
    for (let i = 0; i < 400; i++)
      await gate.run(async () => {
        clock.advance(1);
      });
    await gate.run(async () => {
      clock.advance(100); // the pause
    });
    expect(gate.serviceMs()).toBeLessThan(3.5);
    // 64 scanners' closed loop: one in work, 63 in line, ≈ 0.2 s estimated.
    const log: string[] = [];
    const holder = job('holder', log);
    outcome(gate.run(holder.work));
    const line = Array.from({ length: 63 }, (_, i) => outcome(gate.run(job(`w${i}`, log).work)));
    await settle();
    expect(line.filter((r) => r.refused)).toHaveLength(0);
    expect(gate.shed.estimate).toBe(0);
    expect(gate.waiting).toBe(63);
  });

  it('estimates each call by its own kind: 64 logins at shift start do not make the lookups after them look slow', async () => {
    const clock = manualClock();
    const gate = new AdmissionGate({ concurrency: 1, maxWaitMs: 500, now: clock.now });
    const login = gate.kind('POST /api/user/login');
    const lookup = gate.kind('GET /api/inventur/findarticle/:number');
    for (let i = 0; i < 64; i++)
      await gate.run(
        async () => {
          clock.advance(30); // the password's hash
        },
        undefined,
        login,
      );
    expect(gate.serviceMs(login)).toBeGreaterThan(20);
    expect(gate.serviceMs(lookup)).toBe(1);
    // The 64 scanners' first lookups all at once: one in work, 63 in line, ≈ 63 ms estimated.
    const log: string[] = [];
    const holder = job('holder', log);
    outcome(gate.run(holder.work, undefined, lookup));
    const lookups = Array.from({ length: 63 }, (_, i) =>
      outcome(gate.run(job(`l${i}`, log).work, undefined, lookup)),
    );
    await settle();
    expect(lookups.filter((r) => r.refused)).toHaveLength(0);
    // Behind them, logins are what they are: a line of 63 ms + n × ~25 ms passes 300 ms after about ten.
    const logins = Array.from({ length: 20 }, (_, i) =>
      outcome(gate.run(job(`p${i}`, log).work, undefined, login)),
    );
    await settle();
    const waitingLogins = logins.filter((r) => !r.refused).length;
    expect(waitingLogins).toBeGreaterThan(5);
    expect(waitingLogins).toBeLessThan(15);
    // ... and a lookup behind those logins is expected to wait for them too.
    expect(gate.estimatedWaitMs(lookup)).toBeGreaterThan(250);
  });

  it('takes a free place without estimating anything', async () => {
    const gate = new AdmissionGate({ concurrency: 1, maxWaitMs: 10, now: () => 0 });
    expect(gate.estimatedWaitMs()).toBe(0);
    expect(await gate.run(async () => 'done')).toBe('done');
  });

  it('starts work on the next turn of the event loop, and passes a place on a turn later, so arrivals are read in between', async () => {
    const gate = new AdmissionGate({ concurrency: 1, maxWaitMs: 1000, now: () => 0 });
    const log: string[] = [];
    // Work that never yields (PGlite's): each one would otherwise run before the next request is even read.
    const first = gate.run(async () => {
      log.push('first');
      setImmediate(() => log.push('the loop read what arrived'));
    });
    const second = gate.run(async () => {
      log.push('second');
    });
    expect(log).toEqual([]); // nothing ran in the turn that brought the requests
    expect([gate.inWork, gate.waiting]).toEqual([1, 1]); // both reached the gate: the line is seen
    await Promise.all([first, second]);
    expect(log).toEqual(['first', 'the loop read what arrived', 'second']);
  });

  it('refuses, before its work, one that still waited past the longest wait when its turn came', async () => {
    const clock = manualClock();
    const gate = new AdmissionGate({ concurrency: 1, maxWaitMs: 100, now: clock.now });
    const log: string[] = [];
    const slow = job('slow', log);
    const late = job('late', log);
    const next = job('next', log);
    outcome(gate.run(slow.work));
    const lateResult = outcome(gate.run(late.work));
    clock.advance(60);
    const nextResult = outcome(gate.run(next.work)); // arrives 60 ms later: waits 60 ms less
    clock.advance(60); // the slow one took 120 ms: `late` waited 120, `next` 60
    slow.finish();
    await settle();
    expect(lateResult.refused).toBe('waited');
    expect(late.state.started).toBe(false);
    expect(next.state.started).toBe(true);
    next.finish();
    await settle();
    expect(nextResult.value).toBe('next');
    expect(gate.shed.waited).toBe(1);
    expect([gate.inWork, gate.waiting]).toEqual([0, 0]);
  });

  it('gives the place on when the work throws, and the error reaches the caller', async () => {
    const gate = new AdmissionGate({ concurrency: 1, maxWaitMs: 1000, now: () => 0 });
    const log: string[] = [];
    const failing = job('failing', log);
    const after = job('after', log);
    const failed = outcome(gate.run(failing.work));
    outcome(gate.run(after.work));
    await settle();
    failing.fail(new Error('database gone'));
    await settle();
    expect((failed.error as Error).message).toBe('database gone');
    expect(after.state.started).toBe(true);
    after.finish();
    await settle();
    expect([gate.inWork, gate.waiting]).toEqual([0, 0]);
    // A work that throws before its first await too.
    await expect(
      gate.run(() => {
        throw new Error('at once');
      }),
    ).rejects.toThrow('at once');
    expect(gate.inWork).toBe(0);
  });

  it('drops a waiting request whose client left, without its work, and leaks no place', async () => {
    const gate = new AdmissionGate({ concurrency: 1, maxWaitMs: 1000, now: () => 0 });
    const log: string[] = [];
    const first = job('first', log);
    const abandoned = job('abandoned', log);
    const third = job('third', log);
    const client = { destroyed: false };
    outcome(gate.run(first.work));
    const abandonedResult = outcome(gate.run(abandoned.work, client));
    outcome(gate.run(third.work, { destroyed: false }));
    client.destroyed = true; // the handheld gave up and closed the connection
    first.finish();
    await settle();
    expect(abandonedResult.refused).toBe('gone');
    expect(log).toEqual(['first', 'third']);
    third.finish();
    await settle();
    expect([gate.inWork, gate.waiting]).toEqual([0, 0]);
    expect(gate.shed).toEqual({ estimate: 0, waited: 0, gone: 1 });
  });

  it('keeps serving after thousands went through the line (its spent slots are dropped)', async () => {
    const gate = new AdmissionGate({ concurrency: 1, maxWaitMs: 60_000, now: () => 0 });
    const log: string[] = [];
    const first = job('first', log);
    outcome(gate.run(first.work));
    const many = Array.from({ length: 3000 }, (_, i) => gate.run(async () => i));
    expect(gate.waiting).toBe(3000);
    first.finish();
    expect(await Promise.all(many)).toHaveLength(3000);
    expect([gate.inWork, gate.waiting]).toEqual([0, 0]);
  });

  it('asks the refused to wait 1 s while it serves as many as it refuses; longer the more it refuses (refused ÷ served in the last second, at most 3 s)', async () => {
    const clock = manualClock();
    // 1 ms assumed per request, refused above 60 % of 3 ms: one in line waits 1 ms, a second would wait 2.
    const gate = new AdmissionGate({ concurrency: 1, maxWaitMs: 3, now: clock.now });
    const log: string[] = [];
    /** One second: `served` quick calls go through, then `refused` arrive while the place and line are taken. */
    const second = async (served: number, refused: number) => {
      for (let i = 0; i < served; i++)
        await gate.run(async () => {
          clock.advance(1); // 1 ms each: the line's estimate stays as above
          return 'ok';
        });
      const holder = job('holder', log);
      const waiter = job('waiter', log);
      outcome(gate.run(holder.work));
      outcome(gate.run(waiter.work));
      const answers = Array.from({ length: refused }, (_, i) => outcome(gate.run(job(`r${i}`, log).work)));
      await settle();
      for (const held of [holder, waiter]) {
        clock.advance(1);
        held.finish();
        await settle();
      }
      clock.advance(1000); // the next second's first call is in the next window
      return answers.map((a) => a.retryAfter);
    };
    // The first second has no second before it: 1 s. Then each second's refusals are priced by the one before.
    expect(new Set(await second(10, 6))).toEqual(new Set([1]));
    expect(new Set(await second(10, 20))).toEqual(new Set([1])); // the second before: 6 refused, 12 served
    expect(new Set(await second(2, 40))).toEqual(new Set([2])); // 20 refused ÷ 12 served, rounded up
    expect(new Set(await second(0, 5))).toEqual(new Set([3])); // 40 ÷ 4: 10, at most 3
    expect(gate.retryAfterSeconds()).toBe(3); // 5 refused ÷ 2 served (holder and waiter), rounded up
    clock.advance(2000); // a quiet second (nothing counted in it): 1 s again
    expect(gate.retryAfterSeconds()).toBe(1);
  });

  it('warns at most once a second while it refuses, with how many since the last line', async () => {
    const clock = manualClock();
    const warn = vi.fn();
    // 1 ms assumed per request, refused above 60 % of 3 ms: one in line waits 1 ms, a second would wait 2.
    const gate = new AdmissionGate({ concurrency: 1, maxWaitMs: 3, now: clock.now, warn });
    const log: string[] = [];
    const holder = job('holder', log);
    outcome(gate.run(holder.work));
    outcome(gate.run(job('w', log).work)); // 1 ms estimated: waits
    const refuseMany = (n: number) => {
      for (let i = 0; i < n; i++) outcome(gate.run(job(`r${i}`, log).work));
    };
    refuseMany(50);
    await settle();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[0]).toMatchObject({ shed: 1, waiting: 1, inWork: 1, maxWaitMs: 3 });
    clock.advance(999);
    refuseMany(10);
    await settle();
    expect(warn).toHaveBeenCalledTimes(1);
    clock.advance(1);
    refuseMany(1);
    await settle();
    expect(warn).toHaveBeenCalledTimes(2);
    expect(warn.mock.calls[1]?.[0]).toMatchObject({ shed: 60 });
    expect(gate.shed.estimate).toBe(61);
  });

  it('gives a freed place to every waiting handheld call before the back office, whatever came first', async () => {
    const clock = manualClock();
    const gate = new AdmissionGate({ concurrency: 1, maxWaitMs: 1000, now: clock.now });
    const log: string[] = [];
    const holder = job('holder', log);
    outcome(gate.run(holder.work, undefined, undefined, 'backOffice'));
    const office1 = job('office1', log);
    const scan1 = job('scan1', log);
    const office2 = job('office2', log);
    const scan2 = job('scan2', log);
    outcome(gate.run(office1.work, undefined, undefined, 'backOffice'));
    outcome(gate.run(scan1.work));
    outcome(gate.step(office2.work, gate.kind('step')));
    outcome(gate.run(scan2.work));
    await settle();
    expect([gate.waitingIn('floor'), gate.waitingIn('backOffice')]).toEqual([2, 2]);
    for (const j of [holder, scan1, scan2, office1, office2]) {
      j.finish();
      await settle();
    }
    expect(log).toEqual(['holder', 'scan1', 'scan2', 'office1', 'office2']);
  });

  it('estimates a handheld call by the floor line alone, a back-office call by both and lets it wait ten times as long', async () => {
    const clock = manualClock();
    const gate = new AdmissionGate({ concurrency: 1, maxWaitMs: 100, now: clock.now });
    const office = gate.kind('office');
    const scan = gate.kind('scan');
    office.averageMs = 50;
    scan.averageMs = 10;
    const log: string[] = [];
    outcome(gate.run(job('holder', log).work));
    // Three back-office calls wait: 150 ms of work ahead, which would refuse a scan (limit 60 ms) if it counted.
    const offices = [1, 2, 3].map((i) =>
      outcome(gate.run(job(`o${i}`, log).work, undefined, office, 'backOffice')),
    );
    const scans = [1, 2, 3, 4, 5, 6, 7].map((i) =>
      outcome(gate.run(job(`s${i}`, log).work, undefined, scan)),
    );
    await settle();
    expect(offices.map((r) => r.refused ?? 'waiting')).toEqual(['waiting', 'waiting', 'waiting']);
    // Scans: 10, 20, … ms estimated for each (the calls ahead and itself); above 60 ms refused.
    expect(scans.map((r) => r.refused ?? 'waiting')).toEqual([
      'waiting',
      'waiting',
      'waiting',
      'waiting',
      'waiting',
      'waiting',
      'estimate',
    ]);
    expect(gate.arrivalLimitMs('backOffice')).toBe(600);
    expect(gate.estimatedWaitMs(office, 'backOffice')).toBe(50 * 3 + 10 * 6 + 50);
  });

  it('never refuses a step of begun back-office work for the line or its wait, only when its client left', async () => {
    const clock = manualClock();
    const gate = new AdmissionGate({ concurrency: 1, maxWaitMs: 10, now: clock.now });
    const kind = gate.kind('export page');
    kind.averageMs = 1000; // far above the back office's 60 ms arrival limit
    const log: string[] = [];
    const holder = job('holder', log);
    outcome(gate.run(holder.work));
    const stepJob = job('step', log);
    const step = outcome(gate.step(stepJob.work, kind));
    const gone = outcome(gate.step(job('gone', log).work, kind, { destroyed: true }));
    const call = outcome(gate.run(job('call', log).work, undefined, kind, 'backOffice'));
    await settle();
    expect(call.refused).toBe('estimate');
    clock.advance(5000); // waited 500 × its lane's longest wait
    holder.finish();
    await settle();
    expect(log).toEqual(['holder', 'step']);
    stepJob.finish();
    await settle();
    expect(step.value).toBe('step');
    expect(gone.refused).toBe('gone');
    expect(log).toEqual(['holder', 'step']);
  });

  it('waits for the disk after giving the place on: the next call works meanwhile, the caller goes on after', async () => {
    const gate = new AdmissionGate({ concurrency: 1, maxWaitMs: 1000 });
    const log: string[] = [];
    let synced!: () => void;
    const sync = new Promise<void>((resolve) => {
      synced = resolve;
    });
    // A step whose commit asks for a sync (as the embedded database's dialect does at its release).
    const step = gate
      .step(async () => {
        await afterRelease(sync);
        log.push('committed');
      }, gate.kind('step'))
      .then(() => log.push('step goes on'));
    const next = gate.run(async () => {
      log.push('next works');
    });
    await next;
    expect(log).toEqual(['committed', 'next works']);
    synced();
    await step;
    expect(log).toEqual(['committed', 'next works', 'step goes on']);
  });

  it('leaves the wait to a call that notes it for its answer (the onSend hook), and waits itself outside any unit', async () => {
    const gate = new AdmissionGate({ concurrency: 1, maxWaitMs: 1000 });
    const sync = new Promise<void>(() => {}); // never synced in this test
    const waits = deferred();
    await gate.run(() => afterRelease(sync), undefined, undefined, 'floor', waits);
    expect(waits.pending).toBe(sync);
    let done = false;
    void afterRelease(Promise.resolve()).then(() => {
      done = true;
    });
    await settle();
    expect(done).toBe(true);
  });

  it('lets a back-office step that has waited 100 ms go next even while handheld calls wait', async () => {
    const clock = manualClock();
    const gate = new AdmissionGate({ concurrency: 1, maxWaitMs: 1000, now: clock.now });
    const log: string[] = [];
    const holder = job('holder', log);
    outcome(gate.run(holder.work));
    const step = job('step', log);
    outcome(gate.step(step.work, gate.kind('step')));
    const scans = [1, 2, 3].map((i) => job(`scan${i}`, log));
    for (const scan of scans) outcome(gate.run(scan.work));
    await settle();
    clock.advance(BACK_OFFICE_TURN_MS);
    holder.finish();
    await settle();
    expect(log).toEqual(['holder', 'step']);
    step.finish();
    for (const scan of scans) {
      await settle();
      scan.finish();
    }
    await settle();
    expect(log).toEqual(['holder', 'step', 'scan1', 'scan2', 'scan3']);
  });

  it('lets the back office go ahead of waiting handheld calls once per 100 ms, not a whole burst of it', async () => {
    const clock = manualClock();
    const gate = new AdmissionGate({ concurrency: 1, maxWaitMs: 1000, now: clock.now });
    const log: string[] = [];
    const holder = job('holder', log);
    outcome(gate.run(holder.work));
    // Twenty live desks refetch at once, then the handhelds scan: all wait behind the holder.
    const names = ['desk1', 'desk2', 'desk3', 'scan1', 'scan2', 'scan3'];
    const desks = [1, 2, 3].map((i) => job(`desk${i}`, log));
    for (const desk of desks) outcome(gate.run(desk.work, undefined, gate.kind('desk'), 'backOffice'));
    const scans = [1, 2, 3].map((i) => job(`scan${i}`, log));
    for (const scan of scans) outcome(gate.run(scan.work));
    await settle();
    clock.advance(BACK_OFFICE_TURN_MS);
    holder.finish();
    await settle();
    const jobs = new Map([...desks, ...scans].map((j, i) => [names[i], j]));
    /** Finishes the job at work and answers which one the gate let in next. */
    const next = async (name: string) => {
      jobs.get(String(log.at(-1)))?.finish();
      await settle();
      expect(log.at(-1)).toBe(name);
    };
    expect(log).toEqual(['holder', 'desk1']);
    // The other desks waited as long, but the floor goes first until another 100 ms have passed.
    await next('scan1');
    await next('scan2');
    clock.advance(BACK_OFFICE_TURN_MS);
    await next('desk2');
    await next('scan3');
    await next('desk3');
  });

  it('on PostgreSQL pauses the back office after each step while handhelds call, and not while none does', async () => {
    const clock = manualClock();
    const gate = new AdmissionGate({
      concurrency: 4,
      maxWaitMs: 500,
      now: clock.now,
      backOfficePauseShare: 0.5,
    });
    /** A step that held its place 400 ms on the gate's clock; whether it was over before a 100 ms timer. */
    const stepBeatsTimer = async () => {
      const step = gate.step(async () => clock.advance(400), gate.kind('step'));
      let heldDuringPause = 0;
      const timer = new Promise<'timer'>((resolve) =>
        setTimeout(() => {
          heldDuringPause = gate.inWork;
          resolve('timer');
        }, 100),
      );
      const first = await Promise.race([step.then(() => 'step' as const), timer]);
      await step;
      // Whoever pauses holds no place meanwhile: handheld calls go on.
      expect(heldDuringPause).toBe(0);
      return first === 'step';
    };
    // No handheld has called yet: the step is over at once.
    expect(await stepBeatsTimer()).toBe(true);
    await gate.run(async () => 'lookup');
    // A handheld called: the step is followed by 200 ms without a place held.
    expect(await stepBeatsTimer()).toBe(false);
    // A second after the last handheld call the floor is at rest again.
    clock.advance(1000);
    expect(await stepBeatsTimer()).toBe(true);
  });
});
