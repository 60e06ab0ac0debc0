import { cruise, type IForbiddenRuleType, type IViolation } from 'dependency-cruiser';

/**
 * The import graph of a source tree, checked against rules, by dependency-cruiser.
 *
 * dependency-cruiser reads TypeScript through the `typescript` package's compiler API (versions below 7) or
 * through swc. This project's TypeScript 7 is a native binary without that API, and swc is not installed, so
 * dependency-cruiser would skip every .ts and .tsx file. It can read any file through Babel instead
 * (`babelConfig`, with @babel/core, which the PWA build brings along): Babel's own parser reads TypeScript,
 * and a small plugin (below) reduces each file to the references the graph needs, in plain JavaScript.
 * Resolving, the rules and finding cycles stay dependency-cruiser's.
 */

type AstNode = { type: string; [key: string]: unknown };
interface AstPath {
  node: AstNode;
  traverse(visitor: Record<string, (path: AstPath) => void>): void;
}

const text = (value: string): AstNode => ({ type: 'StringLiteral', value });
const staticImport = (source: string): AstNode => ({
  type: 'ImportDeclaration',
  specifiers: [],
  source: text(source),
});
const dynamicImport = (source: string): AstNode => ({
  type: 'ExpressionStatement',
  expression: { type: 'CallExpression', callee: { type: 'Import' }, arguments: [text(source)] },
});
const sourceOf = (node: unknown): string | null => {
  const literal = node as AstNode | null | undefined;
  return literal?.type === 'StringLiteral' && typeof literal.value === 'string' ? literal.value : null;
};

/**
 * Replaces a module's body by one `import 'x'` per import or re-export — type-only ones too, as a type is a
 * dependency between layers as much as a value — and one `import('x')` per dynamic import.
 */
const onlyModuleReferences = () => ({
  visitor: {
    Program: {
      exit(program: AstPath) {
        const body: AstNode[] = [];
        const reference = (path: AstPath) => {
          const source = sourceOf(path.node.source);
          if (source !== null) body.push(staticImport(source));
        };
        program.traverse({
          ImportDeclaration: reference,
          ExportNamedDeclaration: reference,
          ExportAllDeclaration: reference,
          // `typeof import('./x.ts')` in a type
          TSImportType(path) {
            const source = sourceOf(path.node.argument);
            if (source !== null) body.push(staticImport(source));
          },
          CallExpression(path) {
            const [argument] = path.node.arguments as unknown[];
            const source = sourceOf(argument);
            if ((path.node.callee as AstNode).type === 'Import' && source !== null)
              body.push(dynamicImport(source));
          },
        });
        program.node.body = body;
        program.node.directives = [];
      },
    },
  },
});

const babelConfig = {
  babelrc: false,
  configFile: false,
  parserOpts: { plugins: ['typescript'] },
  // JSX only in .tsx: in a .ts file `<T>(x: T) => x` is a generic arrow function, not an element.
  overrides: [{ test: /\.tsx$/, parserOpts: { plugins: ['typescript', 'jsx'] } }],
  plugins: [onlyModuleReferences],
};

export interface ImportGraph {
  /** Every module under `paths` and what each imports (project files by path from `baseDir`). */
  modules: { source: string; dependencies: { resolved: string; dynamic: boolean }[] }[];
  violations: IViolation[];
}

/** Reads the imports of every .ts and .tsx file under `paths` (relative to `baseDir`) and checks the rules. */
export async function importGraph(
  baseDir: string,
  paths: string[],
  rules: IForbiddenRuleType[],
): Promise<ImportGraph> {
  const result = await cruise(
    paths.map((p) => `${p}/**/*.{ts,tsx}`),
    {
      baseDir,
      validate: true,
      ruleSet: { forbidden: rules },
      doNotFollow: { path: 'node_modules' },
    },
    // Which resolved files are project sources to follow (by default only JavaScript's extensions).
    { extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs'] },
    { babelConfig },
  );
  if (typeof result.output === 'string') throw new Error('dependency-cruiser answered text, not a result');
  return { modules: result.output.modules, violations: result.output.summary.violations };
}

/** A violation as one line: the rule, and the import (or the cycle) that breaks it. */
export function describeViolation(v: IViolation): string {
  const cycle = v.cycle?.length ? ` (cycle: ${[v.from, ...v.cycle.map((c) => c.name)].join(' → ')})` : '';
  return `${v.rule.name}: ${v.from} → ${v.to}${cycle}`;
}
