import { defineConfig, devices } from '@playwright/test';
import { chromiumArgs, chromiumExecutable } from './e2e/support/chromium.ts';

/**
 * End-to-end tests against the real server (built web app + API + embedded database) in Debian's Chromium.
 * e2e/support/global-setup.ts builds the web app and starts the server on E2E_PORT with a fresh data dir.
 * The port is fixed here, before any worker starts, so every worker sees the same one: below Linux's ephemeral
 * range (32768–60999), so no outgoing connection holds it; the global setup moves on if a server does.
 */
if (!process.env.E2E_PORT) {
  process.env.E2E_PORT = String(20_000 + (process.pid % 10_000));
  process.env.E2E_PORT_DEFAULT = '1';
}
const baseURL = process.env.E2E_BASE_URL ?? `http://127.0.0.1:${process.env.E2E_PORT}`;

export default defineConfig({
  testDir: 'e2e',
  globalSetup: './e2e/support/global-setup.ts',
  workers: 1,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: [['list']],
  outputDir: 'test-results',
  use: {
    baseURL,
    ...devices['Pixel 5'],
    viewport: { width: 360, height: 640 },
    hasTouch: true,
    isMobile: true,
    locale: 'de-DE',
    timezoneId: 'Europe/Berlin',
    screenshot: 'only-on-failure',
    trace: 'off',
    // The service worker (an installed app's offline shell) is tested in e2e/pwa.spec.ts; elsewhere every
    // request goes straight to the server, as the other tests intercept and count them.
    serviceWorkers: 'block',
    launchOptions: { executablePath: chromiumExecutable, args: chromiumArgs },
  },
  projects: [{ name: 'chromium-handheld', use: { browserName: 'chromium' } }],
});
