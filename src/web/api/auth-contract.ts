import { NetworkError } from './client.ts';

/**
 * The login and logout calls, loaded on first use: their contract brings zod (≈ 25 KB gzip), which the login
 * screen and the menus do not need to appear. `preloadAuthContract` fetches it while the worker is still
 * typing, so the login itself does not wait for it. A download that fails is a network error like any other.
 */
export function loadAuthContract() {
  return import('../../contract/auth.ts').catch(() => {
    throw new NetworkError();
  });
}

export function preloadAuthContract(): void {
  void loadAuthContract().catch(() => {});
}
