import { useSyncExternalStore } from 'react';

/**
 * The service worker (built by vite-plugin-pwa, dist/web/sw.js) keeps the app shell and every screen on the
 * device, so the app opens without a network. A new version is downloaded in the background and then waits:
 * the worker sees 'Neue Version – neu laden' on the menu and decides when (never in the middle of a booking).
 */
const CHECK_EVERY_MS = 15 * 60_000;
const TAKE_OVER_WAIT_MS = 5000;

const listeners = new Set<() => void>();
let waiting: ServiceWorker | null = null;

function setWaiting(worker: ServiceWorker): void {
  waiting = worker;
  for (const listener of listeners) listener();
}

export async function registerServiceWorker(): Promise<void> {
  if (!('serviceWorker' in navigator)) return;
  const registration = await navigator.serviceWorker.register('/sw.js', { scope: '/' });
  const watch = (worker: ServiceWorker | null) => {
    if (!worker) return;
    const check = () => {
      // With a controller this is an update, not the first install.
      if (worker.state === 'installed' && navigator.serviceWorker.controller) setWaiting(worker);
    };
    check();
    worker.addEventListener('statechange', check);
  };
  watch(registration.waiting);
  watch(registration.installing);
  registration.addEventListener('updatefound', () => watch(registration.installing));
  const update = () => void registration.update().catch(() => {});
  setInterval(update, CHECK_EVERY_MS);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') update();
  });
  window.addEventListener('online', update);
}

/** The worker tapped 'neu laden': the new version takes over and the page reloads once it has. */
export function applyUpdate(): void {
  const next = waiting;
  if (!next) return;
  let reloaded = false;
  const reload = () => {
    if (reloaded) return;
    reloaded = true;
    window.location.reload();
  };
  // The new worker has taken the page over (controllerchange), or at least is active: a reload loads the new
  // version. Should neither be seen (a busy device), the reload after a few seconds gets there too.
  navigator.serviceWorker.addEventListener('controllerchange', reload);
  next.addEventListener('statechange', () => {
    if (next.state === 'activated') reload();
  });
  setTimeout(reload, TAKE_OVER_WAIT_MS);
  next.postMessage({ type: 'SKIP_WAITING' });
}

export function useUpdateWaiting(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => waiting !== null,
    () => false,
  );
}
