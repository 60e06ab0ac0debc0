// Raw HTTP on purpose: the OpenAPI document and its viewer are no calls of the contract.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCS_ROUTES } from '../../src/server/http/api-docs.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

type Operation = {
  operationId: string;
  security: Record<string, string[]>[];
  parameters?: { name?: string; in?: string; required?: boolean; $ref?: string }[];
  requestBody?: {
    content: Record<string, { schema: { properties?: Record<string, unknown>; required?: string[] } }>;
  };
  responses: Record<string, { content?: Record<string, unknown> }>;
};
type OpenApi = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: Record<string, unknown>;
};

/** `/api/umbuchung/:lpId` and `/api/umbuchung/{lpId}` alike. */
const normalise = (route: string) => route.replace(/\{[^}]+\}|:[A-Za-z_]+/g, '{}');

describe('the OpenAPI document', () => {
  let t: TestApp;
  let doc: OpenApi;
  const operation = (method: string, path: string) => {
    const op = doc.paths[path]?.[method];
    if (!op) throw new Error(`no ${method} ${path} in the document`);
    return op;
  };

  beforeAll(async () => {
    t = await startTestApp('pglite');
    const res = await t.app.inject('/api/openapi.json');
    expect(res.statusCode).toBe(200);
    doc = res.json<OpenApi>();
  });
  afterAll(() => t.close());

  it('lists exactly the routes the server registers, but the docs themselves and the web app files', () => {
    const documented = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => normalise(`${method.toUpperCase()} ${path}`)),
    );
    const docs = new Set(DOCS_ROUTES.map(normalise));
    const registered = t.app.routeTable
      .map(normalise)
      .filter((r) => !docs.has(r))
      .filter(
        (r) => r.startsWith('GET /api') || !r.startsWith('GET /') || /^GET \/(healthz|readyz)$/.test(r),
      );
    expect(registered.length).toBeGreaterThanOrEqual(41);
    expect(documented.sort()).toEqual([...new Set(registered)].sort());
    expect(doc.openapi).toBe('3.1.0');
  });

  it('names how each call authenticates: a login, an integration token, or nothing for the logins', () => {
    expect(operation('post', '/api/user/login').security).toEqual([]);
    expect(operation('get', '/api/inventur/history').security).toEqual([
      { sessionToken: [] },
      { accessToken: [] },
    ]);
    for (const feed of ['movements', 'inventory', 'wmsreturns', 'parcels', 'customs']) {
      const op = operation('get', `/api/export/${feed}`);
      expect(op.security).toEqual([{ integrationToken: [] }]);
      expect(op.parameters?.map((p) => p.name)).toEqual(['since', 'cursor', 'limit', 'format', 'sep']);
      expect(Object.keys(op.responses['200']?.content ?? {})).toEqual(['application/json', 'text/csv']);
    }
    const schemes = (doc.components.securitySchemes ?? {}) as Record<string, unknown>;
    expect(Object.keys(schemes).sort()).toEqual(['accessToken', 'integrationToken', 'sessionToken']);
  });

  it('asks for X-Idempotency-Key on every write of a login and documents bodies and path parameters from the contract', () => {
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        // An integration's PUT of a whole record is idempotent by itself (decision 24); the badge labels' POST
        // only carries card texts (no URL) and writes nothing.
        const write =
          method !== 'get' &&
          !path.startsWith('/api/user/login') &&
          !path.startsWith('/api/integration/') &&
          path !== '/api/admin/etiketten/ausweis';
        const key = op.parameters?.some((p) => p.$ref === '#/components/parameters/IdempotencyKey') ?? false;
        expect(key, `${method} ${path}`).toBe(write);
      }
    }
    const inventur = operation('post', '/api/inventur/').requestBody?.content['application/json']?.schema;
    expect(inventur?.required?.sort()).toEqual(['amount', 'article', 'lp']);
    expect(operation('get', '/api/umlagern/checklparticle/{lpId}/{articleId}').parameters).toEqual([
      expect.objectContaining({ name: 'lpId', in: 'path', required: true }),
      expect.objectContaining({ name: 'articleId', in: 'path', required: true }),
    ]);
  });

  it('has no reference that points nowhere', () => {
    const refs = JSON.stringify(doc).match(/"\$ref":"[^"]+"/g) ?? [];
    expect(refs.length).toBeGreaterThan(40);
    for (const ref of new Set(refs)) {
      const target = ref.slice('"$ref":"#/'.length, -1).split('/');
      let node: unknown = doc;
      for (const key of target) node = (node as Record<string, unknown>)[key];
      expect(node, ref).toBeTypeOf('object');
    }
  });

  it('serves the viewer with its own strict policy and only its own files', async () => {
    const page = await t.app.inject('/api/docs');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['content-security-policy']).not.toContain('unsafe');
    expect(page.body).toContain('/api/docs/swagger-ui-bundle.js');
    const bundle = await t.app.inject({
      url: '/api/docs/swagger-ui-bundle.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(bundle.statusCode).toBe(200);
    expect(bundle.headers['content-encoding']).toBe('gzip');
    expect(bundle.headers['content-type']).toBe('text/javascript; charset=utf-8');
    for (const url of [
      '/api/docs/package.json',
      '/api/docs/..%2F..%2Fpackage.json',
      '/api/docs/index.html',
    ]) {
      const res = await t.app.inject(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toMatchObject({ success: false, message: expect.any(String) });
    }
  });

  it('answers 404 for names every JavaScript object has (constructor, __proto__, toString …), not a 500', async () => {
    for (const name of [
      'constructor',
      '__proto__',
      'toString',
      'valueOf',
      'hasOwnProperty',
      'isPrototypeOf',
      'propertyIsEnumerable',
      'toLocaleString',
      '__defineGetter__',
      '__lookupGetter__',
    ]) {
      const res = await t.app.inject(`/api/docs/${name}`);
      expect(res.statusCode, name).toBe(404);
      expect(res.json(), name).toMatchObject({ success: false, message: expect.any(String) });
    }
  });
});
