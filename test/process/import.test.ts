import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runScript } from '../support/cli.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lagerscanner-import-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

function importCli(...args: string[]) {
  return runScript('src/server/cli/import.ts', args, { env: { DATA_DIR: dataDir } });
}

function file(name: string, content: string | Buffer): string {
  const target = path.join(dataDir, name);
  fs.writeFileSync(target, content);
  return target;
}

describe('npm run import', () => {
  it('imports a file, reports what changed with rows/s, and shows progress on stderr', () => {
    const result = importCli('articles', 'docs/import/articles.csv');
    expect(result.stderr).toContain('writing: 100%');
    expect(result.stdout).toContain('articles: 5 new, 0 changed, 0 unchanged');
    expect(result.stdout).toMatch(/5 rows imported in \d+\.\d s \([\d,]+ rows\/s\)\./);
    expect(result.code).toBe(0);
  }, 120_000);

  it('refuses a file with a bad row (exit 1, nothing written) unless --skip-bad', () => {
    const csv = file('stock.csv', 'Lagerplatz;Artikelnummer;Menge\nH-01;300001;5\n');
    const refused = importCli('stock', csv);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('line 2: Lagerplatz: no location with the Lagerplatz "H-01"');
    expect(refused.stderr).toContain(
      '1 of 1 rows refused. Nothing was written (--skip-bad writes the good rows).',
    );

    const mixed = file('locations.csv', 'Lagerplatz;LHM\nH-01;nein\nH-02;vielleicht\n');
    const skipped = importCli('locations', mixed, '--skip-bad');
    expect(skipped.stdout).toContain('line 3: LHM: "vielleicht" is not ja or nein');
    expect(skipped.stdout).toContain('1 of 2 rows refused and skipped; 1 written.');
    expect(skipped.code).toBe(0);
    expect(importCli('stock', csv).code).toBe(0);
  }, 120_000);

  it('reads German Excel’s default CSV (Windows-1252: umlauts, ß, €) and says which encoding it read', () => {
    const row = 'Artikelnummer;Bezeichnung\n900001;Dübel „groß“ für Müller, 5 €\n';
    const cp1252: Record<string, number> = { '€': 0x80, '„': 0x84, '“': 0x93 };
    const bytes = Buffer.from([...row].map((c) => cp1252[c] ?? c.charCodeAt(0)));
    const excel = importCli('articles', file('excel.csv', bytes));
    expect(excel.stdout).toContain('Read as Windows-1252.');
    expect(excel.stdout).toContain('articles: 1 new, 0 changed, 0 unchanged');
    expect(excel.code).toBe(0);
    // The same row as UTF-8 changes nothing: the name was read letter for letter.
    const utf8 = importCli('articles', file('utf8.csv', Buffer.from(`\ufeff${row}`, 'utf8')));
    expect(utf8.stdout).toContain('Read as UTF-8.');
    expect(utf8.stdout).toContain('articles: 0 new, 0 changed, 1 unchanged');
  }, 120_000);

  it('explains what it needs: usage (exit 2), missing files and files it cannot read (exit 1)', () => {
    const usage = importCli('frobnicate', 'x.csv');
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('Unknown kind "frobnicate".');
    expect(usage.stderr).toContain(
      'kinds: users, articles, locations, stock, batches, projects, delivery-notes',
    );
    expect(importCli('articles').code).toBe(2);
    expect(importCli('articles', 'a.csv', '--images', 'bilder').stderr).toContain(
      '--images is for the projects kind only.',
    );
    const missing = importCli('articles', path.join(dataDir, 'nope.csv'));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('No such file:');
    const utf16 = importCli(
      'articles',
      file(
        'utf16.csv',
        Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Artikelnummer\n1\n', 'utf16le')]),
      ),
    );
    expect(utf16.code).toBe(1);
    expect(utf16.stderr).toContain(
      'The file is UTF-16 (Excel: "Unicode-Text"). Save it from Excel as "CSV UTF-8 (durch Trennzeichen getrennt)" or "CSV (Trennzeichen-getrennt)".',
    );
  }, 120_000);

  it('while a server holds the embedded database, says to upload the file in the Leitstand instead', () => {
    // A running server's lock (its pid: this test process is alive).
    const lock = path.join(dataDir, 'lagerscanner.pid');
    fs.writeFileSync(lock, String(process.pid));
    try {
      const busy = importCli('articles', 'docs/import/articles.csv');
      expect(busy.code).toBe(1);
      expect(busy.stderr).toContain('is in use by another Lagerscanner process');
      expect(busy.stderr).toContain(
        'While the server runs, import through it instead: log in as an admin and upload the file at /leitstand/import (Leitstand › Import, kind "articles")',
      );
    } finally {
      fs.rmSync(lock);
    }
  }, 120_000);
});
