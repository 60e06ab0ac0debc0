import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Waiting for durability outside the admission gate's place (decisions 28 and 31). On the embedded database
 * a released connection must not let its caller answer before the commits so far are on disk (the WAL sync
 * runs on a thread of its own, one sync for the commits that arrive together). Awaited right at the release,
 * that wait happened while the caller still held its place in the gate — on PGlite the only one — so the next
 * call could not commit meanwhile and no two commits ever shared a sync: each booking paid a whole sync
 * alone, with every handheld waiting for the disk.
 *
 * So a unit of work the gate runs (a call, a step) carries a `Deferred`: the release notes what it must wait
 * for there instead of waiting, the gate gives the place on at once, and only then the wait happens — before
 * the step's caller goes on (`AdmissionGate.step`), or before a call's answer leaves (the `onSend` hook in
 * app.ts). Outside any unit (a CLI, a test straight on the database) the release waits itself, as before.
 */
export interface Deferred {
  /** Resolved when every commit so far (as the release saw it) is on disk; the latest covers the earlier. */
  pending: Promise<void> | undefined;
}

const units = new AsyncLocalStorage<Deferred>();

/** A unit's deferral, empty. */
export const deferred = (): Deferred => ({ pending: undefined });

/** Runs `work` as a unit whose waits for durability are noted in `into` rather than waited for. */
export function deferringDurability<T>(into: Deferred, work: () => Promise<T>): Promise<T> {
  return units.run(into, work);
}

/**
 * What a released connection's caller must wait for (`durable`): noted for the running unit when there is one,
 * else waited for here.
 */
export async function afterRelease(durable: Promise<void> | undefined): Promise<void> {
  if (!durable) return;
  const unit = units.getStore();
  if (unit) {
    // A later release's wait covers this one; a failed sync fails them all (its caller sees that one).
    durable.catch(() => {});
    unit.pending = durable;
    return;
  }
  await durable;
}
