import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runScript } from '../support/cli.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lagerscanner-minimum-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

function run(script: string, ...args: string[]) {
  return runScript(script, args, { env: { DATA_DIR: dataDir } });
}
const minimum = (...args: string[]) => run('src/server/cli/minimums.ts', ...args);

describe('npm run minimum', () => {
  it('sets, lists and removes a replenishment minimum', () => {
    expect(run('src/server/cli/seed.ts').code).toBe(0);
    const set = minimum('set', 'B-01-03-01', '100003', '25');
    expect(set.output).toContain('Minimum of 100003 on B-01-03-01 is now 25.');
    expect(set.code).toBe(0);
    const list = minimum('list');
    expect(list.output).toMatch(/B-01-03-01\t100003\tminimum 25\tstock 0\tBELOW/);
    expect(minimum('remove', 'B-01-03-01', '100003').output).toContain(
      'Minimum of 100003 on B-01-03-01 removed.',
    );
    expect(minimum('list').output).not.toContain('B-01-03-01\t100003');
  }, 120_000);

  it('refuses unknown codes and bad minimums with a clear message', () => {
    const unknown = minimum('set', 'Z-99', '100003', '5');
    expect(unknown.code).toBe(1);
    expect(unknown.output).toContain('No location with the code "Z-99".');
    const bad = minimum('set', 'B-01-03-01', '100003', '-4');
    expect(bad.code).toBe(2);
    expect(bad.output).toContain('The minimum must be a whole number from 1 to 1000000, got "-4".');
    expect(minimum('frobnicate').output).toContain('Usage:');
  }, 60_000);
});
