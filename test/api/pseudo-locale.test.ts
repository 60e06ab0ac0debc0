import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Endpoint } from '../../src/contract/endpoint.ts';
import { PSEUDO_LANGUAGE } from '../../src/contract/i18n/languages.ts';
import { PSEUDO_CLOSE, PSEUDO_OPEN } from '../../src/contract/i18n/pseudo.ts';
import { bookInventur, inventurHistory } from '../../src/contract/inventur.ts';
import { pickClaim, pickTake } from '../../src/contract/kommissionierung.ts';
import { articleInfo, locationContent, moveArticle, moveLocation } from '../../src/contract/umbuchung.ts';
import { receiptByNumber } from '../../src/contract/wareneingang.ts';
import { bookWmsRetoure } from '../../src/contract/wmsretoure.ts';
import { demo } from '../../src/server/seed/demo-records.ts';
import { loginAs, startTestApp, type TestApp } from '../support/app.ts';
import { databaseKinds } from '../support/db.ts';
import { caller } from '../support/endpoint-call.ts';

/**
 * The server's messages in the pseudo-language (issue 43, decision 35): with `X-Language: qps` every refusal
 * and error a handheld meets is read from the catalogues — accented, between markers. A message with plain
 * German outside the markers bypasses them: a worker reading Polish would get German there.
 */

/** A request the contract's caller cannot make: a route that is not there, a body that is no JSON. */
interface RawRequest {
  method: 'GET' | 'POST';
  url: string;
  payload?: string;
  headers?: Record<string, string>;
}

/** What is left of a message outside its pseudo texts and the scanned values: nothing but signs and digits. */
function bareWords(message: string, scanned: readonly string[]): string[] {
  let rest = message;
  for (const value of scanned) rest = rest.split(value).join(' ');
  const marked = new RegExp(`${PSEUDO_OPEN}[^${PSEUDO_OPEN}${PSEUDO_CLOSE}]*${PSEUDO_CLOSE}`, 'gu');
  for (let before = ''; before !== rest; ) {
    before = rest;
    rest = rest.replace(marked, ' ');
  }
  return rest.match(/\p{L}+/gu) ?? [];
}

describe.each(databaseKinds())('the server’s messages in the pseudo-language on %s', (kind) => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp(kind);
    // A Polish worker: the pseudo-language asked for wins over the login's language.
    await t.database.db
      .updateTable('users')
      .set({ language: 'pl' })
      .where('username', '=', demo.passwordUser.username)
      .execute();
    token = await loginAs(t.app, demo.passwordUser);
  });
  afterAll(() => t.close());

  const inPseudo = { 'x-language': PSEUDO_LANGUAGE };
  /** A call as the logged-in worker (`null`: nobody logged in), asking for the pseudo-language. */
  const call = (endpoint: Endpoint, input: Record<string, unknown> = {}, login: string | null = token) =>
    caller(t.app, login)(endpoint, { ...input, headers: inPseudo });

  it('tells the bare-word check apart: marked text and scanned values pass, German outside fails', () => {
    expect(bareWords('⟦Ļáǵéŕpļáţž "A-01" ñíçĥţ ǵéfúñdéñ!···⟧', ['A-01'])).toEqual([]);
    expect(bareWords('⟦⟦Ļáǵéŕpļáţž⟧ íšţ žú ļáñǵ.⟧', [])).toEqual([]);
    expect(bareWords('Fehler: ⟦Ļáǵéŕpļáţž⟧', [])).toEqual(['Fehler']);
    expect(bareWords('Lagerplatz "XYZ" nicht gefunden!', ['XYZ'])).toEqual([
      'Lagerplatz',
      'nicht',
      'gefunden',
    ]);
  });

  it('answers every refusal and error a handheld meets from the catalogues, a logged-in worker’s too', async () => {
    const location = await t.database.db
      .selectFrom('locations')
      .select('id')
      .where('code', '=', demo.locations.main)
      .executeTakeFirstOrThrow();
    const cases: [string, () => ReturnType<ReturnType<typeof caller>>, number, string[]][] = [
      // Lookups by id (a scan's lookup by code answers `found: false`, its words are the handheld's)
      ['a location unknown', () => call(locationContent, { params: { lpId: '2000000000' } }), 404, []],
      ['an article unknown', () => call(articleInfo, { params: { articleId: '2000000000' } }), 404, []],
      [
        'a WMS-Retoure onto an unknown LHM',
        () =>
          call(bookWmsRetoure, {
            body: { article: 1, lagerplatz: 2_000_000_000, amount: 1, charge: null, mhd: null },
          }),
        404,
        [],
      ],
      [
        'a receipt unknown',
        () => call(receiptByNumber, { params: { wareneingang: 'WE999999' } }),
        404,
        ['WE999999'],
      ],
      // Bookings onto what is not there
      [
        'Umbuchung to nowhere',
        () => call(moveLocation, { body: { from: location.id, to: 2_000_000_000 } }),
        404,
        [],
      ],
      [
        'Inventur of no article',
        () => call(bookInventur, { body: { lp: location.id, article: 2_000_000_000, amount: 1 } }),
        404,
        [],
      ],
      // Validation of the main booking routes
      ['Inventur without its fields', () => call(bookInventur, { body: {} }), 400, []],
      [
        'Inventur below zero',
        () => call(bookInventur, { body: { lp: location.id, article: 1, amount: -1 } }),
        400,
        [],
      ],
      [
        'Artikel umlagern with no amount',
        () => call(moveArticle, { body: { from: location.id, article: 1, to: location.id, amount: 0 } }),
        400,
        [],
      ],
      [
        'WMS-Retoure of a text amount',
        () =>
          call(bookWmsRetoure, {
            body: { article: 1, lagerplatz: location.id, amount: 'viel', charge: null, mhd: null },
          }),
        400,
        [],
      ],
      ['Umbuchung of text ids', () => call(moveLocation, { body: { from: 'A', to: 'B' } }), 400, []],
      // Kommissionierung: a note that is not there, a take of nothing
      [
        'Kommissionierung of an unknown note',
        () => call(pickClaim, { body: { belegnr: 'LS999999' } }),
        404,
        ['LS999999'],
      ],
      [
        'a take from a note not claimed',
        () =>
          call(pickTake, { body: { id: 2_000_000_000, positionId: 1, lagerplatzId: location.id, menge: 1 } }),
        404,
        [],
      ],
      // Nobody logged in, a route that is not there
      ['no login', () => call(inventurHistory, {}, null), 401, []],
    ];
    const findings: string[] = [];
    for (const [what, make, status, scanned] of cases) {
      const res = await make();
      const body = res.json<{ success?: boolean; message?: string }>();
      expect([what, res.statusCode, body.success]).toEqual([what, status, false]);
      const message = body.message ?? '';
      if (!message.includes(PSEUDO_OPEN) || bareWords(message, scanned).length > 0)
        findings.push(`${what}: ${message}`);
    }
    // A route that is not there; a body that is no JSON
    const raw: [string, RawRequest, number][] = [
      ['unknown route', { method: 'GET', url: '/api/gibt-es-nicht' }, 404],
      [
        'broken JSON',
        {
          method: 'POST',
          url: bookInventur.path,
          payload: '{"lp": 1,',
          headers: {
            authorization: `Bearer ${token}`,
            'content-type': 'application/json',
            'x-idempotency-key': crypto.randomUUID(),
          },
        },
        400,
      ],
    ];
    for (const [what, request, status] of raw) {
      const res = await t.app.inject({ ...request, headers: { ...request.headers, ...inPseudo } });
      const message = res.json<{ message: string }>().message;
      expect([what, res.statusCode]).toEqual([what, status]);
      if (!message.includes(PSEUDO_OPEN) || bareWords(message, []).length > 0)
        findings.push(`${what}: ${message}`);
    }
    expect(findings).toEqual([]);
  });

  it('keeps the stable code and the scanned value beside a pseudo message, as in every language', async () => {
    const res = await call(receiptByNumber, { params: { wareneingang: 'WE999998' } });
    expect(res.json()).toMatchObject({ code: 'wareneingang.notFound', params: ['WE999998'] });
    expect(res.json().message).toMatch(/^⟦Wáŕéñéíñǵáñǵ "WE999998" ñíçĥţ ǵéfúñdéñ!·+⟧$/u);
  });

  it('answers the same worker in their own language without the header', async () => {
    const res = await caller(t.app, token)(receiptByNumber, { params: { wareneingang: 'WE999997' } });
    expect(res.json().message).toBe('Nie znaleziono przyjęcia towaru "WE999997"!');
  });
});
