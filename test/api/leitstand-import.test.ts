import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import * as inventur from '../../src/contract/inventur.ts';
import { benutzerTexts } from '../../src/contract/leitstand/benutzer.ts';
import * as importUpload from '../../src/contract/leitstand/import.ts';
import { texts } from '../../src/contract/texts.ts';
import { demo } from '../../src/server/seed/demo.ts';
import { loginAs, startTestApp, type TestApp, userIdOf } from '../support/app.ts';
import { databaseKinds } from '../support/db.ts';
import { type BodyOf, caller } from '../support/endpoint-call.ts';
import { articleId, locationId } from '../support/stock.ts';

const refusals = importUpload.importTexts.refusals;
type Report = z.output<(typeof importUpload.runImport)['response']> & Record<string, unknown>;

/** Body limits of this test's server: the general one small, the upload's larger (both in bytes). */
const BODY_LIMIT = 16 * 1024;
const IMPORT_LIMIT = 256 * 1024;

describe.each(databaseKinds())('Leitstand › Import on %s', (kind) => {
  let t: TestApp;
  let admin: ReturnType<typeof caller>;
  let adminId: number;
  beforeAll(async () => {
    t = await startTestApp(kind, { bodyLimitBytes: BODY_LIMIT, importLimitBytes: IMPORT_LIMIT });
    admin = caller(t.app, await loginAs(t.app, demo.adminUser));
    adminId = await userIdOf(t.database.db, 'admin');
  });
  afterAll(() => t.close());

  const upload = (kindName: string, fileName: string, bytes: Buffer | string, key?: string) =>
    admin(importUpload.runImport, {
      params: { kind: kindName },
      body: { fileName, content: Buffer.from(bytes).toString('base64') },
      key,
    });
  const articleCount = async () =>
    (
      await t.database.db
        .selectFrom('articles')
        .select(sql<number>`count(*)::int`.as('n'))
        .executeTakeFirstOrThrow()
    ).n;
  const auditOf = (action: string) =>
    t.database.db
      .selectFrom('audit_log')
      .select(['user_id', 'action', 'subject', 'detail', 'request_key'])
      .where('action', '=', action)
      .orderBy('id')
      .execute();

  it('names every kind with its columns, and the largest file the upload takes', async () => {
    const res = await admin(importUpload.importKinds);
    expect(res.statusCode).toBe(200);
    const { kinds, maxFileBytes } = res.json<{
      kinds: { name: string; columns: unknown[] }[];
      maxFileBytes: number;
    }>();
    expect(kinds.map((k) => k.name)).toEqual([
      'users',
      'articles',
      'locations',
      'stock',
      'batches',
      'projects',
      'delivery-notes',
      'shipments',
      'carts',
      'pick-carts',
      'receipts',
    ]);
    expect(kinds.find((k) => k.name === 'articles')?.columns).toContainEqual({
      header: 'Artikelnummer',
      required: true,
    });
    // base64: 4 characters for 3 bytes, and room for the JSON around it.
    expect(maxFileBytes).toBeGreaterThan(IMPORT_LIMIT * 0.7);
    expect(Math.ceil(maxFileBytes / 3) * 4 + 4096).toBeLessThanOrEqual(IMPORT_LIMIT);
  });

  it('imports a file exactly once, journalled with kind, file name and rows', async () => {
    const before = await articleCount();
    const key = randomUUID();
    const file = fs.readFileSync('docs/import/articles.csv');
    const res = await upload('articles', 'artikel.csv', file, key);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      imported: true,
      encoding: 'UTF-8',
      rows: 5,
      written: 5,
      refusedRows: 0,
      fileRefused: false,
      lineErrors: [],
      unlistedRows: 0,
      ignoredColumns: [],
      summary: [
        {
          code: 'counts',
          params: { what: 'articles', inserted: 5, updated: 0, unchanged: 0 },
          text: 'articles: 5 new, 0 changed, 0 unchanged',
        },
      ],
    });
    // The page's German summary line (the CLI prints `text`).
    const [summary] = res.json<Report>().summary;
    expect(summary && importUpload.importTexts.summaryLine(summary)).toBe(
      'Artikel: 5 neu, 0 geändert, 0 unverändert',
    );
    expect(await articleCount()).toBe(before + 5);
    const repeat = await upload('articles', 'artikel.csv', file, key);
    expect(repeat.headers['idempotent-replayed']).toBe('true');
    expect(repeat.json()).toEqual(res.json());
    expect(await auditOf('import.articles')).toEqual([
      {
        user_id: adminId,
        action: 'import.articles',
        subject: 'artikel.csv',
        detail: { kind: 'articles', rows: 5, written: 5, encoding: 'UTF-8' },
        request_key: key,
      },
    ]);
  });

  it('reads German Excel’s default CSV (Windows-1252), above the general body limit', async () => {
    const row = (i: number) => `9${String(i).padStart(5, '0')};Dübel „groß“ für Müller, 5 € Nr. ${i}\n`;
    let text = 'Artikelnummer;Bezeichnung\n';
    for (let i = 0; text.length < BODY_LIMIT * 2; i++) text += row(i);
    const cp1252: Record<string, number> = { '€': 0x80, '„': 0x84, '“': 0x93 };
    const bytes = Buffer.from([...text].map((c) => cp1252[c] ?? c.charCodeAt(0)));
    const res = await upload('articles', 'excel.csv', bytes);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ imported: true, encoding: 'Windows-1252' });
    const stored = await t.database.db
      .selectFrom('articles')
      .select('name')
      .where('nummer', '=', '900000')
      .executeTakeFirstOrThrow();
    expect(stored.name).toBe('Dübel „groß“ für Müller, 5 € Nr. 0');
  });

  it('refuses the whole file for one bad line: every line error listed, nothing written, journalled as refused', async () => {
    const before = await articleCount();
    const entries = await auditOf('import.articles');
    const csv = [
      'Artikelnummer;Bezeichnung;EAN',
      '400001;Gute Zeile;',
      '400002;Falsche EAN;4006381333987',
      '400003;;',
      '400004;Noch eine gute;',
    ].join('\n');
    const res = await upload('articles', 'kaputt.csv', csv);
    expect(res.statusCode).toBe(200);
    const report = res.json<Report>();
    expect(report).toMatchObject({
      imported: false,
      rows: 4,
      refusedRows: 2,
      written: 0,
      fileRefused: false,
    });
    // Each reason as a code with its parameters, and in English as `npm run import` prints it.
    expect(report.lineErrors).toEqual([
      {
        line: 3,
        column: 'EAN',
        code: 'notAnEan',
        params: { value: '4006381333987' },
        reason: '"4006381333987" is not an EAN/GTIN (8, 12, 13 or 14 digits with a valid check digit)',
      },
      { line: 4, column: 'Bezeichnung', code: 'empty', params: {}, reason: 'is empty' },
    ]);
    // The Import page's German of the same answer.
    const german = report.lineErrors.map((e) => [
      e.line,
      importUpload.importTexts.column(e.column),
      importUpload.importTexts.reason(e),
    ]);
    expect(german).toEqual([
      [3, 'EAN', '„4006381333987“ ist keine EAN/GTIN (8, 12, 13 oder 14 Ziffern mit gültiger Prüfziffer)'],
      [4, 'Bezeichnung', 'ist leer'],
    ]);
    expect(await articleCount()).toBe(before);
    expect(await auditOf('import.articles')).toEqual([
      ...entries,
      {
        user_id: expect.any(Number),
        action: 'import.articles',
        subject: 'kaputt.csv',
        detail: { kind: 'articles', rows: 4, refusedRows: 2, outcome: 'refused' },
        request_key: expect.any(String),
      },
    ]);

    const noHeader = await upload('articles', 'ohne-spalte.csv', 'Bezeichnung\nNur ein Name\n');
    expect(noHeader.json()).toMatchObject({
      imported: false,
      fileRefused: true,
      lineErrors: [
        {
          line: 1,
          column: 'Artikelnummer',
          code: 'columnMissing',
          params: {},
          reason: 'column is missing in the header',
        },
      ],
    });
    const unclosed = await upload('articles', 'anfuehrung.csv', 'Artikelnummer;Bezeichnung\n1;"offen\n');
    const [fileError] = unclosed.json<Report>().lineErrors;
    expect(fileError).toMatchObject({ line: 2, column: 'file', code: 'quoteNotClosed' });
    expect(fileError && importUpload.importTexts.column(fileError.column)).toBe('ganze Datei');
    expect(fileError && importUpload.importTexts.reason(fileError)).toBe(
      'Ein Feld in Anführungszeichen wird nicht geschlossen.',
    );
  });

  it('refuses in German: a file in another encoding, an unknown kind, a file above the limit', async () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Artikelnummer\n1\n', 'utf16le')]);
    const encoding = await upload('articles', 'unicode.txt', utf16);
    expect([encoding.statusCode, encoding.json()]).toMatchObject([
      400,
      { success: false, message: refusals.encoding },
    ]);
    const control = await upload('articles', 'a\u0000.csv', 'Artikelnummer\n1\n');
    expect([control.statusCode, control.json().message]).toEqual([
      400,
      texts.errors.input.controlCharacterTyped('Dateiname'),
    ]);
    const unknown = await upload('kunden', 'kunden.csv', 'Name\nX\n');
    expect([unknown.statusCode, unknown.json().message]).toEqual([404, refusals.unknownKind('kunden')]);
    const tooLarge = await upload('articles', 'gross.csv', `Artikelnummer\n${'1\n'.repeat(IMPORT_LIMIT)}`);
    expect([tooLarge.statusCode, tooLarge.json().message]).toEqual([413, texts.errors.bodyTooLarge]);
    // Every other call keeps the general limit.
    const big = await admin(inventur.bookInventur, {
      body: { lp: 1, article: 1, amount: 1, pad: 'x'.repeat(BODY_LIMIT) } as BodyOf<
        typeof inventur.bookInventur
      >,
    });
    expect(big.statusCode).toBe(413);
  });

  it('keeps an active admin: a users file that would switch the last one off is refused whole', async () => {
    const csv =
      'Name;Benutzername;Passwort;Aktiv\nIT Admin;admin;;nein\nNeue Person;nperson;Lager-2026!;ja\n';
    const res = await upload('users', 'benutzer.csv', csv);
    expect([res.statusCode, res.json()]).toMatchObject([
      400,
      { success: false, message: benutzerTexts.refusals.lastAdmin },
    ]);
    const users = await t.database.db
      .selectFrom('users')
      .select(['username', 'active'])
      .where('username', 'in', ['admin', 'nperson'])
      .execute();
    expect(users).toEqual([{ username: 'admin', active: true }]);
    expect((await auditOf('import.users')).at(-1)).toMatchObject({
      subject: 'benutzer.csv',
      detail: { kind: 'users', outcome: 'refused', reason: benutzerTexts.refusals.lastAdmin },
    });
  });

  it('imports while a scanner books: both done, the books right', async () => {
    const worker = caller(t.app, await loginAs(t.app, demo.passwordUser));
    const lp = await locationId(t.database.db, demo.locations.main);
    const article = await articleId(t.database.db, demo.article.nummer);
    let text = 'Artikelnummer;Bezeichnung\n';
    for (let i = 0; i < 2000; i++) text += `7${String(i).padStart(5, '0')};Last ${i}\n`;
    const [imported, booked] = await Promise.all([
      upload('articles', 'viele.csv', text),
      worker(inventur.bookInventur, { body: { lp, article, amount: 7 } }),
    ]);
    expect(imported.json()).toMatchObject({ imported: true, written: 2000 });
    expect(booked.statusCode).toBe(200);
    const counted = await t.database.db
      .selectFrom('inventory_counts')
      .select('counted')
      .where('location_id', '=', lp)
      .where('article_id', '=', article)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(counted.counted).toBe(7);
  });

  it('refuses a shift lead with 403 in German, importing nothing', async () => {
    const lead = caller(t.app, await loginAs(t.app, demo.leadUser));
    const before = await articleCount();
    for (const [endpoint, call] of [
      [importUpload.importKinds, {}],
      [
        importUpload.runImport,
        {
          params: { kind: 'articles' },
          body: {
            fileName: 'a.csv',
            content: Buffer.from('Artikelnummer;Bezeichnung\n500001;X\n').toString('base64'),
          },
        },
      ],
    ] as const) {
      const res = await lead(endpoint, call);
      expect([res.statusCode, res.json().message]).toEqual([403, texts.errors.role.admin]);
    }
    expect(await articleCount()).toBe(before);
  });
});
