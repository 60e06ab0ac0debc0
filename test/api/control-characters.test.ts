import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type Endpoint, textFields } from '../../src/contract/endpoint.ts';
import { exportMovements, FEEDS } from '../../src/contract/export.ts';
import {
  contract,
  etikettenContract,
  exportContract,
  extraContract,
  leitstandContract,
} from '../../src/contract/index.ts';
import { fieldLabel } from '../../src/contract/input-errors.ts';
import * as paketinhalt from '../../src/contract/paketinhalt.ts';
import type { Role } from '../../src/contract/roles.ts';
import { type FieldLabel, texts } from '../../src/contract/texts.ts';
import { createIntegrationToken } from '../../src/server/auth/integration-tokens.ts';
import { encodeCursor } from '../../src/server/features/export/feeds.ts';
import { demo } from '../../src/server/seed/demo.ts';
import { loginAs, startTestApp, type TestApp, userIdOf } from '../support/app.ts';
import { databaseKinds } from '../support/db.ts';
import { caller } from '../support/endpoint-call.ts';
import { countWrites } from '../support/write-counts.ts';

/**
 * Every route of the contract — the handheld's, the export API's and the Leitstand's with its admin calls —
 * every string field of its path, body and query: NUL and every other control character (C0 and DEL) in the
 * middle of an otherwise valid request, sent with a login of the role the call needs. Never a 500 (PostgreSQL
 * refuses NUL in text: 'invalid byte sequence for encoding "UTF8"'), a 400 that names the field as the page
 * does, and nothing written. What each field lets through is declared once, with the field (`textFields`).
 */
const CONTROL_CHARACTERS = [...Array.from({ length: 32 }, (_, i) => String.fromCharCode(i)), '\u007f'];
const GS = '\u001d';
const NUL = '\u0000';

type Part = 'params' | 'body' | 'query';
type Field = { part: Part; path: (string | number)[]; schema: z.ZodType };

/** The string fields of a schema (through objects, arrays, pipes and wrappers), with their paths. */
function stringFields(schema: z.ZodType, part: Part, path: (string | number)[] = []): Field[] {
  if (textFields.has(schema)) return [{ part, path, schema }];
  if (schema instanceof z.ZodObject)
    return Object.entries(schema.shape as Record<string, z.ZodType>).flatMap(([key, value]) =>
      stringFields(value, part, [...path, key]),
    );
  if (schema instanceof z.ZodPipe) return stringFields(schema.in as z.ZodType, part, path);
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable || schema instanceof z.ZodDefault)
    return stringFields(schema.unwrap() as z.ZodType, part, path);
  if (schema instanceof z.ZodArray) return stringFields(schema.element as z.ZodType, part, [...path, 0]);
  // One field of several formats (a date or a time): walked as one; the last test fails if it takes any text.
  if (schema instanceof z.ZodUnion) {
    const options = schema.options as z.ZodType[];
    const oneString = (o: z.ZodType) =>
      stringFields(o, part, path).some((f) => f.path.length === path.length);
    return options.every(oneString) ? [{ part, path, schema }] : [];
  }
  // z.string() and the formats (z.iso.date(), z.iso.datetime()) alike.
  if (schema._zod.def.type === 'string' || schema instanceof z.ZodEnum) return [{ part, path, schema }];
  return [];
}

/** A valid request of every call; each test changes one string field of it. */
type Request = {
  params?: Record<string, string>;
  body?: Record<string, unknown>;
  query?: Record<string, string>;
};
const EPOCH = '2000-01-01T00:00:00Z';
const note = { id: 1, belegnr: demo.deliveryNotes.eu, user_id: 1 };
const VALID: Record<string, Request> = {
  findArticle: { params: { number: demo.article.nummer } },
  findLp: { params: { code: demo.locations.main } },
  checkLpArticle: { params: { lpId: '1', articleId: '1' } },
  articleInfo: { params: { articleId: '1' } },
  locationContent: { params: { lpId: '1' } },
  moveArticle: { body: { from: 1, article: 1, to: 2, amount: 1 } },
  moveLocation: { body: { from: 1, to: 2 } },
  bookInventur: { body: { lp: 1, article: 1, amount: 1 } },
  inventurHistory: {},
  captureBatch: { body: { batch: demo.batch } },
  batchByDeliveryNote: { params: { belegnr: demo.deliveryNotes.eu } },
  assignBatch: { body: { lieferschein: demo.batch, qrcode: demo.cardUser.card } },
  captureContainer: { body: { container: 'WB-7', batch: demo.batch } },
  captureTransporter: { body: { kennzeichen: 'B-LS 100', container: 'WB-7', plombe: 'P-1', value: 50 } },
  packageContent: { params: { belegnr: demo.deliveryNotes.eu } },
  packageContentCheat: { body: { id: 1, code: 'GEHEIM-CODE' } },
  scanPackageItem: {
    params: { itemNr: demo.article.nummer },
    body: { ...note, itemNr: demo.article.nummer, eu: 1, paketinhalt: [], versandart: 'DHL037' },
  },
  klaerfall: { body: { id: 1 } },
  packageRecording: { params: { belegnr: demo.deliveryNotes.eu } },
  savePackageRecording: { params: { id: '1' }, body: { ...note, kartonagen: [{ packageid: 1, amount: 1 }] } },
  paketausgang: { body: { tracking: demo.tracking } },
  paketausgangCompare: { body: { tracking: demo.tracking, belegnr: demo.deliveryNotes.eu } },
  retourenerfassung: { body: { tracking: demo.tracking } },
  wmsItem: { params: { article: demo.article.nummer } },
  wmsStorage: { params: { lhm: demo.locations.lhm } },
  bookWmsRetoure: {
    body: { article: 1, lagerplatz: 1, amount: 1, charge: 'CH-1', mhd: '2027-12-31', quality: 2 },
  },
  loginCard: { body: { stechuhrdevice: demo.cardUser.card } },
  loginPassword: { body: { username: demo.passwordUser.username, password: demo.passwordUser.password } },
  logout: {},
  checkWagen: {},
  findWagen: { params: { wagennummer: 'ZW01' } },
  zollPaket: { body: { lieferschein: demo.deliveryNotes.nonEu, wagennummer: 'ZW01', close: false } },
  zollHistory: {},
  replenishmentList: {},
  receiptByNumber: { params: { wareneingang: 'WE100001' } },
  suggestLocation: { params: { position: '1' }, query: { charge: 'CH-1' } },
  bookReceipt: {
    body: {
      wareneingang: 'WE100001',
      position: 1,
      lagerplatz: demo.locations.main,
      amount: 1,
      charge: 'CH-1',
      mhd: '2027-12-31',
      mehrmenge: true,
    },
  },
  closeReceipt: { body: { wareneingang: 'WE-UNBEKANNT' } },
  pushReceipt: {
    params: { number: 'WE900001' },
    body: { supplier: 'Lieferant', lines: [{ article: demo.article.nummer, expected: 5, charge: 'CH-1' }] },
  },
  pickClaim: { body: { belegnr: demo.deliveryNotes.pickable } },
  pickNext: { body: {} },
  pickTake: { body: { id: 1, positionId: 1, lagerplatzId: 1, menge: 1 } },
  pickShortage: { body: { id: 1, positionId: 1, menge: 1 } },
  pickRelease: { body: { id: 1 } },
  cartList: {},
  cartStart: { body: { code: demo.pickCart.code } },
  cartPutAway: {
    body: { fahrtId: 1, positionId: 1, lagerplatzId: 1, fach: `${demo.pickCart.code}-1`, menge: 1 },
  },
  cartShortage: { body: { fahrtId: 1, positionId: 1, menge: 1 } },
  cartDefer: { body: { fahrtId: 1, lagerplatzId: 1 } },
  cartUndo: { body: { fahrtId: 1, bewegungId: 1 } },
  cartFinish: { body: { fahrtId: 1 } },
  cartRelease: { body: { fahrtId: 1 } },
  // Permanente Inventur (issue 42): a count task by id (none is claimed: the calls answer 404 or 409).
  zaehlauftragNaechster: { body: {} },
  zaehlauftragAktuell: {},
  zaehlauftragPlatz: { params: { id: '1' }, body: { lagerplatz: demo.locations.main } },
  zaehlauftragZaehlung: { params: { id: '1' }, body: { artikelId: 1, menge: 1 } },
  zaehlauftragLeer: { params: { id: '1' }, body: {} },
  zaehlauftragFertig: { params: { id: '1' }, body: {} },
  zaehlauftragAbbrechen: { params: { id: '1' }, body: {} },
  // The worker's own language (issue 43)
  setLanguage: { body: { language: 'de' } },
  ...Object.fromEntries(
    FEEDS.map((feed) => [
      `export${feed}`,
      {
        query: {
          since: EPOCH,
          cursor: encodeCursor(feed, { time: EPOCH, id: 0 }),
          limit: '5',
          format: 'csv',
          sep: ';',
        },
      },
    ]),
  ),
};
/**
 * The Leitstand's and admin calls: a real Klärfall, a real user (never the admin who sends them: a password
 * that passes its schema must not end the test's own login), a real importable file.
 */
function leitstandRequests(ids: { klaerfall: number; user: number }): Record<string, Request> {
  const klaerfallId = String(ids.klaerfall);
  const user = { id: String(ids.user) };
  const articlesCsv = `Artikelnummer;Bezeichnung\r\n900001;Schraube M4\r\n`;
  const pickProfile = {
    name: 'Einzelteile GLS',
    versandart: 'GLS',
    maxPositionen: 1,
    eu: null,
    eingangVor: '14:00',
    proWagen: 6,
  };
  const countPlan = {
    name: 'Gang Z',
    art: 'bereich',
    von: 'Z-01-01-01',
    bis: 'Z-09-99-99',
    tage: null,
    klasse: null,
    faelligInTagen: 1,
    benutzerId: null,
  };
  const journalFilter = {
    artikel: demo.article.nummer,
    lagerplatz: demo.locations.main,
    benutzer: demo.adminUser.username,
    art: 'umlagerung',
    von: '2026-01-01',
    bis: '2099-12-31T23:59:59Z',
  };
  return {
    leitstandLive: {},
    leitstandUebersicht: {},
    klaerfaelleList: { query: { tage: '7' } },
    klaerfallErledigt: {
      params: { klaerfallId },
      body: { kommentar: 'Kunde angerufen, Ware nachgeliefert' },
    },
    klaerfallZurueck: { params: { klaerfallId }, body: {} },
    zollwagenList: { query: { tage: '7' } },
    zollwagenAbschliessen: { params: { id: '1' }, body: {} },
    nachschubMinima: { query: { suche: demo.locations.main } },
    nachschubMinimumSetzen: {
      body: { lagerplatz: demo.locations.main, artikel: demo.article.nummer, minimum: 5 },
    },
    // Rollende Kommissionierung (issue 41): the demo's profile is id 1, a wave and a note by id.
    kommissionierProfile: {},
    kommissionierProfilAnlegen: { body: pickProfile },
    kommissionierProfilAendern: { params: { id: '1' }, body: pickProfile },
    kommissionierProfilEntfernen: { params: { id: '1' }, body: {} },
    welleFreigeben: { params: { id: '1' }, body: {} },
    wellen: {},
    welleLieferscheine: { params: { id: '1' } },
    welleHerausnehmen: { params: { id: '1' }, body: { lieferscheinId: 1 } },
    kommissionierwagen: {},
    fahrtBeenden: { params: { id: '1' }, body: {} },
    fachLeeren: { params: { id: '1' }, body: { lieferscheinId: 1 } },
    // Permanente Inventur (issue 42): a count plan (its range's codes typed), a task by id, the list's filters.
    zaehlplaene: {},
    zaehlplanAnlegen: { body: countPlan },
    zaehlplanAendern: { params: { id: '1' }, body: countPlan },
    zaehlplanEntfernen: { params: { id: '1' }, body: {} },
    zaehlauftraegeAnlegen: { params: { id: '1' }, body: {} },
    zaehlauftraege: {
      query: { status: 'offen', plan: '1', platz: 'A-01', faelligBis: '2026-12-31', seite: '1' },
    },
    zaehlauftragZuweisen: { params: { id: '1' }, body: { benutzerId: null } },
    zaehlauftragVerwerfen: { params: { id: '1' }, body: {} },
    differenzen: {},
    differenzBuchen: { params: { id: '1' }, body: {} },
    differenzNachzaehlen: { params: { id: '1' }, body: { benutzerId: null } },
    // A page's cursor (`before`, `cursor`) is added by the walk: none is valid before a first page.
    auditList: { query: { limit: '10' } },
    users: {},
    createUser: {
      body: {
        username: 'neu',
        name: 'Neue Kollegin',
        role: 'mitarbeiter',
        password: 'lang-genug-1',
        newCard: false,
      },
    },
    setUserRole: { params: user, body: { role: 'schichtleitung' } },
    setUserLanguage: { params: user, body: { language: 'pl' } },
    setUserPassword: { params: user, body: { password: 'lang-genug-2' } },
    setUserActive: { params: user, body: { active: true } },
    newUserCard: { params: user, body: {} },
    integrationTokens: {},
    createIntegrationToken: { body: { name: 'bi-export' } },
    revokeIntegrationToken: { body: { name: 'erp' } },
    importKinds: {},
    runImport: {
      params: { kind: 'articles' },
      body: { fileName: 'artikel.csv', content: Buffer.from(articlesCsv).toString('base64') },
    },
    bestandArtikel: { query: { q: demo.article.name } },
    bestandLagerplatz: { params: { code: demo.locations.main } },
    journal: { query: { ...journalFilter, limit: '50' } },
    journalCsv: { query: journalFilter },
    wareneingangList: {},
    abcKlassen: {},
    abcBerechnen: { body: {} },
    klasseAendern: { body: { klasse: 'B', frequenzTage: 90, toleranzStueck: 2, toleranzProzent: 2 } },
    abdeckung: { query: { jahr: '2026' } },
    inventurlisteCsv: { query: { von: '2026-01-01', bis: '2026-12-31' } },
    inventurlistePdf: { query: { von: '2026-01-01', bis: '2026-12-31' } },
    datensicherung: {},
    // Labels: a download of each kind and format, a badge, printing (to a printer nobody set up), the printer list.
    ...Object.fromEntries(
      (['lagerplatz', 'lhm', 'artikel', 'zollwagen', 'kommissionierwagen', 'fach'] as const).flatMap((kind) =>
        (['pdf', 'zpl'] as const).map((format) => [
          `etikett_${kind}_${format}`,
          {
            query: {
              codes: {
                lagerplatz: demo.locations.main,
                lhm: demo.locations.lhm,
                artikel: demo.article.nummer,
                zollwagen: 'ZW01',
                kommissionierwagen: demo.pickCart.code,
                fach: `${demo.pickCart.code}-1`,
              }[kind],
            },
          },
        ]),
      ),
    ),
    ausweisDatei: { body: { karten: ['KARTE-1'], format: 'zpl' } },
    druckerListe: {},
    drucken: { body: { printer: 'Versand', kind: 'lagerplatz', codes: [demo.locations.main] } },
    adminDrucker: {},
    druckerAnlegen: { body: { name: 'Versand', host: '127.0.0.1', port: 9, dpi: 203, groesse: '100x50' } },
    druckerAendern: {
      params: { id: '1' },
      body: { name: 'Versand', host: '127.0.0.1', port: 9, dpi: 203, groesse: '100x50' },
    },
    druckerEntfernen: { params: { id: '1' }, body: {} },
  };
}
/** Set before the first test (the ids are the database's). */
let LEITSTAND: Record<string, Request> = {};

const validOf = (e: Endpoint): Request => {
  const valid = VALID[e.name] ?? LEITSTAND[e.name] ?? VALID[e.name.toLowerCase()];
  if (!valid) throw new Error(`no valid request of ${e.name} in this test: add one`);
  return valid;
};

function withValue(request: Request, field: Field, value: string): Request {
  const copy = structuredClone(request);
  copy[field.part] ??= {};
  let node = copy[field.part] as Record<string | number, unknown>;
  for (const key of field.path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  node[field.path.at(-1) as string | number] = value;
  return copy;
}

const labelText = (label: FieldLabel) => (typeof label === 'string' ? label : label.label);

describe.each(databaseKinds())('control characters in every string field on %s', (kind) => {
  let t: TestApp;
  /** Logins by the role a call needs; the scanner calls as the admin (the cheat code needs a shift lead). */
  const logins: Partial<Record<Role, string>> = {};
  let integration: string;
  let sent = 0;

  /** Everything a refused request could have written: refused by its schema, it stores no key either. */
  const written = () => countWrites(t.database.db, { keys: 'all', logins: true });

  function loginFor(e: Endpoint): string {
    const login = logins[e.role === 'mitarbeiter' ? 'admin' : (e.role ?? 'admin')];
    if (!login) throw new Error(`no login for ${e.name}`);
    return login;
  }

  async function send(e: Endpoint, request: Request) {
    sent++;
    const token = e.audience === 'integration' ? integration : e.auth ? loginFor(e) : null;
    return caller(t.app, token)(e, request);
  }

  beforeAll(async () => {
    // Wrong passwords with odd characters are failed logins: the limits must not answer 429 meanwhile.
    t = await startTestApp(kind, { loginMaxFailuresPerIp: 100_000, loginMaxFailuresPerUser: 100_000 });
    // The admin may make every scanner call (the cheat code needs a shift lead, DESIGN §9); the Leitstand's
    // calls go with the least role they need: the shift lead's under /api/leitstand/, the admin's under /api/admin/.
    logins.admin = await loginAs(t.app, demo.adminUser);
    logins.schichtleitung = await loginAs(t.app, demo.leadUser);
    integration = await createIntegrationToken(t.database.db, 'erp');
    // A token's first use from this address opens its attempt counter (issue 39), as a login opens its own:
    // before the walk, so that a refused call is compared against a counter that is already there.
    await caller(t.app, integration)(exportMovements, {
      query: { since: '2020-01-01T00:00:00Z', limit: '1' },
    });
    // An open Klärfall, reported as a packer reports it.
    const noteId = (
      await t.database.db
        .selectFrom('delivery_notes')
        .select('id')
        .where('belegnr', '=', demo.deliveryNotes.eu)
        .executeTakeFirstOrThrow()
    ).id;
    const reported = await caller(t.app, logins.admin)(paketinhalt.klaerfall, { body: { id: noteId } });
    expect(reported.statusCode, reported.body).toBe(200);
    const klaerfall = await t.database.db
      .selectFrom('klaerfaelle')
      .select('id')
      .where('delivery_note_id', '=', noteId)
      .executeTakeFirstOrThrow();
    LEITSTAND = leitstandRequests({
      klaerfall: klaerfall.id,
      user: await userIdOf(t.database.db, demo.passwordUser.username),
    });
  });
  afterAll(async () => {
    console.log(`control characters on ${kind}: ${sent} requests`);
    await t.close();
  });

  const calls = [
    ...contract,
    ...extraContract,
    ...exportContract,
    ...leitstandContract,
    ...etikettenContract,
  ];

  it('knows a valid request of every call', () => {
    for (const e of calls) expect(() => validOf(e), e.name).not.toThrow();
  });

  for (const e of calls) {
    const fields = [
      ...stringFields(e.params, 'params'),
      ...stringFields(e.body, 'body'),
      ...(e.query ? stringFields(e.query, 'query') : []),
    ];
    if (fields.length === 0) continue;
    it(`${e.method} ${e.path}: ${fields.map((f) => f.path.join('.')).join(', ')}`, async () => {
      for (const field of fields) {
        const key = String(field.path.filter((p) => typeof p === 'string').at(-1));
        const name = `${e.name} ${field.part}.${field.path.join('.')}`;
        const rule = textFields.get(field.schema)?.controls;
        const labels = field.path
          .filter((p): p is string => typeof p === 'string')
          .map((k) => fieldLabel(e.name, k));
        // What the refused requests find written: taken again after each one the field lets through.
        let before = await written();
        for (const character of CONTROL_CHARACTERS) {
          const code = `U+${character.charCodeAt(0).toString(16).padStart(4, '0')}`;
          const res = await send(e, withValue(validOf(e), field, `A${character}B`));
          expect(res.statusCode, `${name} ${code}: ${res.body}`).toBeLessThan(500);
          const allowed = (rule === 'scan' && character === GS) || (rule === 'secret' && character !== NUL);
          if (allowed) {
            expect(res.json().message ?? '', `${name} ${code}`).not.toMatch(/Steuerzeichen/);
            before = await written();
            continue;
          }
          expect(res.statusCode, `${name} ${code}: ${res.body}`).toBe(400);
          const { message } = res.json<{ message: string }>();
          if (e.audience === 'integration') {
            // English for integrators, naming the parameter.
            expect(message.startsWith(key), `${name} ${code}: ${message}`).toBe(true);
          } else if (rule) {
            const label = labels.map((l) => labelText(l ?? '?')).join(' – ');
            const expected =
              rule === 'scan'
                ? texts.errors.input.controlCharacter(label)
                : texts.errors.input.controlCharacterTyped(label);
            expect(message, `${name} ${code}`).toBe(expected);
          } else {
            // A number, a date: refused by its format, named all the same.
            expect(message, `${name} ${code}`).toContain(labelText(labels.at(-1) ?? '?'));
          }
        }
        expect(await written(), `${name}: a refused request wrote something`).toEqual(before);
      }
    });
  }

  it('every text field of a scanner, Leitstand or admin call says what it lets through', () => {
    // A string field that is neither a text() nor a fixed format (a regex, a date, an enum) takes NUL.
    const untyped = [...contract, ...extraContract, ...leitstandContract, ...etikettenContract]
      .flatMap((e) =>
        [
          ...stringFields(e.params, 'params'),
          ...stringFields(e.body, 'body'),
          ...(e.query ? stringFields(e.query, 'query') : []),
        ].map((f) => ({ e, f })),
      )
      .filter(({ f }) => !textFields.has(f.schema))
      .filter(({ f }) => f.schema.safeParse('A\u0000B').success)
      .map(({ e, f }) => `${e.name} ${f.part}.${f.path.join('.')}`);
    expect(untyped).toEqual([]);
  });

  it('answers NUL in the API documentation viewer’s file name with 404, not 500', async () => {
    // The viewer's files are no call of the contract: the path as a browser would send it.
    const res = await t.app.inject('/api/docs/swagger-ui.css%00');
    expect(res.statusCode).toBe(404);
  });
});
