import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runScript } from '../support/cli.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lagerscanner-users-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

/** The CLI as IT runs it, with stdin piped (a script): the password on the first line. */
function run(script: string, args: string[], input = '') {
  return runScript(script, args, { env: { DATA_DIR: dataDir }, input });
}
const user = (args: string[], input = '') => run('src/server/cli/users.ts', args, input);

describe('npm run user', () => {
  it('creates a user with a password and a new card (printed once), lists, deactivates', () => {
    expect(run('src/server/cli/seed.ts', []).code).toBe(0);
    const created = user(['create', 'jkoch', 'Jana Koch', '--card'], 'Sicher-123\n');
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(
      /Created jkoch \(Jana Koch\), #\d+, mitarbeiter, logs in with password and card\./,
    );
    const card = created.stdout.trim().split('\n').at(-1) ?? '';
    expect(card).toMatch(/^[A-HJ-NP-X2-9]{40}$/);

    const list = user(['list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/#\d+\tjkoch\tJana Koch\tmitarbeiter\tyes\tyes\tyes\t0\t-/);
    // The demo seed's shift lead and admin (DESIGN §9).
    expect(list.stdout).toMatch(/\tleitung\tSchicht Leitung\tschichtleitung\t/);
    expect(list.stdout).toMatch(/\tadmin\tIT Admin\tadmin\t/);
    expect(list.stdout).not.toContain(card);

    const off = user(['deactivate', 'jkoch']);
    expect(off.output).toContain('jkoch (Jana Koch) deactivated; 0 login(s) ended.');
    expect(user(['list']).stdout).toMatch(/\tjkoch\tJana Koch\tmitarbeiter\tNO\t/);
  }, 180_000);

  it('creates a user with a role and changes roles; refuses an unknown role', () => {
    const lead = user(['create', 'pbauer', 'Petra Bauer', '--role', 'schichtleitung'], 'Sicher-123\n');
    expect(lead.code).toBe(0);
    expect(lead.stdout).toMatch(
      /Created pbauer \(Petra Bauer\), #\d+, schichtleitung, logs in with password\./,
    );
    expect(user(['role', 'pbauer', 'admin']).stdout).toContain(
      'pbauer (Petra Bauer) is admin now (was schichtleitung).',
    );
    expect(user(['role', 'pbauer', 'admin']).stdout).toContain('is admin already.');
    expect(user(['list']).stdout).toMatch(/\tpbauer\tPetra Bauer\tadmin\t/);

    const unknown = user(['role', 'pbauer', 'chef']);
    expect(unknown.code).toBe(2);
    expect(unknown.output).toContain('Unknown role "chef": use mitarbeiter, schichtleitung, admin.');
    const unknownOnCreate = user(['create', 'x', 'X', '--role=boss'], 'Sicher-123\n');
    expect(unknownOnCreate.code).toBe(2);
    expect(unknownOnCreate.output).toContain('Unknown role "boss"');
    expect(user(['role', 'niemand', 'admin']).output).toContain('No user "niemand".');
  }, 180_000);

  it('takes an existing badge from stdin; refuses bad input with a clear message and exit code', () => {
    const badge = user(['card', 'jkoch', '--stdin'], 'ALTER-AUSWEIS-4711-0815\n');
    expect(badge.code).toBe(0);
    expect(badge.stdout).toContain('Card of jkoch (Jana Koch) set');
    expect(badge.stdout).not.toContain('ALTER-AUSWEIS');

    const short = user(['password', 'jkoch'], 'kurz\n');
    expect(short.code).toBe(1);
    expect(short.output).toContain('A password needs at least 8 characters.');
    const noWay = user(['create', 'x', 'X', '--no-password']);
    expect(noWay.code).toBe(2);
    expect(noWay.output).toContain('needs --card or --card-stdin');
    const usage = user(['frobnicate']);
    expect(usage.code).toBe(2);
    expect(usage.output).toContain('Usage:');
  }, 180_000);
});
