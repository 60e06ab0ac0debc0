import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The API tests call the server as the web client does, through the contract (`test/support/endpoint-call.ts`,
 * issue 40): a renamed path or field then breaks a test when it compiles, not when it runs. A path written
 * by hand — a string starting with /api/ — is for a request no client sends (a malformed id, no key, a raw
 * body, no call of the contract at all), and says so: a comment on its line or in the four lines before it,
 * or, for a file that sends only such requests, a line at its top saying "… on purpose".
 */
const HAND_WRITTEN = /(?<![=\w])['"`]\/api\//;
const WHOLE_FILE = /on purpose/i;
const root = path.resolve(import.meta.dirname, '../..');

/** The lines (1-based) of `source` with a hand-written API path that no comment explains. */
function unexplainedPaths(source: string): number[] {
  const lines = source.split('\n');
  if (WHOLE_FILE.test(lines.slice(0, 3).join('\n'))) return [];
  const said = (n: number) =>
    lines
      .slice(Math.max(0, n - 4), n + 1)
      .some((line, i, near) => line.includes('//') || (i === near.length - 1 && /\/\*|\*\//.test(line)));
  return lines.flatMap((line, n) => (HAND_WRITTEN.test(line) && !said(n) ? [n + 1] : []));
}

describe('API tests through the contract caller', () => {
  it('write no API path by hand without saying why', () => {
    const dir = path.join(root, 'test/api');
    const files = fs.readdirSync(dir).filter((f) => f.endsWith('.test.ts'));
    expect(files.length).toBeGreaterThan(40);
    const found = files.flatMap((file) =>
      unexplainedPaths(fs.readFileSync(path.join(dir, file), 'utf8')).map(
        (line) => `test/api/${file}:${line}`,
      ),
    );
    expect(found).toEqual([]);
  });

  it('finds a path written by hand, and takes one that says why (the check can fail)', () => {
    const request = "  const res = await app.inject({ url: '/api/inventur/history' });";
    expect(unexplainedPaths(['it("x", async () => {', request, '});'].join('\n'))).toEqual([2]);
    expect(
      unexplainedPaths(['// A request without its key, as no client sends it.', request].join('\n')),
    ).toEqual([]);
    expect(unexplainedPaths(['// Raw HTTP on purpose: proxy headers.', '', request].join('\n'))).toEqual([]);
    // A route in a metric's label is no request.
    expect(unexplainedPaths('grew(\'lagerscanner_bookings_total{route="/api/retourenerfassung"}\')')).toEqual(
      [],
    );
  });
});
