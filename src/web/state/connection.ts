import { useSyncExternalStore } from 'react';

/**
 * Whether this handheld reaches the server, as far as it can tell: the browser's online flag and whether the
 * last call got an answer. In a Wi-Fi dead spot the browser often still says "online" while no request gets
 * through, so a call that got no answer counts as "no connection" until one gets an answer again (or the
 * browser reports the network back).
 */
const listeners = new Set<() => void>();
let lastCallAnswered = true;

function browserOnline(): boolean {
  return typeof navigator === 'undefined' || navigator.onLine !== false;
}

function changed(): void {
  for (const listener of listeners) listener();
}

export const connection = {
  /** No network at all: a call need not even be tried. */
  offline: () => !browserOnline(),
  connected: () => browserOnline() && lastCallAnswered,
  report(answered: boolean): void {
    if (answered === lastCallAnswered) return;
    lastCallAnswered = answered;
    changed();
  },
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

if (typeof window !== 'undefined') {
  window.addEventListener('online', () => {
    lastCallAnswered = true; // the network is back: the next call will tell whether the server is too
    changed();
  });
  window.addEventListener('offline', changed);
}

/** True while the server is (as far as the device knows) reachable; re-renders when that changes. */
export function useConnected(): boolean {
  return useSyncExternalStore(connection.subscribe, connection.connected, () => true);
}
