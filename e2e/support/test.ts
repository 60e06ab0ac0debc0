import { test as base } from '@playwright/test';
import { closeOwnWaves, ownWavesLeft } from './picking.ts';

export { expect, type Locator, type Page } from '@playwright/test';

/**
 * Every spec's `test`: the page's requests pass through Playwright's interception from its first request on.
 *
 * Why: Chromium starts intercepting when the first route of a page is added, and the renderer learns of it
 * a little later. A route added mid-test (to abort a call, say) and a request sent right after it could slip
 * past: a `confirm()` answered in that moment blocks the renderer, and the booking sent in the same task
 * went straight to the server — 'a network failure keeps every field…' failed about 1 run in 30 so, the
 * route never called. With a pass-through route from the start, interception is never switched on (or off,
 * by `unroute`) during a test, and a route added later takes effect for the next request.
 */
export const test = base.extend<{ closeOwnWaves: undefined }>({
  page: async ({ page }, use) => {
    await page.route('**/*', (route) => route.fallback());
    await use(page);
  },
  /**
   * A wave a test released and did not close (e2e/support/picking.ts `OwnWave`: its `finally` cut short by the
   * test's timeout) is closed after the test, with a time of its own: else every later cart is filled from it.
   */
  closeOwnWaves: [
    async ({ playwright, baseURL }, use) => {
      await use(undefined);
      if (!ownWavesLeft()) return;
      const request = await playwright.request.newContext({ baseURL });
      try {
        await closeOwnWaves(request);
      } finally {
        await request.dispose();
      }
    },
    { auto: true, timeout: 60_000 },
  ],
});
