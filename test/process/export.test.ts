import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runScript } from '../support/cli.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lagerscanner-export-'));
const dataDir = path.join(dir, 'data');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function run(script: string, ...args: string[]) {
  return runScript(script, args, { env: { DATA_DIR: dataDir } });
}
const exportFeed = (...args: string[]) => run('src/server/cli/export.ts', ...args);
const SINCE = '2000-01-01T00:00:00Z';

describe('npm run export', () => {
  it('writes a whole feed to a file, page after page, as JSON or CSV, and says where to continue', () => {
    expect(run('src/server/cli/seed.ts').code).toBe(0);
    const json = path.join(dir, 'movements.json');
    const done = exportFeed('movements', '--since', SINCE, '--format', 'json', '--out', json);
    expect(done.code, done.stderr).toBe(0);
    const rows = JSON.parse(fs.readFileSync(json, 'utf8')) as { id: number; time: string; kind: string }[];
    expect(rows.length).toBeGreaterThan(20);
    expect(rows.every((r) => r.kind === 'seed')).toBe(true);
    expect(done.stderr).toContain(`Wrote ${rows.length} movements rows to ${json}.`);

    // Read 7 rows at a time: the same file.
    const paged = path.join(dir, 'paged.json');
    expect(
      exportFeed('movements', '--since', SINCE, '--format', 'json', '--page', '7', '--out', paged).code,
    ).toBe(0);
    expect(fs.readFileSync(paged, 'utf8')).toBe(fs.readFileSync(json, 'utf8'));

    const csv = exportFeed('movements', '--since', SINCE, '--sep', ';', '--page', '7');
    expect(csv.code).toBe(0);
    const lines = csv.stdout.split('\r\n');
    expect(lines[0]).toBe('\uFEFFid;time;kind;article;from;to;amount;charge;mhd;user;receipt;belegnr');
    expect(lines.slice(1, -1).map((l) => Number(l.split(';')[0]))).toEqual(rows.map((r) => r.id));

    // The printed cursor continues after the last row: nothing new since.
    const cursor = /--cursor (\S+)/.exec(done.stderr)?.[1] ?? '';
    const later = exportFeed('movements', '--cursor', cursor, '--format', 'json');
    expect(later.stdout).toBe('[]\n');
    expect(later.stderr).toContain('Wrote 0 movements rows.');
  }, 180_000);

  it('writes no cell a spreadsheet would run as a formula: a text starting with = + - @ gets a quote before it', () => {
    // A location code and its stock from the ERP, as `npm run import` takes them.
    const file = (name: string, content: string) => {
      const target = path.join(dir, name);
      fs.writeFileSync(target, content);
      return target;
    };
    const imported = (kind: string, content: string) =>
      run('src/server/cli/import.ts', kind, file(`${kind}.csv`, content));
    expect(imported('locations', 'Lagerplatz;Bezeichnung\n=1+1;Formel\n').code).toBe(0);
    expect(imported('stock', 'Lagerplatz;Artikelnummer;Menge\n=1+1;100001;5\n').code).toBe(0);

    for (const sep of [',', ';']) {
      const csv = exportFeed('movements', '--since', SINCE, '--sep', sep);
      expect(csv.code, csv.stderr).toBe(0);
      const row = csv.stdout.split('\r\n').find((line) => line.includes('=1+1'));
      expect(row?.split(sep).slice(2), sep).toEqual([
        'import',
        '100001',
        '',
        `"'=1+1"`,
        '5',
        '',
        '',
        '',
        '',
        '',
      ]);
    }
    const json = exportFeed('movements', '--since', SINCE, '--format', 'json');
    expect(JSON.parse(json.stdout).find((r: { to: string }) => r.to?.includes('=1+1'))?.to).toBe('=1+1');
  }, 180_000);

  it('refuses a bad feed, time, cursor or format with a clear message', () => {
    expect(exportFeed('stock', '--since', SINCE).stderr).toContain('Usage:');
    const since = exportFeed('movements', '--since', '2026-11-23');
    expect(since.code).toBe(2);
    expect(since.stderr).toContain('--since must be an ISO 8601 time with a time zone');
    expect(exportFeed('movements', '--cursor', 'abc').stderr).toContain(
      '--cursor is not a cursor of the movements feed.',
    );
    expect(exportFeed('movements', '--since', SINCE, '--format', 'xml').stderr).toContain(
      '--format must be csv or json',
    );
    expect(exportFeed('movements').stderr).toContain('Give --since or --cursor.');
  }, 60_000);
});
