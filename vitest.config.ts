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
    hookTimeout: 60_000,
  },
});
