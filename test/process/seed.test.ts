import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runScript } from '../support/cli.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lagerscanner-seed-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

function seed(...args: string[]) {
  return runScript('src/server/cli/seed.ts', args, { env: { DATA_DIR: dataDir } });
}

describe('npm run seed', () => {
  it('seeds an empty database, leaves a filled one alone, and rebuilds it with --reset', () => {
    const first = seed();
    expect(first.code).toBe(0);
    expect(first.output).toContain('Seeded the demo warehouse');

    const second = seed();
    expect(second.code).toBe(0);
    expect(second.output).toContain('already holds data; nothing seeded');

    const reset = seed('--reset');
    expect(reset.code).toBe(0);
    expect(reset.output).toContain('Deleted all data');
    expect(reset.output).toContain('Seeded the demo warehouse');
  }, 120_000);

  it('refuses an unknown argument', () => {
    const result = seed('--rest');
    expect(result.code).toBe(2);
    expect(result.output).toContain('Unknown argument(s): --rest');
  }, 30_000);
});
