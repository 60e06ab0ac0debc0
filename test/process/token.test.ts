import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runScript } from '../support/cli.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lagerscanner-token-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

function token(...args: string[]) {
  return runScript('src/server/cli/token.ts', args, { env: { DATA_DIR: dataDir } });
}

describe('npm run token', () => {
  it('creates a token shown once, lists it without the secret, and revokes it', () => {
    const created = token('create', 'erp-nightly');
    expect(created.code, created.output).toBe(0);
    const secret = created.stdout.trim().split('\n').at(-1) ?? '';
    expect(secret).toMatch(/^lsi_[A-Za-z0-9_-]{43}$/);

    const taken = token('create', 'erp-nightly');
    expect(taken.code).toBe(1);
    expect(taken.output).toContain('A live token named "erp-nightly" exists already');

    const list = token('list');
    expect(list.output).toMatch(/^erp-nightly\t\d{4}-\d\d-\d\dT[\d:.]+Z\t-\t-$/m);
    expect(list.output).not.toContain(secret);

    expect(token('revoke', 'erp-nightly').output).toContain('Token "erp-nightly" revoked.');
    expect(token('list').output).toMatch(/^erp-nightly\t\S+\t-\t\d{4}-\d\d-\d\dT[\d:.]+Z$/m);
    const again = token('revoke', 'erp-nightly');
    expect(again.code).toBe(1);
    expect(again.output).toContain('No live token named "erp-nightly".');
    // The name is free again once revoked.
    expect(token('create', 'erp-nightly').code).toBe(0);
  }, 120_000);

  it('refuses bad names and commands with a clear message', () => {
    const bad = token('create', 'a b');
    expect(bad.code).toBe(2);
    expect(bad.output).toContain('The name must be 1 to 100 letters, digits');
    expect(token('frobnicate').output).toContain('Usage:');
    expect(token('create').output).toContain('Usage:');
  }, 60_000);
});
