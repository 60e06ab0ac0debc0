import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import type { AdmissionGate } from './admission.ts';

/** Runs one step of background work as one unit that other requests go between. */
export type RunUnit = <T>(work: () => Promise<T>) => Promise<T>;

/**
 * One step of the server's own background work (database maintenance, a backup's short database steps,
 * housekeeping) as one unit in the admission gate's back-office lane (decision 31): it waits behind every
 * handheld call and is never turned away — background work can wait, a scan cannot — so that on the
 * embedded database a handheld waits for at most one step, never for a whole round (DESIGN §10).
 */
export function backgroundStep(admission: AdmissionGate): RunUnit {
  const kind = admission.kind('background');
  return (work) => admission.step(work, kind);
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
 * How fast a background copy reads the data folder (bytes a second): about 16 MB. Unpaced, the copy's reading
 * and compression took a core of the two and the handhelds' calls queued behind a starved thread (bench, floor
 * under back-office work, large warehouse: floor p99 406 ms, max 1,048 ms during the backup against 32 ms
 * quiet; paced so, 19 ms against 13).
 */
export const BACKGROUND_BYTES_PER_SECOND = 16 * 1024 * 1024;

/**
 * Awaited by a long background copy (the online backup) before each part of `bytes`: while API calls are in
 * work or in line, it waits — a millisecond at a time, at most `MAX_GIVE_WAY_MS` — so its reads and
 * compression take the cores the floor leaves; and it keeps the copy to `bytesPerSecond`.
 */
export function giveWayToCalls(
  admission: AdmissionGate,
  bytesPerSecond = BACKGROUND_BYTES_PER_SECOND,
): (bytes: number) => Promise<void> {
  let next = 0;
  return async (bytes) => {
    const now = performance.now();
    if (next > now) await sleep(next - now);
    const until = performance.now() + MAX_GIVE_WAY_MS;
    while ((admission.inWork > 0 || admission.waiting > 0) && performance.now() < until) await sleep(1);
    next = Math.max(next, performance.now() - 100) + (bytes / bytesPerSecond) * 1000;
  };
}
