// Raw HTTP on purpose: it sends what no client sends (hostile paths, keys, raw bodies) to the contract's routes.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Endpoint } from '../../src/contract/endpoint.ts';
import { contract, extraContract } from '../../src/contract/index.ts';
import { bookInventur } from '../../src/contract/inventur.ts';
import { bookWmsRetoure } from '../../src/contract/wmsretoure.ts';
import { loginDemo, startTestApp, type TestApp } from '../support/app.ts';
import { databaseKinds } from '../support/db.ts';
import { countWrites, type WriteCounts } from '../support/write-counts.ts';

/**
 * Hostile input on every route of the contract: random and malicious bodies, path parameters and keys.
 * Never a 5xx, every refusal is JSON with a German message, and a refused request changes nothing.
 */
const RUNS_PER_ROUTE = Number(process.env.FUZZ_RUNS ?? 12);
const routes: readonly Endpoint[] = [...contract, ...extraContract];

const hostileText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom(
    "' OR 1=1; --",
    "'; drop table stock; --",
    '../../../etc/passwd',
    '%00',
    'a\u0000b',
    '😀👍🏽',
    'e\u0301\u0301\u0301',
    '{{7*7}}',
    '<script>alert(1)</script>',
    'x'.repeat(10_000),
    '',
    ' ',
  ),
);
const hostileNumber = fc.oneof(
  fc.constantFrom(0, -1, 0.5, 1e12, -0, 2 ** 31, 2 ** 53),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);
const hostileValue = fc.oneof(
  hostileText,
  hostileNumber,
  fc.boolean(),
  fc.constant(null),
  fc.jsonValue({ maxDepth: 3 }),
);
const hostileBody = fc.oneof(
  fc.dictionary(
    fc.constantFrom(
      'id',
      'lp',
      'article',
      'amount',
      'from',
      'to',
      'batch',
      'tracking',
      'belegnr',
      'lieferschein',
      'wagennummer',
      'close',
      'charge',
      'mhd',
      'quality',
      'kartonagen',
      'itemNr',
      'value',
      'code',
      '__proto__',
      'constructor',
    ),
    hostileValue,
  ),
  fc.jsonValue({ maxDepth: 4 }),
);
/** Raw bodies JSON.parse reads into what a typed client never sends. */
const rawBody = fc.constantFrom(
  '{"amount": 1e309}',
  '{"lp": NaN}',
  '[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]',
  `${'['.repeat(3000)}${']'.repeat(3000)}`,
  '{"a":',
  'null',
  '"text"',
);

function fill(path: string, values: string[]): string {
  let i = 0;
  return path.replace(/:([A-Za-z_]+)/g, () => encodeURIComponent(values[i++] ?? 'x'));
}

describe.each(databaseKinds())('hostile input on every route on %s', (kind) => {
  let t: TestApp;
  let app: FastifyInstance;
  let token: string;
  let tried = 0;
  let webDir: string;
  beforeAll(async () => {
    // A built web app of its own: the test must not depend on whether `npm run build` ran before.
    webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lagerscanner-web-'));
    fs.writeFileSync(
      path.join(webDir, 'index.html'),
      '<!doctype html><meta name="csrf-token" content="__CSRF_TOKEN__">',
    );
    t = await startTestApp(kind, { bodyLimitBytes: 64 * 1024, webDir });
    app = t.app;
    token = await loginDemo(app);
  });
  afterAll(async () => {
    console.log(`fuzz on ${kind}: ${tried} hostile requests, no 5xx, no half-written refusal`);
    await t.close();
    fs.rmSync(webDir, { recursive: true, force: true });
  });

  /**
   * Everything a refused request could have written. A hostile request may be refused by a rule, which stores
   * the refusal under its key, or be a failed login, which is counted: neither is a write.
   */
  const written = () => countWrites(t.database.db, { keys: 'applied', logins: false });

  async function check(
    res: { statusCode: number; body: string; headers: Record<string, unknown> },
    before: WriteCounts,
  ) {
    tried++;
    expect(res.statusCode, res.body).toBeLessThan(500);
    if (res.statusCode >= 400) {
      expect(String(res.headers['content-type'])).toContain('application/json');
      const body = JSON.parse(res.body) as { success: boolean; message: string };
      expect(body.success).toBe(false);
      expect(body.message.length).toBeGreaterThan(3);
      expect(body.message).not.toMatch(/\b(must|should|Bad Request|Unexpected|undefined|null|Error)\b/);
      expect(await written()).toEqual(before);
    }
  }

  for (const route of routes) {
    it(`${route.method} ${route.path}`, async () => {
      const paramCount = (route.path.match(/:/g) ?? []).length;
      await fc.assert(
        fc.asyncProperty(
          fc.array(hostileText, { minLength: paramCount, maxLength: paramCount }),
          fc.oneof(
            hostileBody.map((b) => ({ json: b })),
            rawBody.map((raw) => ({ raw })),
          ),
          fc.oneof(fc.constant(randomUUID()), hostileText),
          async (params, body, key) => {
            const url = fill(route.path, params);
            const before = await written();
            const payload = 'raw' in body ? body.raw : JSON.stringify(body.json);
            const res = await app.inject({
              method: route.method,
              url,
              headers: {
                authorization: `Bearer ${token}`,
                'x-idempotency-key': key,
                ...(route.method === 'GET' ? {} : { 'content-type': 'application/json' }),
              },
              ...(route.method === 'GET' ? {} : { payload }),
            });
            await check(res, before);
          },
        ),
        { numRuns: RUNS_PER_ROUTE },
      );
    });
  }

  it('refuses a body over the limit with 413, and deeply nested JSON without falling over', async () => {
    const before = await written();
    const big = await app.inject({
      method: bookInventur.method,
      url: bookInventur.path,
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'x-idempotency-key': randomUUID(),
      },
      payload: JSON.stringify({ lp: 1, article: 1, amount: 1, pad: 'x'.repeat(70 * 1024) }),
    });
    expect(big.statusCode).toBe(413);
    await check(big, before);
    const deep = await app.inject({
      method: bookWmsRetoure.method,
      url: bookWmsRetoure.path,
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'x-idempotency-key': randomUUID(),
      },
      payload: `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`,
    });
    await check(deep, before);
  });

  it('serves no file outside the pictures, whatever the path', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('..', '%2e%2e', '..%2f', '%2e%2e%2f', '....//', '%252e%252e'),
        fc.integer({ min: 1, max: 6 }),
        async (step, depth) => {
          const res = await app.inject(`/images/${`${step}/`.repeat(depth)}package.json`);
          tried++;
          expect(res.statusCode).toBeLessThan(500);
          expect(res.body).not.toContain('"name": "lagerscanner"');
        },
      ),
      { numRuns: 30 },
    );
  });
});
