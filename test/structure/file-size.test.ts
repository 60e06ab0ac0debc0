import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * No source file in src/ grows past MAX_LINES without saying why at its top (issue 40): a long file is most
 * often several things that want to be parts, and the reason, where there is one, saves the next reader
 * the search. The reason is a comment in the file's first lines that says "over 400 lines" (or "longer
 * than 400 lines") and why.
 */
const MAX_LINES = 400;
const MARKER = /(over|longer than) 400 lines/i;
const root = path.resolve(import.meta.dirname, '../..');

/** The long files of `files` (paths relative to `base`) that do not say why in their first 5 lines. */
function unexplained(base: string, files: readonly string[]): string[] {
  return files.filter((file) => {
    const lines = fs.readFileSync(path.join(base, file), 'utf8').split('\n');
    const length = lines.at(-1) === '' ? lines.length - 1 : lines.length;
    return length > MAX_LINES && !MARKER.test(lines.slice(0, 5).join('\n'));
  });
}

function sourceFiles(): string[] {
  return execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', 'src'], {
    cwd: root,
    encoding: 'utf8',
  })
    .split('\n')
    .filter((f) => /\.(ts|tsx|mts|mjs|css)$/.test(f) && fs.existsSync(path.join(root, f)));
}

describe('file sizes', () => {
  it(`no source file in src/ is over ${MAX_LINES} lines without a reason at its top`, () => {
    const files = sourceFiles();
    expect(files.length).toBeGreaterThan(100);
    expect(unexplained(root, files)).toEqual([]);
  });

  it('finds a long file without a reason, and takes one with it (the check can fail)', () => {
    const dir = fs.mkdtempSync(path.join(root, 'node_modules', '.file-size-'));
    try {
      const body = Array.from({ length: MAX_LINES }, (_, n) => `export const x${n} = ${n};`).join('\n');
      fs.writeFileSync(path.join(dir, 'long.ts'), `${body}\nexport const last = 1;\n`);
      fs.writeFileSync(path.join(dir, 'explained.ts'), `// Over 400 lines: one table.\n${body}\n`);
      fs.writeFileSync(path.join(dir, 'short.ts'), `${body}\n`);
      expect(unexplained(dir, ['long.ts', 'explained.ts', 'short.ts'])).toEqual(['long.ts']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
