/// <reference lib="webworker" />
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';

/**
 * The service worker of the installed app (built by vite-plugin-pwa, injectManifest). It keeps the app shell and
 * every screen's chunk on the device. A page opens from the network when there is one — the server renders
 * index.html with a fresh CSRF token, which a stored copy would not have after the database moved — and from
 * the stored shell when there is none or it does not answer within a few seconds (a dead spot).
 * A new version waits until the page asks it to take over ('Neue Version – neu laden', app-update.ts).
 */
declare const self: ServiceWorkerGlobalScope;

const NETWORK_WAIT_MS = 3000;

// Before the precache's own route, which would answer '/' from the device.
registerRoute(
  new NavigationRoute(
    async ({ request }) => {
      try {
        const response = await fetch(request, { signal: AbortSignal.timeout(NETWORK_WAIT_MS) });
        if (response.ok) return response;
      } catch {
        // no network, or no answer in time: the stored shell below
      }
      return (await matchPrecache('index.html')) ?? Response.error();
    },
    // The API and the carton pictures are never pages.
    { denylist: [/^\/api(\/|$)/, /^\/images\//] },
  ),
);
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

self.addEventListener('message', (event) => {
  if ((event.data as { type?: unknown } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});
// The first install takes the open page at once, so it works offline without a reload.
clientsClaim();
