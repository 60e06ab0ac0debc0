import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { type AdmissionGate, Overloaded } from './admission.ts';

/** Runs one step of background work as one unit that other requests go between. */
export type RunUnit = <T>(work: () => Promise<T>) => Promise<T>;

/**
 * One step of the server's own background work (database maintenance, a backup's short database steps,
 * housekeeping) as one unit in the admission gate, so that on the embedded database a handheld waits for at
 * most one step, never for a whole round (DESIGN §10). The steps take an ordinary place in the line for now;
 * a low-priority place for back-office work (issue 37) replaces this one function. A step the gate turns away
 * (its line is long: the floor is busy) waits a moment and asks again — background work can wait, a scan
 * cannot.
 */
export function backgroundStep(admission: AdmissionGate): RunUnit {
  const kind = admission.kind('background');
  return async <T>(work: () => Promise<T>): Promise<T> => {
    for (let delay = 50; ; delay = Math.min(delay * 2, 2000)) {
      try {
        return await admission.run(work, undefined, kind);
      } catch (error) {
        if (!(error instanceof Overloaded)) throw error;
        await sleep(delay);
      }
    }
  };
}

/**
 * Whether the floor is quiet now: no API call in work or in line, and none came for `quietMs`. The long
 * maintenance steps wait for it (src/server/db/maintenance.ts).
 */
export function floorQuiet(app: FastifyInstance, quietMs = 5000): () => boolean {
  // Counted from the start: the first handhelds may be on their way while the server opens.
  let lastCall = performance.now();
  app.addHook('onRequest', async (request) => {
    if (request.url.startsWith('/api/')) lastCall = performance.now();
  });
  return () =>
    app.admission.inWork === 0 && app.admission.waiting === 0 && performance.now() - lastCall >= quietMs;
}

/** The longest a background copy waits for the floor before each part (ms): it must still finish. */
const MAX_GIVE_WAY_MS = 20;

/**
 * Awaited by a long background copy (the online backup) before each part: while API calls are in work or
 * in line, it waits — a millisecond at a time, at most `MAX_GIVE_WAY_MS` — so its reads and compression
 * take the cores the floor leaves.
 */
export function giveWayToCalls(admission: AdmissionGate): () => Promise<void> {
  return async () => {
    const until = performance.now() + MAX_GIVE_WAY_MS;
    while ((admission.inWork > 0 || admission.waiting > 0) && performance.now() < until) await sleep(1);
  };
}
