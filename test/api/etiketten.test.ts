import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as auth from '../../src/contract/auth.ts';
import type { Endpoint } from '../../src/contract/endpoint.ts';
import * as etiketten from '../../src/contract/etiketten.ts';
import * as lookup from '../../src/contract/lookup.ts';
import { texts } from '../../src/contract/texts.ts';
import * as wmsretoure from '../../src/contract/wmsretoure.ts';
import { demo } from '../../src/server/seed/demo.ts';
import { authHeaders, loginAs, startTestApp, type TestApp, userIdOf } from '../support/app.ts';
import { databaseKinds } from '../support/db.ts';
import { caller } from '../support/endpoint-call.ts';

const t = etiketten.etikettenTexts;

import { decodePdf, decodePng, renderZpl, zplLabels } from '../support/labels.ts';

/**
 * The label downloads (issue 21) as the Leitstand calls them: each kind as PDF and ZPL, every barcode read
 * back from the file and scanned into the handheld's own lookup, which must find the record; who may; and the
 * German refusals.
 */
describe.each(databaseKinds())('label downloads on %s', (kind) => {
  let t0: TestApp;
  let worker: string;
  let lead: string;
  let admin: string;

  beforeAll(async () => {
    t0 = await startTestApp(kind);
    worker = await loginAs(t0.app, demo.passwordUser);
    lead = await loginAs(t0.app, demo.leadUser);
    admin = await loginAs(t0.app, demo.adminUser);
  });
  afterAll(() => t0.close());

  const qs = (params: Record<string, string | string[]>) => {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(params))
      for (const v of Array.isArray(value) ? value : [value]) search.append(key, v);
    return search.toString();
  };
  /**
   * A label download on its contract path. The Leitstand repeats `codes` once per code (label-file.ts), which
   * the contract caller's query (one value a key) cannot, so the query string is built here.
   */
  const get = (download: Endpoint, query: string, as = lead) =>
    t0.app.inject({
      method: 'GET',
      url: `${download.path}${query ? `?${query}` : ''}`,
      headers: authHeaders(as),
    });

  /** Every code of a download, read back: PDF pages rasterised, ZPL labels drawn at their size. */
  async function scanned(
    download: Endpoint,
    query: string,
    size?: { w: number; h: number; dpi: 203 | 300 },
  ): Promise<string[]> {
    const res = await get(download, query);
    expect([res.statusCode, res.body.slice(0, 200)]).toEqual([200, expect.any(String)]);
    if (download.path.endsWith('.pdf')) {
      expect(res.headers['content-type']).toBe('application/pdf');
      return (await decodePdf(res.rawPayload)).flat().map((d) => d.text);
    }
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    const codes: string[] = [];
    for (const label of zplLabels(res.body)) {
      const png = await renderZpl(label, size?.w ?? 100, size?.h ?? 50, size?.dpi ?? 203);
      codes.push(...(await decodePng(png)).map((d) => d.text));
    }
    return codes;
  }

  /** The handheld's lookups: what a worker's scan of this code finds. */
  const asWorker = () => caller(t0.app, worker);
  const findLp = async (code: string) =>
    (await asWorker()(lookup.findLp, { params: { code } })).json<{ found?: boolean }>();
  const findLhm = async (code: string) =>
    (await asWorker()(wmsretoure.wmsStorage, { params: { lhm: code } })).json();
  const findArticle = async (code: string) =>
    (await asWorker()(lookup.findArticle, { params: { number: code } })).json<{
      found: boolean;
      nummer: string;
    }>();

  it('a location range as PDF on a 70×36 sheet: every location in code order, each scan finds its location', async () => {
    const codes = await scanned(etiketten.lagerplatzPdf, qs({ from: 'A-01-01-01', to: 'A-01-03-04' }));
    const expected = [1, 2, 3].flatMap((level) => [1, 2, 3, 4].map((place) => `A-01-0${level}-0${place}`));
    expect(codes).toEqual(expected);
    for (const code of codes) expect(await findLp(code)).toMatchObject({ found: true });
  });

  it('locations by code as ZPL at 300 dpi on 57×32, with an arrow', async () => {
    const query = qs({ codes: ['B-02-01-01', 'A-01-01-02'], groesse: '57x32', dpi: '300', pfeil: 'runter' });
    expect(await scanned(etiketten.lagerplatzZpl, query, { w: 57, h: 32, dpi: 300 })).toEqual([
      'B-02-01-01',
      'A-01-01-02',
    ]);
    const res = await get(etiketten.lagerplatzZpl, query);
    expect(res.headers['x-labels']).toBe('2');
    expect(res.body).toContain('^GD'); // the arrow's head
  });

  it('LHM labels as PDF and ZPL; the scan finds the load carrier', async () => {
    const codes = [demo.locations.lhm, demo.locations.palletSscc];
    for (const format of ['pdf', 'zpl'] as const)
      expect(await scanned(etiketten.labelDownloads.lhm[format], qs({ codes, groesse: '100x50' }))).toEqual(
        codes,
      );
    for (const code of codes) expect(await findLhm(code)).toMatchObject({ found: true });
  });

  it('article labels: the EAN-13 where it finds the article, else the number; each scan finds its article', async () => {
    const numbers = [demo.article.nummer, demo.flaggedArticle.nummer, demo.article3.nummer];
    for (const format of ['pdf', 'zpl'] as const) {
      const codes = await scanned(
        etiketten.labelDownloads.artikel[format],
        qs({ codes: numbers, groesse: '100x50' }),
      );
      expect(codes[0]).toBe(demo.article.ean);
      expect(codes[2]).toBe(demo.article3.ean);
      const found = await Promise.all(codes.map(findArticle));
      expect(found.map((f) => [f.found, f.nummer])).toEqual(numbers.map((n) => [true, n]));
    }
  });

  it('an article whose EAN finds another article gets its number instead', async () => {
    // Article 100003's EAN given to a second article too: scanning it would find two.
    const row = await t0.database.db
      .selectFrom('articles')
      .select(['nummer'])
      .where('nummer', 'not in', [demo.article.nummer, demo.article3.nummer])
      .where('nummer', 'like', '1%')
      .orderBy('nummer')
      .limit(1)
      .executeTakeFirstOrThrow();
    const before = await t0.database.db
      .selectFrom('articles')
      .select('ean')
      .where('nummer', '=', row.nummer)
      .executeTakeFirstOrThrow();
    await t0.database.db
      .updateTable('articles')
      .set({ ean: demo.article3.ean })
      .where('nummer', '=', row.nummer)
      .execute();
    try {
      expect(await scanned(etiketten.artikelPdf, qs({ codes: [demo.article3.nummer, row.nummer] }))).toEqual([
        demo.article3.nummer,
        row.nummer,
      ]);
    } finally {
      await t0.database.db
        .updateTable('articles')
        .set({ ean: before.ean })
        .where('nummer', '=', row.nummer)
        .execute();
    }
  });

  it('cart labels as PDF and ZPL carry the cart number the Zollpaket screen scans', async () => {
    const codes = ['ZW01', 'ZW02', 'ZW03', 'ZW04', 'ZW05'];
    for (const format of ['pdf', 'zpl'] as const)
      expect(
        await scanned(etiketten.labelDownloads.zollwagen[format], qs({ codes, groesse: '57x32' }), {
          w: 57,
          h: 32,
          dpi: 203,
        }),
      ).toEqual(codes);
    // Without codes: every cart, by number.
    expect(await scanned(etiketten.zollwagenPdf, 'groesse=a4-105x48')).toEqual(codes);
  });

  it('pick cart and compartment labels (issue 41) carry the codes KW01 and KW01-1 … KW01-6', async () => {
    const compartments = [1, 2, 3, 4, 5, 6].map((n) => `KW01-${n}`);
    for (const format of ['pdf', 'zpl'] as const) {
      const size = { w: 57, h: 32, dpi: 203 } as const;
      expect(
        await scanned(
          etiketten.labelDownloads.kommissionierwagen[format],
          qs({ codes: 'KW01', groesse: '57x32' }),
          size,
        ),
      ).toEqual(['KW01']);
      expect(
        await scanned(
          etiketten.labelDownloads.fach[format],
          qs({ codes: compartments, groesse: '57x32' }),
          size,
        ),
      ).toEqual(compartments);
    }
    // Without codes: every pick cart, every compartment (by cart, then number).
    expect(await scanned(etiketten.kommissionierwagenPdf, 'groesse=a4-105x48')).toEqual(['KW01']);
    expect(await scanned(etiketten.fachPdf, 'groesse=a4-70x36')).toEqual(compartments);
  });

  it('badges, for admins only: the card text in a QR code that logs its owner in', async () => {
    const body = { karten: [demo.cardUser.card], format: 'pdf', groesse: '100x50' };
    const post = (as: string, body: Record<string, unknown>) =>
      caller(t0.app, as)(etiketten.ausweisDatei, { body });
    expect((await post(lead, body)).json()).toMatchObject({
      success: false,
      message: texts.errors.role.admin,
    });
    const pdf = await post(admin, body);
    expect(pdf.statusCode).toBe(200);
    const [first, ...rest] = await decodePdf(pdf.rawPayload);
    expect(rest).toEqual([]);
    const code = first?.[0];
    expect(code).toEqual({ format: 'QRCode', text: demo.cardUser.card });
    const login = await caller(t0.app, null)(auth.loginCard, { body: { stechuhrdevice: code?.text } });
    expect(login.json()).toMatchObject({ success: true, name: demo.cardUser.name });

    const zpl = await post(admin, { ...body, format: 'zpl', dpi: 300 });
    const [label] = zplLabels(zpl.body);
    expect(await decodePng(await renderZpl(label ?? '', 100, 50, 300))).toEqual([
      { format: 'QRCode', text: demo.cardUser.card },
    ]);

    // An unknown card is counted, never repeated (a card text is a secret).
    const unknown = await post(admin, { ...body, karten: ['KEINE-KARTE', demo.cardUser.card, 'AUCH-KEINE'] });
    expect([unknown.statusCode, unknown.json()]).toMatchObject([
      404,
      { success: false, message: t.unknownCards(2) },
    ]);

    // Each render in the Protokoll, rendered or refused, never a card text; the lead's try as a refused access.
    const adminId = await userIdOf(t0.database.db, demo.adminUser.username);
    const leadId = await userIdOf(t0.database.db, demo.leadUser.username);
    const rows = await t0.database.db
      .selectFrom('audit_log')
      .select(['user_id', 'action', 'subject', 'detail'])
      .where('action', 'in', ['print.badge', 'access.denied'])
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      {
        user_id: leadId,
        action: 'access.denied',
        subject: 'POST /api/admin/etiketten/ausweis',
        detail: { outcome: 'refused', role: 'schichtleitung' },
      },
      {
        user_id: adminId,
        action: 'print.badge',
        subject: 'PDF',
        detail: { format: 'pdf', labels: 1, outcome: 'done' },
      },
      {
        user_id: adminId,
        action: 'print.badge',
        subject: 'ZPL',
        detail: { format: 'zpl', labels: 1, outcome: 'done' },
      },
      {
        user_id: adminId,
        action: 'print.badge',
        subject: 'PDF',
        detail: { format: 'pdf', outcome: 'refused', reason: t.unknownCards(2) },
      },
    ]);
    expect(JSON.stringify(rows)).not.toContain(demo.cardUser.card);
  });

  it('refuses a worker (handheld role) every download, and a shift lead nothing of the four kinds', async () => {
    for (const download of [
      etiketten.lagerplatzPdf,
      etiketten.lhmZpl,
      etiketten.artikelPdf,
      etiketten.zollwagenZpl,
    ]) {
      const res = await caller(t0.app, worker)(download, { query: { codes: 'X' } });
      expect([download.path, res.statusCode, res.json()]).toMatchObject([
        download.path,
        403,
        { success: false, message: texts.errors.role.schichtleitung },
      ]);
    }
  });

  it.each([
    ['no codes and no range', etiketten.lagerplatzPdf, '', 400, t.codesOrRange],
    [
      'codes and a range',
      etiketten.lagerplatzPdf,
      'codes=A-01-01-01&from=A-01-01-01&to=A-01-01-02',
      400,
      t.codesAndRange,
    ],
    ['half a range', etiketten.lagerplatzPdf, 'from=A-01-01-01', 400, t.rangeIncomplete],
    ['a range of articles', etiketten.artikelPdf, 'from=100001&to=100003', 400, t.rangeOnlyLocations],
    [
      'a reversed range',
      etiketten.lagerplatzPdf,
      'from=A-01-03-04&to=A-01-01-01',
      400,
      t.rangeOrder('A-01-03-04', 'A-01-01-01'),
    ],
    [
      'a range ending at an unknown location',
      etiketten.lagerplatzPdf,
      'from=A-01-01-01&to=Z-99',
      404,
      t.unknown('lagerplatz', ['Z-99']),
    ],
    [
      'unknown locations',
      etiketten.lagerplatzZpl,
      'codes=A-01-01-01&codes=X-1&codes=X-2',
      404,
      t.unknown('lagerplatz', ['X-1', 'X-2']),
    ],
    ['an unknown article', etiketten.artikelPdf, 'codes=999999', 404, t.unknown('artikel', ['999999'])],
    ['an unknown cart', etiketten.zollwagenZpl, 'codes=ZW99', 404, t.unknown('zollwagen', ['ZW99'])],
    [
      'an unknown pick cart',
      etiketten.kommissionierwagenPdf,
      'codes=KW99',
      404,
      t.unknown('kommissionierwagen', ['KW99']),
    ],
    [
      'unknown compartments',
      etiketten.fachZpl,
      'codes=KW01-1&codes=KW01-7&codes=KW01',
      404,
      t.unknown('fach', ['KW01-7', 'KW01']),
    ],
    ['an LHM as a location', etiketten.lagerplatzPdf, 'codes=LHM000001', 400, t.isLhm('LHM000001')],
    ['a location as an LHM', etiketten.lhmPdf, 'codes=A-01-01-01', 400, t.notLhm('A-01-01-01')],
    ['a code twice', etiketten.zollwagenPdf, 'codes=ZW01&codes=ZW01', 400, t.duplicate('ZW01')],
    [
      'ZPL on an A4 sheet size',
      etiketten.lagerplatzZpl,
      'codes=A-01-01-01&groesse=a4-70x36',
      400,
      t.zplNeedsRoll,
    ],
    ['a dpi for a PDF', etiketten.lagerplatzPdf, 'codes=A-01-01-01&dpi=300', 400, t.dpiOnlyZpl],
    ['an arrow on a cart', etiketten.zollwagenPdf, 'codes=ZW01&pfeil=hoch', 400, t.arrowOnlyLocations],
    [
      'an unknown size',
      etiketten.lagerplatzPdf,
      'codes=A-01-01-01&groesse=99x99',
      400,
      texts.errors.input.invalid('Etikettengröße'),
    ],
    [
      'a resolution the printers do not have',
      etiketten.lagerplatzZpl,
      'codes=A-01-01-01&dpi=600',
      400,
      texts.errors.input.invalid('Auflösung (dpi)'),
    ],
    [
      'too many codes',
      etiketten.lagerplatzPdf,
      Array.from({ length: 501 }, (_, i) => `codes=X${i}`).join('&'),
      400,
      texts.errors.input.tooMany('Codes', 500),
    ],
  ])('refuses %s in German', async (_, download, query, status, message) => {
    const res = await get(download, query);
    expect([res.statusCode, res.json()]).toMatchObject([status, { success: false, message }]);
  });

  it('refuses a location code too long to scan on the chosen size, naming it', async () => {
    const code = 'REGAL-ZWEI-FACH-DREI';
    await t0.database.db.insertInto('locations').values({ code, name: code, lagertyp: 'Fach' }).execute();
    const small = await caller(t0.app, lead)(etiketten.lagerplatzZpl, {
      query: { codes: code, groesse: '57x32' },
    });
    expect([small.statusCode, small.json()]).toMatchObject([
      400,
      { success: false, message: t.tooLong(code, '57x32') },
    ]);
    expect(await scanned(etiketten.lagerplatzZpl, qs({ codes: code, groesse: '100x50' }))).toEqual([code]);
  });
});
