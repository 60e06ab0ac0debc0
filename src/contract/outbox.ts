/**
 * The capture calls whose answer the worker does not need to go on (decision 11): without a connection they
 * wait in the handheld's outbox and are sent later under their idempotency key. Everything else — stock
 * bookings, inventory, WMS returns, package content, customs carts — stays online-only. No zod here, so the
 * first bundle can import it.
 */
export const OFFLINE_CALLS = [
  'paketausgang',
  'retourenerfassung',
  'captureBatch',
  'captureContainer',
  'captureTransporter',
] as const;

export type OfflineCall = (typeof OFFLINE_CALLS)[number];

export function isOfflineCall(name: string): name is OfflineCall {
  return (OFFLINE_CALLS as readonly string[]).includes(name);
}
