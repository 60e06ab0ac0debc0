import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every link in the project's Markdown (README.md, docs/, the folders' READMEs) leads somewhere: a file or
 * folder that exists and, after a `#`, a heading that the target has. The README is a newcomer's first page
 * and points into docs/ for everything else (issue 40); a renamed page or heading must not leave it pointing
 * into nothing. Web addresses are not followed (no network here).
 */

const root = path.resolve(import.meta.dirname, '../..');

/** GitHub's anchor for a heading (github-slugger): lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .replace(/`|\*\*|__|\[|\]\([^)]*\)/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M} _-]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors a Markdown text offers: its headings' slugs (a repeated one gets -1, -2, … as on GitHub). */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const line of withoutCode(markdown).split('\n')) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading === null) continue;
    const base = slug(heading[1] ?? '');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  for (const [, id] of markdown.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) anchors.add(id ?? '');
  return anchors;
}

/** The text without fenced code blocks and inline code: a link written as an example is not a link. */
function withoutCode(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** The link targets of a Markdown text: `[text](target)`, `[text]: target` and `<img src="target">`. */
function linksOf(markdown: string): string[] {
  const text = withoutCode(markdown);
  const targets = [
    ...[...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1] ?? ''),
    ...[...text.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/gm)].map((m) => m[1] ?? ''),
    ...[...text.matchAll(/<img\s[^>]*src="([^"]+)"/g)].map((m) => m[1] ?? ''),
  ];
  return targets.filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t));
}

/** Why a link from `from` (a file below `base`) leads nowhere, or null when it leads somewhere. */
function brokenLink(base: string, from: string, target: string): string | null {
  const [file = '', anchor] = target.split('#', 2);
  const resolved =
    file === '' ? path.join(base, from) : path.resolve(path.dirname(path.join(base, from)), decodeURI(file));
  if (!resolved.startsWith(base)) return `${target}: leads out of the project`;
  if (!fs.existsSync(resolved)) return `${target}: ${path.relative(base, resolved)} does not exist`;
  if (anchor === undefined || anchor === '') return null;
  if (fs.statSync(resolved).isDirectory() || !resolved.endsWith('.md')) return null;
  const anchors = anchorsOf(fs.readFileSync(resolved, 'utf8'));
  return anchors.has(decodeURIComponent(anchor))
    ? null
    : `${target}: no heading #${anchor} in ${path.relative(base, resolved)}`;
}

/** Every broken link in the Markdown files given (paths relative to `base`). */
function brokenLinks(base: string, files: readonly string[]): string[] {
  return files.flatMap((file) =>
    linksOf(fs.readFileSync(path.join(base, file), 'utf8'))
      .map((target) => brokenLink(base, file, target))
      .filter((why): why is string => why !== null)
      .map((why) => `${file}: ${why}`),
  );
}

/** The project's Markdown files as git tracks them; the bench's generated result pages are not documents. */
function markdownFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.md'], {
    cwd: root,
    encoding: 'utf8',
  });
  return listed
    .split('\n')
    .filter((f) => f !== '' && !f.startsWith('bench/results/') && !f.startsWith('test/structure/fixture/'))
    .filter((f) => fs.existsSync(path.join(root, f)));
}

describe('links in the documentation', () => {
  it('every link in README.md, docs/ and the folders’ READMEs leads to a file and heading that exist', () => {
    const files = markdownFiles();
    expect(files).toContain('README.md');
    expect(files.filter((f) => f.startsWith('docs/')).length).toBeGreaterThan(10);
    expect(brokenLinks(root, files)).toEqual([]);
  });

  it('the README links into docs/ for each page a newcomer needs', () => {
    const readme = linksOf(fs.readFileSync(path.join(root, 'README.md'), 'utf8'));
    for (const page of ['using', 'configuration', 'operating', 'testing', 'performance', 'architecture']) {
      expect(readme.some((t) => t.startsWith(`docs/${page}.md`))).toBe(true);
    }
    expect(fs.readFileSync(path.join(root, 'README.md'), 'utf8').split('\n').length).toBeLessThanOrEqual(250);
  });

  it('finds a missing page, a missing heading and a link out of the project (the check can fail)', () => {
    const fixture = 'test/structure/fixture/doc-links.md';
    expect(brokenLinks(root, [fixture])).toEqual([
      `${fixture}: missing.md: test/structure/fixture/missing.md does not exist`,
      `${fixture}: ../../../README.md#no-such-heading: no heading #no-such-heading in README.md`,
      `${fixture}: #nowhere: no heading #nowhere in ${fixture}`,
      `${fixture}: ../../../../outside.md: leads out of the project`,
    ]);
  });

  it('makes anchors as GitHub does', () => {
    expect(slug('Einrichtung / Setup')).toBe('einrichtung--setup');
    expect(slug('Zuverlässigkeit: what the tests prove')).toBe('zuverlässigkeit-what-the-tests-prove');
    expect(slug('The `DATA_DIR` variable')).toBe('the-data_dir-variable');
    expect([...anchorsOf('# A\n## A\n```\n# not a heading\n```\n')]).toEqual(['a', 'a-1']);
  });
});
