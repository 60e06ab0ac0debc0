// Raw HTTP on purpose: it checks the routes the server registers against SPEC §7 and sends no body or key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  contract,
  etikettenContract,
  exportContract,
  extraContract,
  leitstandContract,
} from '../../src/contract/index.ts';
import { hasRole, ROLE_PREFIXES, ROLES } from '../../src/contract/roles.ts';
import { texts } from '../../src/contract/texts.ts';
import { DOCS_ROUTES } from '../../src/server/http/api-docs.ts';
import { demo } from '../../src/server/seed/demo.ts';
import { authHeaders, loginAs, startTestApp, type TestApp } from '../support/app.ts';

/** SPEC §7, "The calls it makes", as written there (method and path; `{…}` marks a path parameter). */
const SPEC_TABLE = [
  'GET /api/inventur/findarticle/{number}',
  'GET /api/inventur/findlp/{code}',
  'GET /api/umlagern/checklparticle/{lpId}/{articleId}',
  'GET /api/umlagern/articleinfo/{articleId}',
  'GET /api/umbuchung/{lpId}',
  'POST /api/umbuchung/artikel/',
  'POST /api/umbuchung/',
  'POST /api/inventur/',
  'GET /api/inventur/history',
  'PUT /api/batcherfassung',
  'GET /api/batch/getBatchIdByLieferscheinBelegnr/{belegnr}',
  'PUT /api/batch',
  'PUT /api/containererfassung',
  'PUT /api/transporterfassung',
  'GET /api/packagecontent/{belegnr}',
  'PUT /api/packagecontent/cheat',
  'POST /api/packagecontent/{itemNr}',
  'PUT /api/paketinhalt/klaerfall',
  'GET /api/packagerecording/{belegnr}',
  'PUT /api/packagerecording/{id}',
  'PUT /api/paketausgang',
  'PUT /api/paketausgangcompare',
  'PUT /api/retourenerfassung',
  'GET /api/wmsretoure/item/{article}',
  'GET /api/wmsretoure/storage/{lhm}',
  'PUT /api/wmsretoure',
  'POST /api/user/login/qrcode',
  'POST /api/user/login',
  'GET /api/user/logout',
  'GET /api/zollpaketerfassung/checkWagen',
  'GET /api/zollpaketerfassung/findWagen/{cart number}',
  'PUT /api/zollpaketerfassung/paket',
  'GET /api/zollpaketerfassung/history',
];

/** Routes the server has beside the spec's calls: health checks and the API documentation. */
const EXTRA_ROUTES = ['GET /healthz', 'GET /readyz', 'GET /metrics', ...DOCS_ROUTES];

/**
 * Calls of the contract whose server side comes with a later issue. Each later issue removes its names;
 * the list must end empty. A name here must NOT be registered (no stub that pretends to work).
 */
const PENDING: string[] = [];

const normalise = (route: string) => route.replace(/\{[^}]+\}|:[A-Za-z_]+/g, '{}');

describe('the route table', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('pglite');
  });
  afterAll(() => t.close());

  it('the contract holds exactly the calls of SPEC §7', () => {
    expect(contract.map((e) => normalise(`${e.method} ${e.path}`)).sort()).toEqual(
      SPEC_TABLE.map(normalise).sort(),
    );
  });

  it('names the calls our contract adds to the spec', () => {
    expect(extraContract.map((e) => `${e.method} ${e.path}`)).toEqual([
      'GET /api/nachschub',
      'GET /api/wareneingang/beleg/:wareneingang',
      'GET /api/wareneingang/vorschlag/:position',
      'POST /api/wareneingang/buchen',
      'POST /api/wareneingang/abschliessen',
      'POST /api/kommissionierung/auftrag',
      'POST /api/kommissionierung/naechster',
      'POST /api/kommissionierung/entnahme',
      'POST /api/kommissionierung/fehlmenge',
      'POST /api/kommissionierung/abbrechen',
      'GET /api/kommissionierung/wagen',
      'POST /api/kommissionierung/wagen',
      'POST /api/kommissionierung/wagen/ablage',
      'POST /api/kommissionierung/wagen/fehlmenge',
      'POST /api/kommissionierung/wagen/zurueckstellen',
      'POST /api/kommissionierung/wagen/storno',
      'POST /api/kommissionierung/wagen/fertig',
      'POST /api/kommissionierung/wagen/abbrechen',
      'POST /api/zaehlauftrag/naechster',
      'GET /api/zaehlauftrag/aktuell',
      'POST /api/zaehlauftrag/:id/platz',
      'POST /api/zaehlauftrag/:id/zaehlung',
      'POST /api/zaehlauftrag/:id/leer',
      'POST /api/zaehlauftrag/:id/fertig',
      'POST /api/zaehlauftrag/:id/abbrechen',
      'PUT /api/einstellungen/sprache',
    ]);
  });

  it('names the label calls: a download per kind and format, the badges, printing and the printers', () => {
    expect(etikettenContract.map((e) => `${e.method} ${e.path} ${e.role}`)).toEqual([
      'GET /api/etiketten/lagerplatz.pdf schichtleitung',
      'GET /api/etiketten/lagerplatz.zpl schichtleitung',
      'GET /api/etiketten/lhm.pdf schichtleitung',
      'GET /api/etiketten/lhm.zpl schichtleitung',
      'GET /api/etiketten/artikel.pdf schichtleitung',
      'GET /api/etiketten/artikel.zpl schichtleitung',
      'GET /api/etiketten/zollwagen.pdf schichtleitung',
      'GET /api/etiketten/zollwagen.zpl schichtleitung',
      'GET /api/etiketten/kommissionierwagen.pdf schichtleitung',
      'GET /api/etiketten/kommissionierwagen.zpl schichtleitung',
      'GET /api/etiketten/fach.pdf schichtleitung',
      'GET /api/etiketten/fach.zpl schichtleitung',
      'POST /api/admin/etiketten/ausweis admin',
      'GET /api/etiketten/drucker mitarbeiter',
      'POST /api/etiketten/druck mitarbeiter',
      'GET /api/admin/drucker admin',
      'POST /api/admin/drucker admin',
      'PUT /api/admin/drucker/:id admin',
      'PUT /api/admin/drucker/:id/entfernen admin',
    ]);
  });

  it('names the export calls for integrations', () => {
    expect(exportContract.map((e) => `${e.method} ${e.path}`)).toEqual([
      'GET /api/export/movements',
      'GET /api/export/inventory',
      'GET /api/export/wmsreturns',
      'GET /api/export/parcels',
      'GET /api/export/customs',
      'GET /api/export/receiptdifferences',
      'GET /api/export/pickshortages',
      'PUT /api/integration/receipts/:number',
    ]);
    expect(exportContract.every((e) => e.audience === 'integration')).toBe(true);
    expect(
      [...contract, ...extraContract, ...leitstandContract, ...etikettenContract].every(
        (e) => e.audience === 'scanner',
      ),
    ).toBe(true);
  });

  it('the server registers no API route outside the contract', () => {
    const allowed = new Set([
      ...[...contract, ...extraContract, ...leitstandContract, ...etikettenContract, ...exportContract].map(
        (e) => normalise(`${e.method} ${e.path}`),
      ),
      ...EXTRA_ROUTES.map(normalise),
    ]);
    const outside = t.app.routeTable.map(normalise).filter((r) => !allowed.has(r) && !isStaticFile(r));
    expect(outside).toEqual([]);
  });

  it('every call declares its role: each scanner call with a login one, the logins and integration calls none', () => {
    for (const e of [...contract, ...extraContract, ...leitstandContract, ...etikettenContract])
      expect([e.name, e.role], e.name).toEqual([
        e.name,
        e.auth ? expect.stringMatching(/^(mitarbeiter|schichtleitung|admin)$/) : null,
      ]);
    for (const e of exportContract) expect([e.name, e.role]).toEqual([e.name, null]);
    for (const e of [...contract, ...extraContract, ...leitstandContract, ...etikettenContract])
      for (const { prefix, role } of ROLE_PREFIXES)
        if (e.path.startsWith(prefix)) expect(hasRole(e.role ?? 'mitarbeiter', role), e.name).toBe(true);
    // The handheld's calls stay open to every worker, except the cheat code (the shift lead's decision).
    const above = [...contract, ...extraContract, ...leitstandContract, ...etikettenContract].filter(
      (e) => e.role && e.role !== 'mitarbeiter',
    );
    expect(above.map((e) => `${e.name}: ${e.role}`)).toContain('packageContentCheat: schichtleitung');
  });

  it('refuses every call above a role to each lower one with 403 and the German message, before reading it', async () => {
    const logins = {
      mitarbeiter: await loginAs(t.app, demo.passwordUser),
      schichtleitung: await loginAs(t.app, demo.leadUser),
      admin: await loginAs(t.app, demo.adminUser),
    };
    let walked = 0;
    for (const e of [...contract, ...extraContract, ...leitstandContract, ...etikettenContract]) {
      if (!e.role) continue;
      for (const role of ROLES) {
        if (hasRole(role, e.role)) continue;
        const res = await t.app.inject({
          method: e.method,
          url: e.path.replace(/:[A-Za-z_]+/g, 'x'),
          // No body, no idempotency key: the role is checked first.
          headers: authHeaders(logins[role]),
        });
        expect([e.name, role, res.statusCode, res.json()]).toMatchObject([
          e.name,
          role,
          403,
          { success: false, message: texts.errors.role[e.role] },
        ]);
        walked++;
      }
    }
    expect(walked).toBeGreaterThan(0);
  });

  it('every contract call is registered, except the ones listed as pending', () => {
    const registered = new Set(t.app.routeTable.map(normalise));
    const missing = [...contract, ...leitstandContract, ...etikettenContract, ...exportContract]
      .filter((e) => !registered.has(normalise(`${e.method} ${e.path}`)))
      .map((e) => e.name);
    expect(missing.sort()).toEqual([...PENDING].sort());
  });
});

/** Files of the built web app (served by @fastify/static) are not API routes. */
function isStaticFile(route: string): boolean {
  return route.startsWith('GET /') && !route.startsWith('GET /api');
}
