import fs from 'node:fs';
import path from 'node:path';
import { getAvailableTranspilers, type IForbiddenRuleType } from 'dependency-cruiser';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeViolation, type ImportGraph, importGraph } from './import-graph.ts';
import { type TableReadException, tableReadViolations } from './table-reads.ts';

/**
 * The boundaries of src/ (docs/architecture.md "How it is built", decision 16), as dependency-cruiser rules. Paths are
 * relative to the repository root; `$1` in a `to` is what the `from` pattern's group matched.
 */
const rules: IForbiddenRuleType[] = [
  {
    name: 'contract-stands-alone',
    comment: 'src/contract/ is what server and web app share: it imports neither of them',
    severity: 'error',
    from: { path: '^src/contract/' },
    to: { path: '^src/(server|web)/' },
  },
  {
    name: 'web-not-server',
    comment: 'the web app reaches the server over HTTP only, through the contract',
    severity: 'error',
    from: { path: '^src/web/' },
    to: { path: '^src/server/' },
  },
  {
    name: 'server-features-apart',
    comment: 'a server feature uses auth/, domain/, repositories/ and http/, never another feature',
    severity: 'error',
    from: { path: '^src/server/features/([^/]+)/' },
    to: {
      path: '^src/server/features/',
      pathNot: '^src/server/features/$1/',
    },
  },
  {
    name: 'web-features-apart',
    comment: 'a screen uses ui/, api/, state/ and the contract; the app shell composes the features',
    severity: 'error',
    from: { path: '^src/web/features/([^/]+)/' },
    to: { path: '^src/web/features/', pathNot: '^src/web/features/$1/' },
  },
  {
    name: 'server-leitstand-areas-apart',
    comment:
      "a Leitstand area (features/leitstand/<area>/) uses its own files and the Leitstand's shared parts beside the areas, never another area",
    severity: 'error',
    from: { path: '^src/server/features/leitstand/([^/]+)/' },
    to: { path: '^src/server/features/leitstand/[^/]+/', pathNot: '^src/server/features/leitstand/$1/' },
  },
  {
    name: 'web-leitstand-areas-apart',
    comment:
      "a Leitstand page's folder (leitstand/<area>/) uses its own files and the Leitstand's shared parts beside the areas (api, outcome, label-output, …), never another area",
    severity: 'error',
    from: { path: '^src/web/leitstand/([^/]+)/' },
    to: { path: '^src/web/leitstand/[^/]+/', pathNot: '^src/web/leitstand/$1/' },
  },
  {
    name: 'web-features-not-app',
    comment: 'the app shell composes the features and the Leitstand; neither reaches back up into it',
    severity: 'error',
    from: { path: '^src/web/(features|leitstand)/' },
    to: { path: '^src/web/app/' },
  },
  {
    name: 'web-shared-below-features',
    comment:
      'ui/, scan/, api/ and state/ serve every screen and the Leitstand, and know none (src/web/README.md)',
    severity: 'error',
    from: { path: '^src/web/(ui|scan|api|state)/' },
    to: { path: '^src/web/(features|app|leitstand)/' },
  },
  {
    name: 'web-scan-alone',
    comment:
      "scan/ is the web app's lowest layer (keys, bursts, targets): no screen, building block, client or state, and of the contract only the scan limits (no zod); the app shell hands it its texts",
    severity: 'error',
    from: { path: '^src/web/scan/' },
    to: { path: '^src/', pathNot: '^src/(web/scan/|contract/limits\\.ts$)' },
  },
  {
    name: 'web-client-below-ui',
    comment: 'api/ and state/ serve the building blocks and screens: they import neither ui/ nor scan/',
    severity: 'error',
    from: { path: '^src/web/(api|state)/' },
    to: { path: '^src/web/(ui|scan)/' },
  },
  {
    name: 'web-paths-only-contract',
    comment:
      "paths.ts names every screen, the menus and a capture screen's call: of src/ it knows the contract only",
    severity: 'error',
    from: { path: '^src/web/paths\\.ts$' },
    to: { path: '^src/', pathNot: '^src/contract/' },
  },
  {
    name: 'server-not-web',
    comment: 'the server hands out the built web app (dist/web) and imports none of its source',
    severity: 'error',
    from: { path: '^src/server/' },
    to: { path: '^src/web/' },
  },
  {
    name: 'http-below-features',
    comment: 'what every route shares knows no feature: features register themselves through it',
    severity: 'error',
    from: { path: '^src/server/http/' },
    to: { path: '^src/server/features/' },
  },
  {
    name: 'core-below-http-and-features',
    comment: 'auth, domain rules and repositories are used by http/ and features, not the other way',
    severity: 'error',
    from: { path: '^src/server/(auth|domain|repositories)/' },
    to: { path: '^src/server/(http|features)/' },
  },
  {
    name: 'db-imports-nothing-above',
    comment:
      "db/ is the server's lowest layer: of src/server/ it imports only itself and the configuration; the demo seed, which hashes passwords (auth/) and books its opening stock (domain/), lives above them in seed/",
    severity: 'error',
    from: { path: '^src/server/db/' },
    to: { path: '^src/server/', pathNot: '^src/server/(db/|config\\.ts$)' },
  },
  {
    name: 'no-cycle',
    comment: 'no module reaches itself again through its imports (type-only and dynamic imports count)',
    severity: 'error',
    from: { path: '^src/' },
    to: { circular: true },
  },
];

const root = path.resolve(import.meta.dirname, '../..');

/**
 * Stock changes only in src/server/domain/stock.ts, each with its journal row (DESIGN §3). A rule on the text,
 * as the table is named in strings: Kysely's builders and SQL. The one exception is named with its reason in
 * stock.ts's header: the large benchmark warehouse's set-based rows.
 */
const STOCK_WRITERS = ['src/server/domain/stock.ts', 'src/server/seed/large.ts'];
const STOCK_WRITE =
  /\.(insertInto|updateTable|deleteFrom|mergeInto)\(\s*['"`]stock\b|\b(insert\s+into|update|delete\s+from|merge\s+into|truncate(\s+table)?)\s+stock\b/i;

/** Each `file:line` under the tree's src/server/ (unit tests aside) that writes the stock table. */
function stockWrites(tree: string): string[] {
  return fs
    .readdirSync(path.join(tree, 'src/server'), { recursive: true, encoding: 'utf8' })
    .map((f) => `src/server/${f.split(path.sep).join('/')}`)
    .filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f) && !STOCK_WRITERS.includes(f))
    .sort()
    .flatMap((f) =>
      fs
        .readFileSync(path.join(tree, f), 'utf8')
        .split('\n')
        .flatMap((line, i) => (STOCK_WRITE.test(line) ? [`${f}:${i + 1}`] : [])),
    );
}

describe('the boundaries between the layers of src/', () => {
  let graph: ImportGraph;
  beforeAll(async () => {
    graph = await importGraph(root, ['src'], rules);
  });

  it('reads every TypeScript file of src/ with its imports, also type-only, dynamic and JSX ones', () => {
    expect(
      getAvailableTranspilers().find((t) => t.name === 'babel')?.available,
      'dependency-cruiser reads TypeScript here through @babel/core (import-graph.ts)',
    ).toBe(true);
    const files = fs
      .readdirSync(path.join(root, 'src'), { recursive: true, encoding: 'utf8' })
      .filter((f) => /\.tsx?$/.test(f))
      .map((f) => `src/${f.split(path.sep).join('/')}`)
      .sort();
    const read = graph.modules.map((m) => m.source).filter((s) => /^src\/.*\.tsx?$/.test(s));
    expect(read.sort()).toEqual(files);
    const imports = (from: string) => graph.modules.find((m) => m.source === from)?.dependencies ?? [];
    // import type { AuthUser } from './sessions.ts'
    expect(imports('src/server/auth/session-cache.ts').map((d) => d.resolved)).toContain(
      'src/server/auth/sessions.ts',
    );
    // lazy(() => import('../features/inventur/inventur-screen.tsx')) in a .tsx file
    expect(imports('src/web/app/app.tsx')).toContainEqual(
      expect.objectContaining({ resolved: 'src/web/features/inventur/inventur-screen.tsx', dynamic: true }),
    );
  });

  it('has no import across a boundary and no cycle', () => {
    expect(graph.violations.map(describeViolation)).toEqual([]);
  });

  it('writes the stock table only in domain/stock.ts (and the large seed, named there)', () => {
    expect(stockWrites(root)).toEqual([]);
  });
});

describe('each boundary rule', () => {
  it('catches the import it is written for (test/structure/fixture)', async () => {
    const fixture = await importGraph(path.join(import.meta.dirname, 'fixture'), ['src'], rules);
    const found = new Set(fixture.violations.map((v) => v.rule.name));
    expect([...found].sort()).toEqual(rules.map((r) => r.name).sort());
    expect(fixture.violations.map(describeViolation).sort()).toEqual(
      [
        'contract-stands-alone: src/contract/call.ts → src/server/http/handler.ts',
        'db-imports-nothing-above: src/server/db/connect.ts → src/server/auth/secrets.ts',
        'db-imports-nothing-above: src/server/db/seed.ts → src/server/features/b/service.ts',
        'core-below-http-and-features: src/server/domain/rule.ts → src/server/http/handler.ts',
        'http-below-features: src/server/http/handler.ts → src/server/features/a/service.ts',
        'no-cycle: src/web/app/one.ts → src/web/app/two.ts (cycle: src/web/app/one.ts → src/web/app/two.ts → src/web/app/one.ts)',
        'server-features-apart: src/server/features/a/service.ts → src/server/features/b/service.ts',
        'server-leitstand-areas-apart: src/server/features/leitstand/one/routes.ts → src/server/features/leitstand/two/service.ts',
        'web-leitstand-areas-apart: src/web/leitstand/one/page.ts → src/web/leitstand/two/part.ts',
        'web-features-apart: src/web/features/x/screen.ts → src/web/features/y/screen.ts',
        'web-not-server: src/web/features/x/screen.ts → src/server/features/b/service.ts',
        'web-features-not-app: src/web/features/y/screen.ts → src/web/app/shell.ts',
        'web-shared-below-features: src/web/ui/field.ts → src/web/features/y/screen.ts',
        'web-scan-alone: src/web/scan/router.ts → src/web/ui/field.ts',
        'web-client-below-ui: src/web/api/client.ts → src/web/scan/router.ts',
        'web-paths-only-contract: src/web/paths.ts → src/web/app/shell.ts',
        'server-not-web: src/server/build-web.ts → src/web/paths.ts',
      ].sort(),
    );
  });

  it('catches a stock write past domain/stock.ts, in Kysely or in SQL', () => {
    expect(stockWrites(path.join(import.meta.dirname, 'fixture'))).toEqual([
      'src/server/features/a/stock.ts:3',
      'src/server/features/a/stock.ts:5',
    ]);
  });
});

/**
 * One lookup (decision 32): a server feature finds a location or an article through src/server/repositories/
 * (`location.repository.ts`, `article.repository.ts`: a reference in, the entity out or the one 404), never
 * by its own query of the `locations` or `articles` table — an import rule cannot say this, so it is a text
 * check (table-reads.ts). A join naming a listing's rows stays. The exceptions are searches and listings,
 * not lookups, each with the exact number of reads it keeps:
 */
const tableReadExceptions: Record<string, TableReadException> = {
  'src/server/features/leitstand/bestand/service.ts': {
    reads: 4,
    why: 'the Bestand search reads articles by code and by a part of the name, a window of the nummer index at a time in steps (decision 31)',
  },
  'src/server/features/leitstand/bestand/journal.ts': {
    reads: 2,
    why: "the journal's rows name their locations (2 correlated subqueries, as a join would)",
  },
  'src/server/features/leitstand/inventur/create-tasks.ts': {
    reads: 1,
    why: "'Aufträge anlegen' walks every location a count plan may take, in code order a slice at a time in steps: a listing of the warehouse, not a lookup of one",
  },
  'src/server/features/leitstand/inventur-auswertung/abc.ts': {
    reads: 2,
    why: "'ABC-Klassen berechnen' classes every location from its stock a slice at a time, and counts the articles (C: all but A and B)",
  },
  'src/server/features/leitstand/inventur-auswertung/classes.ts': {
    reads: 1,
    why: "the ABC page's locations without a class: all locations less the classed ones",
  },
  'src/server/features/leitstand/inventur-auswertung/coverage.ts': {
    reads: 1,
    why: "the year's coverage reads every location a slice at a time, with its aisle (its code's first segment)",
  },
  'src/server/features/wareneingang/service.ts': {
    reads: 1,
    why: "the location suggestion searches the hall for an empty place of the article's usual type: a search over all locations, not a lookup of one",
  },
};

describe('what a server feature reads', () => {
  it('finds locations and articles through the repositories only, but for the named searches', () => {
    expect(tableReadViolations(root, tableReadExceptions)).toEqual([]);
  });

  it('catches a feature that reads the table itself, and an exception whose count is off (fixture)', () => {
    const fixture = path.join(import.meta.dirname, 'fixture');
    const exceptions = {
      'src/server/features/d/search.ts': { reads: 1, why: 'a search (the fixture: it reads twice)' },
    };
    expect(tableReadViolations(fixture, exceptions)).toEqual([
      "src/server/features/c/service.ts: 2 queries of locations/articles (0 allowed): selectFrom('locations, from articles",
      "src/server/features/d/search.ts: 2 queries of locations/articles (1 allowed): selectFrom('articles, from locations",
    ]);
  });
});
