import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Routes one way (issue 40): a feature registers its routes only through the helpers of src/server/http/
 * (route.ts, stepped-route.ts, stream.ts), which check the caller, the role and the input and take the call's
 * place in the admission gate once — so no route repeats the login check or skips the gate by omission. The
 * gate's exemptions are named in decision 26.
 */

const root = path.resolve(import.meta.dirname, '../..');

/** A Fastify route registered by hand: `app.route(`, `scope.route(`, `app.get(`, … */
const HAND_BUILT =
  /\b\w+\.route\(|\b(app|api|scope|fastify|server|instance)\.(get|post|put|delete|patch|head|all)\(/g;

/** Every route file's hand-built registrations, as "file: call(". */
function handBuiltRoutes(dir: string): string[] {
  const found: string[] = [];
  for (const file of fs.readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })) {
    if (!/\.ts$/.test(file) || /\.test\.ts$/.test(file)) continue;
    const relative = `${dir}/${file.split(path.sep).join('/')}`;
    const source = fs.readFileSync(path.join(root, relative), 'utf8');
    for (const match of source.matchAll(HAND_BUILT)) found.push(`${relative}: ${match[0]}`);
  }
  return found.sort();
}

describe('routes one way', () => {
  it('registers every feature route through a helper of src/server/http/, none by hand', () => {
    expect(handBuiltRoutes('src/server/features')).toEqual([]);
  });

  it('finds a route built by hand (test/structure/fixture)', () => {
    expect(handBuiltRoutes('test/structure/fixture/src/server/features')).toEqual([
      'test/structure/fixture/src/server/features/a/routes.ts: app.route(',
    ]);
  });
});
