import fs from 'node:fs';
import path from 'node:path';

/** A file allowed to touch a table itself: how many times (exactly), and why that is no lookup. */
export interface TableReadException {
  reads: number;
  why: string;
}

/**
 * A statement whose own table is `locations` or `articles`: Kysely's `selectFrom('articles')` (also with an
 * alias), `updateTable`, `insertInto`, `deleteFrom`, or SQL text's `from locations`, `update articles`,
 * `insert into locations`. A join that names another table's rows (`innerJoin('articles as a', …)`,
 * `join locations l on …`) is none of these: a listing may name its rows' article or location.
 */
const TABLE_READ =
  /\b(?:selectFrom|updateTable|insertInto|deleteFrom)\(\s*['"`](?:locations|articles)\b|\b(?:from|update|into)\s+(?:locations|articles)\b/gi;

/** Comments say "from locations" in prose; only code counts. */
const withoutComments = (code: string) => code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');

/**
 * Every file under `<root>/src/server/features/` that reads the `locations` or `articles` table itself, as
 * 'file: n reads …' — a file named in `exceptions` only when its count differs from the one named there (a
 * new read, or an exception to shrink).
 */
export function tableReadViolations(
  root: string,
  exceptions: Readonly<Record<string, TableReadException>>,
): string[] {
  const features = path.join(root, 'src/server/features');
  const violations: string[] = [];
  const files = fs
    .readdirSync(features, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f))
    .sort();
  for (const file of files) {
    const relative = path.relative(root, path.join(features, file)).split(path.sep).join('/');
    const reads = withoutComments(fs.readFileSync(path.join(features, file), 'utf8')).match(TABLE_READ) ?? [];
    const allowed = exceptions[relative]?.reads ?? 0;
    if (reads.length !== allowed)
      violations.push(
        `${relative}: ${reads.length} queries of locations/articles (${allowed} allowed): ${reads.join(', ')}`,
      );
  }
  for (const file of Object.keys(exceptions))
    if (!fs.existsSync(path.join(root, file)))
      violations.push(`${file}: named as an exception, but not there`);
  return violations;
}
