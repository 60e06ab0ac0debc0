import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as auth from '../../src/contract/auth.ts';
import { packageRecording } from '../../src/contract/kartonagen.ts';
import { replenishmentList } from '../../src/contract/nachschub.ts';
import { packageContent } from '../../src/contract/paketinhalt.ts';
import { KINDS, type KindName } from '../../src/server/import/kinds/index.ts';
import { type ImportReport, importCsv } from '../../src/server/import/run.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { databaseKinds } from '../support/db.ts';
import { caller } from '../support/endpoint-call.ts';
import { articleId, locationId, stockInvariantViolations, stockOf } from '../support/stock.ts';

const examples = path.resolve(import.meta.dirname, '../../docs/import');
const example = (kind: KindName) => fs.readFileSync(path.join(examples, `${kind}.csv`), 'utf8');

/** `npm run import`'s core on a fresh demo warehouse, on both databases. */
describe.each(databaseKinds())('CSV import on %s', (kind) => {
  let t: TestApp;
  const imagesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lagerscanner-import-images-'));

  beforeAll(async () => {
    t = await startTestApp(kind, { imagesDir });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(imagesDir, { recursive: true, force: true });
  });

  const db = () => t.database.db;
  /** The logins: a call with no login yet. */
  const anonymous = () => caller(t.app, null);
  const run = (
    name: KindName,
    text: string,
    options: { skipBad?: boolean; images?: boolean; imagesSource?: string } = {},
  ) =>
    importCsv(db(), name, text, {
      skipBad: options.skipBad,
      imagesDir,
      imagesSource: options.imagesSource ?? (options.images ? path.join(examples, 'bilder') : null),
    });
  const count = async (table: string) =>
    (await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(db())).rows[0]?.n;
  /** Every table that an import writes, as text: to show that a refused file changed nothing. */
  const snapshot = async () => {
    const tables = [
      'users',
      'articles',
      'locations',
      'stock',
      'movements',
      'replenishment_minimums',
      'batches',
      'projects',
      'cartons',
      'delivery_notes',
      'delivery_note_lines',
      'shipments',
      'carts',
    ];
    const parts: string[] = [];
    for (const table of tables) {
      const { rows } = await sql<{ row: string }>`
        select t::text as row from ${sql.table(table)} t order by 1`.execute(db());
      parts.push(`${table}:${rows.map((r) => r.row).join('|')}`);
    }
    return parts.join('\n');
  };
  const refusals = (report: ImportReport) =>
    report.refused.map((r) => `line ${r.line}: ${r.column}: ${r.reason}`);

  it('imports the example file of every kind, and importing them again changes nothing', async () => {
    for (const name of Object.keys(KINDS) as KindName[]) {
      const report = await run(name, example(name), { images: name === 'projects' });
      expect(refusals(report), name).toEqual([]);
      expect(report.committed, name).toBe(true);
    }
    // What the examples say arrived, as the app shows it.
    const login = await anonymous()(auth.loginPassword, {
      body: { username: 'aschaefer', password: 'Lager-2027!' },
    });
    expect(login.statusCode).toBe(200);
    expect(login.json<{ name: string }>().name).toBe('Anna Schäfer');
    const get = caller(t.app, login.json<{ token: string }>().token);
    // The imported note at the packing station: its lines, and its project's cartons.
    const content = await get(packageContent, { params: { belegnr: 'LS310001' } });
    expect(
      content
        .json<{ data: { paketinhalt: { nummer: string; lsmenge: number }[] } }>()
        .data.paketinhalt.map((line) => `${line.nummer}×${line.lsmenge}`),
    ).toEqual(['300001×4', '300002×2', '300004×1']);
    const cartons = await get(packageRecording, { params: { belegnr: 'LS310001' } });
    expect(
      cartons.json<{ data: { kartonagen: { name: string }[] } }>().data.kartonagen.map((c) => c.name),
    ).toEqual(['Faltkarton S', 'Faltkarton L', 'Versandtasche A4']);
    // The imported minimum under Nachschub: 8 of 300003 on H-01-03-02, minimum 10.
    const nachschub = await get(replenishmentList);
    expect(
      nachschub
        .json<{ data: { location: string; nummer: string; missing: number }[] }>()
        .data.filter((row) => row.location.startsWith('H-')),
    ).toMatchObject([{ location: 'H-01-03-02', nummer: '300003', missing: 2 }]);
    const card = await anonymous()(auth.loginCard, {
      body: { stechuhrdevice: 'CWEISS-K2M9P4Q7R1T8V3X6Z5B0' },
    });
    expect(card.json<{ name: string }>().name).toBe('Carla Weiß');
    const inactive = await anonymous()(auth.loginPassword, {
      body: { username: 'dkrueger', password: 'irrelevant' },
    });
    expect(inactive.statusCode).toBe(401);

    const article = await db()
      .selectFrom('articles')
      .selectAll()
      .where('nummer', '=', '300005')
      .executeTakeFirstOrThrow();
    expect(article).toMatchObject({
      name: 'Montagekleber weiß, Kartusche 310 ml',
      charge_required: true,
      mhd_required: true,
    });
    const lhm = await db()
      .selectFrom('locations')
      .selectAll()
      .where('code', '=', 'LHM900001')
      .executeTakeFirstOrThrow();
    expect(lhm).toMatchObject({ is_lhm: true, lagertyp: 'LHM' });
    const pick = await locationId(db(), 'H-01-03-01');
    expect(await stockOf(db(), pick, await articleId(db(), '300002'))).toBe(2500);
    const minimum = await db()
      .selectFrom('replenishment_minimums')
      .select('minimum')
      .where('location_id', '=', pick)
      .where('article_id', '=', await articleId(db(), '300002'))
      .executeTakeFirstOrThrow();
    expect(minimum.minimum).toBe(1000);
    const glue = await db()
      .selectFrom('stock')
      .select(['charge', 'mhd', 'amount'])
      .where('article_id', '=', await articleId(db(), '300004'))
      .orderBy('mhd')
      .execute();
    expect(glue).toEqual([
      { charge: 'L2027-11', mhd: '2027-12-31', amount: 60 },
      { charge: 'L2028-02', mhd: '2028-02-29', amount: 24 },
    ]);
    expect(await stockInvariantViolations(db())).toBe(0);
    const lines = await db()
      .selectFrom('delivery_note_lines as l')
      .innerJoin('delivery_notes as d', 'd.id', 'l.delivery_note_id')
      .innerJoin('articles as a', 'a.id', 'l.article_id')
      .select(['a.nummer', 'l.lsmenge'])
      .where('d.belegnr', '=', 'LS310001')
      .orderBy('a.nummer')
      .execute();
    expect(lines).toEqual([
      { nummer: '300001', lsmenge: 4 },
      { nummer: '300002', lsmenge: 2 },
      { nummer: '300004', lsmenge: 1 },
    ]);
    const shipments = await db()
      .selectFrom('shipments')
      .select(['tracking', 'carrier'])
      .where('tracking', 'like', '%310%')
      .orderBy('tracking')
      .execute();
    expect(shipments).toEqual([
      { tracking: '00340434161094310001', carrier: 'dhl' },
      { tracking: '00340434161094310002', carrier: null },
      { tracking: '91000310003', carrier: 'gls' },
    ]);
    // The carton's picture is where the packing station asks for it.
    const carton = await db()
      .selectFrom('cartons')
      .select('id')
      .where('name', '=', 'Faltkarton S')
      .executeTakeFirstOrThrow();
    const picture = await t.app.inject({ url: `/images/kartonagen/${carton.id}.jpg` });
    expect(picture.statusCode).toBe(200);
    expect(picture.rawPayload.equals(fs.readFileSync(path.join(examples, 'bilder/faltkarton-s.jpg')))).toBe(
      true,
    );

    const before = await snapshot();
    for (const name of Object.keys(KINDS) as KindName[]) {
      const report = await run(name, example(name), { images: name === 'projects' });
      expect(report.committed, name).toBe(true);
      for (const line of report.summary)
        expect(line, name).not.toMatch(/\b[1-9]\d* (new|changed|removed|copied|slots|set)/);
    }
    expect(await snapshot()).toBe(before);
  });

  it('writes nothing when a row is refused, and names the line, the column and why', async () => {
    const before = await snapshot();
    const articles = await run(
      'articles',
      'Artikelnummer;Bezeichnung;EAN\n400001;Gut;\n400002;Schlechte EAN;4006381333932\n400003;;\n',
    );
    expect(articles.committed).toBe(false);
    expect(refusals(articles)).toEqual([
      'line 3: EAN: "4006381333932" is not an EAN/GTIN (8, 12, 13 or 14 digits with a valid check digit)',
      'line 4: Bezeichnung: is empty',
    ]);
    const stock = await run(
      'stock',
      'Lagerplatz;Artikelnummer;Menge\nA-01-01-01;100001;7\nZ-99;100001;5\nA-01-01-01;999999;1,5\n',
    );
    expect(refusals(stock)).toEqual([
      'line 3: Lagerplatz: no location with the Lagerplatz "Z-99"',
      'line 4: Menge: "1,5" is not a whole number',
    ]);
    const missing = await run('stock', 'Lagerplatz;Artikel\nA-01-01-01;100001\n');
    expect(refusals(missing)).toEqual(['line 1: Menge: column is missing in the header']);
    expect(await snapshot()).toBe(before);
  });

  it('with --skip-bad writes the good rows and lists the refused ones', async () => {
    const report = await run(
      'articles',
      'Artikelnummer,Bezeichnung,MHD-Pflicht\n410001,"Kaffee, gemahlen",ja\n410002,Tee,vielleicht\n410001,Doppelt,nein\n',
      { skipBad: true },
    );
    expect(report.committed).toBe(true);
    expect(report.written).toBe(1);
    expect(refusals(report)).toEqual([
      'line 3: MHD-Pflicht: "vielleicht" is not ja or nein',
      'line 4: Artikelnummer: this Artikelnummer is already on line 2',
    ]);
    const rows = await db()
      .selectFrom('articles')
      .select(['nummer', 'name', 'mhd_required'])
      .where('nummer', 'like', '41000%')
      .execute();
    expect(rows).toEqual([{ nummer: '410001', name: 'Kaffee, gemahlen', mhd_required: true }]);
  });

  it('updates what changed by the natural key and keeps the columns the file does not have', async () => {
    const before = await db()
      .selectFrom('articles')
      .selectAll()
      .where('nummer', '=', '100001')
      .executeTakeFirstOrThrow();
    // Excel leaves lines of only separators below formatted cells: no rows, nothing refused.
    const report = await run(
      'articles',
      'Artikelnummer;Bezeichnung\n100001;Kugelschreiber dunkelblau\n100003;Textmarker gelb 4er\n;\n ; \n',
    );
    expect(report.rows).toBe(2);
    expect(report.summary).toEqual(['articles: 0 new, 1 changed, 1 unchanged']);
    const after = await db()
      .selectFrom('articles')
      .selectAll()
      .where('nummer', '=', '100001')
      .executeTakeFirstOrThrow();
    expect(after).toEqual({ ...before, name: 'Kugelschreiber dunkelblau' });
  });

  it("sets stock to the file's amount and journals the difference, so the journal adds up to the stock", async () => {
    const main = await locationId(db(), 'A-01-01-01');
    const pen = await articleId(db(), '100001');
    const was = await stockOf(db(), main, pen);
    const lower = await run('stock', `Lagerplatz;Artikelnummer;Menge\nA-01-01-01;100001;${was - 20}\n`);
    expect(lower.summary).toEqual(['stock: 1 slots changed (0 up, 1 down, each journalled), 0 unchanged']);
    expect(await stockOf(db(), main, pen)).toBe(was - 20);
    const journal = await db()
      .selectFrom('movements')
      .select(['kind', 'from_location_id', 'to_location_id', 'amount'])
      .where('article_id', '=', pen)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(journal).toEqual({ kind: 'import', from_location_id: main, to_location_id: null, amount: 20 });
    await run('stock', 'Lagerplatz;Artikelnummer;Menge\nA-01-01-01;100001;0\n');
    expect(
      await db()
        .selectFrom('stock')
        .select('id')
        .where('location_id', '=', main)
        .where('article_id', '=', pen)
        .execute(),
    ).toEqual([]);
    // An article that needs a Charge and an MHD gets none without them.
    const yoghurt = await run(
      'stock',
      'Lagerplatz;Artikelnummer;Charge;MHD;Menge\nB-02-01-01;100002;;;5\nB-02-01-01;100002;C1;31.02.2027;5\n',
    );
    expect(refusals(yoghurt)).toEqual([
      'line 2: Charge: is empty, article 100002 requires a Charge',
      'line 2: MHD: is empty, article 100002 requires an MHD',
      'line 3: MHD: "31.02.2027" is not a valid calendar date',
    ]);
    expect(await stockInvariantViolations(db())).toBe(0);
  });

  it.runIf(kind === 'postgres')(
    'waits for a booking on the same stock and journals the difference to the amount it really replaced',
    async () => {
      const second = await locationId(db(), 'A-01-01-02');
      const pen = await articleId(db(), '100001');
      const was = await stockOf(db(), second, pen);
      // Another instance books +5 onto the slot and has not committed yet.
      const booking = new pg.Client({ connectionString: t.database.url ?? '' });
      await booking.connect();
      await booking.query('begin');
      await booking.query(
        'update stock set amount = amount + 5 where location_id = $1 and article_id = $2 and charge is null and mhd is null',
        [second, pen],
      );
      await booking.query(
        "insert into movements (kind, article_id, to_location_id, amount) values ('umlagerung', $1, $2, 5)",
        [pen, second],
      );
      const importing = run('stock', 'Lagerplatz;Artikelnummer;Menge\nA-01-01-02;100001;3\n');
      await new Promise((resolve) => setTimeout(resolve, 500));
      await booking.query('commit');
      await booking.end();
      const report = await importing;
      expect(report.summary).toEqual(['stock: 1 slots changed (0 up, 1 down, each journalled), 0 unchanged']);
      expect(await stockOf(db(), second, pen)).toBe(3);
      const journal = await db()
        .selectFrom('movements')
        .select(['kind', 'amount'])
        .where('article_id', '=', pen)
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      expect(journal).toEqual({ kind: 'import', amount: was + 5 - 3 });
      expect(await stockInvariantViolations(db())).toBe(0);
    },
  );

  it('keeps the lines of a delivery note to the file, without losing what is packed', async () => {
    const note = await db()
      .selectFrom('delivery_notes')
      .select(['id', 'status'])
      .where('belegnr', '=', 'LS100001')
      .executeTakeFirstOrThrow();
    await db().updateTable('delivery_notes').set({ status: 'offen' }).where('id', '=', note.id).execute();
    await db()
      .updateTable('delivery_note_lines')
      .set({ pemenge: 2 })
      .where('delivery_note_id', '=', note.id)
      .where('article_id', '=', await articleId(db(), '100001'))
      .execute();
    const header = 'Belegnr;EU;Versandart;Artikelnummer;Menge';
    const dropped = await run('delivery-notes', `${header}\nLS100001;ja;DHL037;100003;5\n`);
    expect(refusals(dropped)).toEqual([
      'line 2: Artikelnummer: the line of article 100001 is missing, but 2 of it are already packed',
    ]);
    const less = await run(
      'delivery-notes',
      `${header}\nLS100001;ja;DHL037;100001;1\nLS100001;ja;DHL037;100003;8\n`,
    );
    expect(refusals(less)).toEqual([
      'line 2: Menge: 1 is less than the 2 already packed',
      'line 3: Belegnr: line 2 of the same delivery note is refused',
    ]);
    const changed = await run(
      'delivery-notes',
      `${header}\nLS100001;ja;DHL037;100001;3\nLS100001;ja;DHL037;100004;1\nLS310099;nein;DHL042;100001;1\nLS310099;nein;DHL042;999999;1\n`,
      { skipBad: true },
    );
    expect(refusals(changed)).toEqual([
      'line 4: Belegnr: line 5 of the same delivery note is refused',
      'line 5: Artikelnummer: no article with the Artikelnummer "999999"',
    ]);
    expect(changed.summary).toEqual([
      'delivery notes: 0 new, 0 changed, 1 unchanged',
      'delivery note lines: 1 new, 1 changed, 1 removed',
    ]);
    const lines = await db()
      .selectFrom('delivery_note_lines as l')
      .innerJoin('articles as a', 'a.id', 'l.article_id')
      .select(['a.nummer', 'l.lsmenge', 'l.pemenge'])
      .where('l.delivery_note_id', '=', note.id)
      .orderBy('a.nummer')
      .execute();
    expect(lines).toEqual([
      { nummer: '100001', lsmenge: 3, pemenge: 2 },
      { nummer: '100004', lsmenge: 1, pemenge: 0 },
    ]);
    expect(
      await db().selectFrom('delivery_notes').select('id').where('belegnr', '=', 'LS310099').execute(),
    ).toEqual([]);
  });

  it('refuses rows the app could not use, in every kind, naming the line and the column', async () => {
    const before = await snapshot();
    const users = await run(
      'users',
      [
        'Name;Benutzername;Passwort;Karte',
        'Eva;eva;kurz;',
        'Fritz;;geheim-genug;',
        `Gustav;gustav;;${'DEMOKARTE'.repeat(25)}`,
        'Hanna;hanna;;',
      ].join('\n'),
    );
    expect(refusals(users)).toEqual([
      'line 2: Passwort: is shorter than 8 characters',
      'line 3: Passwort: needs a Benutzername to log in with',
      'line 3: Benutzername: is empty and so is Karte (a user needs one of them)',
      'line 4: Karte: belongs to another user ("Karten Nutzer")',
      'line 5: Passwort: is empty and so is Karte (a new active user needs a way to log in)',
    ]);
    const locations = await run(
      'locations',
      'Lagerplatz;LHM;Artikelnummer;Mindestbestand\nX-1;nein;100001;5\nX-1;ja;100003;5\nX-2;nein;;5\nX-3;nein;999999;5\n',
    );
    expect(refusals(locations)).toEqual([
      'line 3: LHM: differs from line 2 of the same Lagerplatz',
      'line 4: Artikelnummer: is empty (whose minimum is this?)',
      'line 5: Artikelnummer: no article with the Artikelnummer "999999"',
    ]);
    const source = fs.mkdtempSync(path.join(os.tmpdir(), 'lagerscanner-import-source-'));
    fs.writeFileSync(path.join(source, 'karton.png'), 'not a jpeg');
    const projects = await run(
      'projects',
      'Projekt;Kartonage;Höhe;Breite;Tiefe;Bild\nP;Karton A;10;20;30;fehlt.jpg\nP;Karton B;10;20;30;karton.png\nP;Karton C;10;20,5;30;\nP;Karton D;10;20;30;../etc/passwd\n',
      { imagesSource: source },
    );
    fs.rmSync(source, { recursive: true, force: true });
    expect(refusals(projects)).toEqual([
      `line 2: Bild: no file ${path.join(source, 'fehlt.jpg')}`,
      'line 3: Bild: karton.png is not a JPEG picture (the packing station shows .jpg)',
      'line 4: Breite: "20,5" is not a whole number',
      'line 5: Bild: "../etc/passwd" must be a file name in the --images folder, without a path',
    ]);
    const notes = await run(
      'delivery-notes',
      'Belegnr;EU;Batch;Projekt;Artikelnummer;Menge\nLS9;;123456;Onlineshop;100001;1\nLS8;ja;999999;Onlineshop;100001;1\nLS7;ja;123456;Kein Projekt;100001;1\n',
    );
    expect(refusals(notes)).toEqual([
      'line 2: EU: is empty (a new delivery note needs ja or nein)',
      'line 3: Batch: no batch "999999" (import batches first)',
      'line 4: Projekt: no project "Kein Projekt" (import projects first)',
    ]);
    const shipments = await run(
      'shipments',
      'Trackingnummer;Versanddienstleister;Belegnr\nH1234;Hermes;LS100001\nT1;dhl;LS999\n',
    );
    expect(refusals(shipments)).toEqual([
      'line 2: Versanddienstleister: "Hermes" is none of dhl, gls, dpd, ups (or empty)',
      'line 3: Belegnr: no delivery note with the Belegnr "LS999"',
    ]);
    // A language the handheld does not have: the file's good rows are not imported either.
    const languages = await run(
      'users',
      'Name;Benutzername;Passwort;Sprache\nRolf Rot;rrot;Lager-2027!;en\nFranz Frei;ffrei;Lager-2027!;fr\nOlga Ost;oost;Lager-2027!;Polski\n',
    );
    expect(refusals(languages)).toEqual([
      'line 3: Sprache: "fr" is none of the languages de, en, pl, ro, uk, tr (or empty)',
      'line 4: Sprache: "Polski" is none of the languages de, en, pl, ro, uk, tr (or empty)',
    ]);
    expect(await snapshot()).toBe(before);
  });

  it('renames a user without touching the password, and removes a minimum set to 0', async () => {
    await run('users', 'Name;Benutzername;Passwort\nIda Import;ida;erstes-Passwort\n');
    const renamed = await run('users', 'Benutzername;Name\nIDA;Ida Neumann\n');
    expect(renamed.summary).toEqual(['users: 0 new, 1 changed, 0 unchanged']);
    const login = await anonymous()(auth.loginPassword, {
      body: { username: 'ida', password: 'erstes-Passwort' },
    });
    expect(login.json<{ name: string }>().name).toBe('Ida Neumann');

    const set = await run('locations', 'Lagerplatz;Artikelnummer;Mindestbestand\nB-01-03-01;100003;25\n');
    expect(set.summary).toEqual([
      'locations: 0 new, 0 changed, 1 unchanged',
      'replenishment minimums: 1 set or changed, 0 removed, 0 unchanged',
    ]);
    const removed = await run('locations', 'Lagerplatz;Artikelnummer;Mindestbestand\nB-01-03-01;100003;0\n');
    expect(removed.summary[1]).toBe('replenishment minimums: 0 set or changed, 1 removed, 0 unchanged');
    const left = await db()
      .selectFrom('replenishment_minimums')
      .select('minimum')
      .where('location_id', '=', await locationId(db(), 'B-01-03-01'))
      .where('article_id', '=', await articleId(db(), '100003'))
      .execute();
    expect(left).toEqual([]);
  });

  it('sets each user’s language from the Sprache column: empty keeps it, a new user reads German', async () => {
    const languageOf = async (username: string) =>
      (await db().selectFrom('users').select('language').where('username', '=', username).executeTakeFirst())
        ?.language;
    const first = await run(
      'users',
      'Name;Benutzername;Passwort;Sprache\nPola Nowak;pnowak;Lager-2027!;pl\nDeniz Kaya;dkaya;Lager-2027!;TR\nNina Neu;nneu;Lager-2027!;\n',
    );
    expect(refusals(first)).toEqual([]);
    expect([await languageOf('pnowak'), await languageOf('dkaya'), await languageOf('nneu')]).toEqual([
      'pl',
      'tr',
      'de',
    ]);
    // The login tells the handheld.
    const login = await anonymous()(auth.loginPassword, {
      body: { username: 'pnowak', password: 'Lager-2027!' },
    });
    expect(login.json()).toMatchObject({ language: 'pl' });
    // An empty Sprache, or none at all, keeps what is stored; another one changes it.
    const kept = await run('users', 'Benutzername;Name;Sprache\npnowak;Pola Nowak;\ndkaya;Deniz Kaya;uk\n');
    expect(kept.summary).toEqual(['users: 0 new, 1 changed, 1 unchanged']);
    await run('users', 'Benutzername;Name\npnowak;Pola Nowak\n');
    expect([await languageOf('pnowak'), await languageOf('dkaya')]).toEqual(['pl', 'uk']);
  });

  it('imports a 100,000-row article file', async () => {
    const lines = ['Artikelnummer;Bezeichnung;Kurzbezeichnung;EAN;Herstellernummer;Chargenpflicht'];
    for (let n = 1; n <= 100_000; n++) {
      lines.push(`${7_000_000 + n};"Artikel ${n}; Stück";Art ${n};;HN-${n};${n % 10 === 0 ? 'ja' : 'nein'}`);
    }
    const before = await count('articles');
    const report = await run('articles', `\ufeff${lines.join('\r\n')}\r\n`);
    expect(refusals(report)).toEqual([]);
    expect(report.summary).toEqual(['articles: 100000 new, 0 changed, 0 unchanged']);
    expect(await count('articles')).toBe((before ?? 0) + 100_000);
    console.log(
      `100,000 articles on ${kind}: ${report.seconds.toFixed(1)} s, ${Math.round(100_000 / report.seconds)} rows/s`,
    );
  }, 180_000);
});
