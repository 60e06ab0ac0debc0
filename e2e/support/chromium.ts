/**
 * Debian's Chromium as every browser test here launches it (STACK.md: Playwright cannot download its own):
 * the e2e tests (playwright.config.ts) and the bench's scan timing (bench/scan-latency.ts).
 */
export const chromiumExecutable = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
