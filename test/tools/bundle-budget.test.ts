import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'vite';
import { afterAll, describe, expect, it } from 'vitest';
import { measureWebSizes } from '../../bench/web.ts';

const root = path.resolve(import.meta.dirname, '../..');
const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lagerscanner-budget-'));
afterAll(() => fs.rmSync(outDir, { recursive: true, force: true }));

/** What a handheld downloads before the login shows (gzip), the budget every issue keeps. */
const FIRST_DOWNLOAD_BUDGET = 100 * 1024;

describe('the web app a handheld downloads', () => {
  it(`starts with at most ${FIRST_DOWNLOAD_BUDGET / 1024} KiB of JS and CSS (gzip) before the login`, async () => {
    // vitest runs with NODE_ENV=test, which would build React's development version.
    const nodeEnv = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    await build({
      configFile: path.join(root, 'vite.config.ts'),
      logLevel: 'silent',
      build: { outDir, emptyOutDir: true },
    }).finally(() => {
      process.env.NODE_ENV = nodeEnv;
    });
    const sizes = measureWebSizes(outDir);
    console.log(`first download ${(sizes.initialGzip / 1024).toFixed(1)} KiB gzip`);
    expect(sizes.initialGzip).toBeLessThanOrEqual(FIRST_DOWNLOAD_BUDGET);
    // Every screen is its own download: none of them rides along in the first one.
    expect(sizes.screens.length).toBeGreaterThan(15);
  }, 120_000);
});
