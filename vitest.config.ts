import './test/support/node20-polyfills.ts';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.{ts,tsx}', 'test/**/*.test.ts'],
    exclude: ['e2e/**', 'node_modules/**', 'dist/**'],
    environment: 'node',
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/support/fail-on-console-error.ts'],
    // 2 cores: two files at a time; each API file has its own database.
    maxWorkers: 2,
    testTimeout: 20_000,
    // The import's and the labels' worker threads at the server's own priority: two test files at a time
    // keep both cores busy, and a worker at the lowest (BACK_OFFICE_NICE's default, 19) got ~1 % of a core —
    // a 30,000-row import took 21 s instead of 9. Its default is tested in rendered.test.ts.
    env: { BACK_OFFICE_NICE: '0' },
    hookTimeout: 60_000,
  },
});
