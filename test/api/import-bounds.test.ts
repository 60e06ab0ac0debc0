import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import * as importUpload from '../../src/contract/leitstand/import.ts';
import { demo } from '../../src/server/seed/demo.ts';
import { loginAs, startTestApp, type TestApp } from '../support/app.ts';
import { databaseKinds } from '../support/db.ts';
import { caller } from '../support/endpoint-call.ts';

type Report = z.output<(typeof importUpload.runImport)['response']>;
const t = importUpload.importTexts;

/**
 * Issue 39 rows 3 and 7: what an import answers (and keeps under its key for a week) stays small whatever
 * the file — at most 100 refused lines listed, the rest counted; a line or cell beyond the limits refused
 * with a clear message, never echoed — and invisible characters that change how a name reads are refused.
 */
describe.each(databaseKinds())('import answers stay bounded on %s', (kind) => {
  let app: TestApp;
  let admin: ReturnType<typeof caller>;
  beforeAll(async () => {
    app = await startTestApp(kind);
    admin = caller(app.app, await loginAs(app.app, demo.adminUser));
  });
  afterAll(() => app.close());

  const upload = async (csv: string, key = randomUUID()) => {
    const res = await admin(importUpload.runImport, {
      params: { kind: 'articles' },
      body: { fileName: 'artikel.csv', content: Buffer.from(csv).toString('base64') },
      key,
    });
    expect(res.statusCode).toBe(200);
    return { report: res.json<Report>(), bytes: res.body.length, key };
  };
  const storedBytes = async (key: string) =>
    (
      await sql<{
        n: number;
      }>`select length(response::text)::int as n from idempotency where key = ${key}`.execute(app.database.db)
    ).rows[0]?.n ?? 0;
  const articlesNamed = async (pattern: string) =>
    (
      await app.database.db
        .selectFrom('articles')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('nummer', 'like', pattern)
        .executeTakeFirstOrThrow()
    ).n;

  it('lists the first 100 refused lines and counts the rest: the answer and its stored copy stay small', async () => {
    const lines = 20_000;
    const { report, bytes, key } = await upload(`Artikelnummer;Bezeichnung\n${'x;\n'.repeat(lines)}`);
    expect(report).toMatchObject({
      imported: false,
      rows: lines,
      refusedRows: lines,
      unlistedRows: lines - 100,
    });
    expect(report.lineErrors.map((e) => e.line)).toEqual(Array.from({ length: 100 }, (_, i) => i + 2));
    expect(report.lineErrors[0]).toMatchObject({ column: 'Bezeichnung', code: 'empty' });
    expect(t.unlistedRows(report.unlistedRows ?? 0)).toMatch(/^… und 19\.900 weitere abgelehnte Zeilen/);
    expect(bytes).toBeLessThan(40_000);
    expect(await storedBytes(key)).toBeLessThan(40_000);
  });

  it('refuses a file with a line longer than 50,000 characters, naming the line, and echoes nothing of it', async () => {
    const header = await upload(`Artikelnummer;Bezeichnung;${'Y'.repeat(60_000)}\n900001;Kuli\n`);
    expect(header.report).toMatchObject({ imported: false, fileRefused: true, ignoredColumns: [] });
    expect(header.report.lineErrors).toEqual([
      expect.objectContaining({ line: 1, column: 'file', code: 'lineTooLong', params: { max: 50_000 } }),
    ]);
    expect(t.reason(header.report.lineErrors[0] ?? { code: '', params: {} })).toContain(
      'länger als 50.000 Zeichen',
    );
    expect(header.bytes).toBeLessThan(2_000);

    const body = await upload(`Artikelnummer;Bezeichnung\n900001;Kuli\n900002;${'Z;'.repeat(40_000)}\n`);
    expect(body.report).toMatchObject({ imported: false, fileRefused: true });
    expect(body.report.lineErrors).toEqual([expect.objectContaining({ line: 3, code: 'lineTooLong' })]);
    expect(await articlesNamed('90000_')).toBe(0);
  });

  it('refuses a cell longer than 2,000 characters without quoting it, and quotes a bad short value cut', async () => {
    const { report, bytes } = await upload(
      `Artikelnummer;Bezeichnung;Chargenpflicht\n910001;Kuli;${'j'.repeat(10_000)}\n910002;Stift;${'n'.repeat(1_000)}\n`,
    );
    expect(report.lineErrors).toEqual([
      expect.objectContaining({ line: 2, column: 'Chargenpflicht', code: 'tooLong', params: { max: 2_000 } }),
      expect.objectContaining({ line: 3, column: 'Chargenpflicht', code: 'notABoolean' }),
    ]);
    expect(String(report.lineErrors[1]?.params.value)).toHaveLength(60);
    expect(bytes).toBeLessThan(2_000);
    expect(await articlesNamed('91000_')).toBe(0);
  });

  it('refuses names with a bidi override or a C1 control, naming the line and the character; writes nothing', async () => {
    const { report } = await upload(
      [
        'Artikelnummer;Bezeichnung;Kurzbezeichnung',
        '920001;Kugelschreiber blau;Kuli',
        '920002;Kugel\u202Eschreiber;Kuli',
        '920003;Stift\u0085blau;Stift',
        '920004;Marker;Mark\u2066er',
      ].join('\n'),
    );
    expect(report).toMatchObject({ imported: false, refusedRows: 3 });
    expect(report.lineErrors.map((e) => [e.line, e.column, e.code, e.params])).toEqual([
      [3, 'Bezeichnung', 'hiddenCharacter', { codePoint: 'U+202E' }],
      [4, 'Bezeichnung', 'hiddenCharacter', { codePoint: 'U+0085' }],
      [5, 'Kurzbezeichnung', 'hiddenCharacter', { codePoint: 'U+2066' }],
    ]);
    expect(t.reason(report.lineErrors[0] ?? { code: '', params: {} })).toBe(
      'enthält das unsichtbare Steuerzeichen U+202E (z. B. eine Schreibrichtungsumkehr); bitte im ERP entfernen',
    );
    expect(await articlesNamed('92000_')).toBe(0);
  });
});
