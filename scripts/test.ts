import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * `npm test`: every check CI runs, in one command. Stages run in order and all of them run even when one
 * fails, so one run shows everything; the exit code is non-zero if any failed. Ends with one line
 * `Tests: N passed, M failed, K skipped` over the unit, API and end-to-end tests.
 *
 *   npm test                      everything
 *   npm test -- --only static     type check + lint      (also: unit, e2e)
 */
type Result = 'passed' | 'failed' | 'skipped';
interface Stage {
  name: string;
  result: Result;
  seconds: number;
  counts?: { passed: number; failed: number; skipped: number };
  note?: string;
  /** The failed tests by name, with the first line of why: the summary is what a CI log's tail shows. */
  failures?: string[];
}

const root = path.resolve(import.meta.dirname, '..');
const ci = process.env.CI === 'true';
const args = process.argv.slice(2);
const onlyIndex = args.indexOf('--only');
const only = onlyIndex >= 0 ? args[onlyIndex + 1] : undefined;
if (only !== undefined && !['static', 'unit', 'e2e'].includes(only)) {
  console.error('Usage: npm test [-- --only static|unit|e2e]');
  process.exit(2);
}
const wants = (group: 'static' | 'unit' | 'e2e') => only === undefined || only === group;
const reportDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lagerscanner-test-report-'));
const stages: Stage[] = [];
const bin = (name: string) => path.join(root, 'node_modules', '.bin', name);

function header(title: string) {
  const line = '═'.repeat(78);
  console.log(`\n${line}\n  ${title}\n${line}`);
}

function loud(lines: string[]) {
  const bar = '!'.repeat(78);
  console.log(`\n${bar}\n${lines.map((l) => `!! ${l}`).join('\n')}\n${bar}\n`);
}

function run(command: string, commandArgs: string[], env: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, commandArgs, {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, ...env },
    });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
    child.on('error', (error) => {
      console.error(error);
      resolve(1);
    });
  });
}

async function stage(name: string, work: () => Promise<Omit<Stage, 'name' | 'seconds'>>) {
  header(name);
  const started = Date.now();
  const outcome = await work();
  stages.push({ name, seconds: (Date.now() - started) / 1000, ...outcome });
}

function readJson<T>(file: string): T | null {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
  } catch {
    return null;
  }
}

function firstLine(message: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: a reporter's colours are escape sequences
  const plain = message.replace(/\u001b\[[0-9;]*m/g, '').trim();
  const line = plain.split('\n')[0] ?? '';
  return line.length > 160 ? `${line.slice(0, 160)}…` : line;
}

interface PlaywrightSuite {
  title: string;
  suites?: PlaywrightSuite[];
  specs?: {
    title: string;
    file: string;
    line: number;
    tests: { projectName: string; status: string; results: { error?: { message?: string } }[] }[];
  }[];
}
interface PlaywrightReport {
  stats: { expected: number; unexpected: number; skipped: number; flaky: number };
  suites?: PlaywrightSuite[];
}

/** Each test that failed on every try, as `file:line › titles [project]: why`. */
function playwrightFailures(report: PlaywrightReport): string[] {
  const found: string[] = [];
  const walk = (suite: PlaywrightSuite, titles: string[]) => {
    const inner = suite.title && !suite.title.endsWith('.ts') ? [...titles, suite.title] : titles;
    for (const spec of suite.specs ?? [])
      for (const test of spec.tests)
        if (test.status === 'unexpected') {
          const why = test.results.at(-1)?.error?.message ?? '';
          found.push(
            `${spec.file}:${spec.line} › ${[...inner, spec.title].join(' › ')} [${test.projectName}]: ${firstLine(why)}`,
          );
        }
    for (const child of suite.suites ?? []) walk(child, inner);
  };
  for (const suite of report.suites ?? []) walk(suite, []);
  return found;
}

function chromiumPath(): string | null {
  const wanted = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (fs.existsSync(wanted)) return wanted;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (isRoot && spawnSync('which', ['apt-get']).status === 0) {
    console.log('Chromium is missing; installing Debian chromium (apt-get install -y chromium) …');
    spawnSync('apt-get', ['update'], { stdio: 'inherit' });
    spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], { stdio: 'inherit' });
    if (fs.existsSync(wanted)) return wanted;
  }
  return null;
}

if (wants('static')) {
  await stage('Type check (tsc --noEmit)', async () => ({
    result: (await run(bin('tsc'), ['--noEmit'])) === 0 ? 'passed' : 'failed',
  }));
  await stage('Lint and format (biome check)', async () => ({
    result: (await run(bin('biome'), ['check', '.'])) === 0 ? 'passed' : 'failed',
  }));
}

/**
 * The power-cut test runs alone, after the others: it keeps both cores busy for minutes (the server under
 * load, then two folders in audit at a time), and beside it the tests that time the floor (a scan answered
 * within the overload limit) saw their server starved of CPU instead of what they test.
 */
const ALONE = ['test/process/power-cut.test.ts'];

async function vitest(name: string, files: string[]): Promise<void> {
  await stage(name, async () => {
    const report = path.join(reportDir, `vitest-${stages.length}.json`);
    const code = await run(bin('vitest'), [
      'run',
      ...files,
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${report}`,
    ]);
    const json = readJson<{
      numPassedTests: number;
      numFailedTests: number;
      numPendingTests: number;
      numTodoTests: number;
      testResults?: {
        name: string;
        message?: string;
        assertionResults?: { fullName: string; status: string; failureMessages?: string[] }[];
      }[];
    }>(report);
    const counts = json
      ? {
          passed: json.numPassedTests,
          failed: json.numFailedTests,
          skipped: json.numPendingTests + json.numTodoTests,
        }
      : undefined;
    const failures = (json?.testResults ?? []).flatMap((file) => {
      const where = path.relative(root, file.name);
      const tests = (file.assertionResults ?? []).filter((test) => test.status === 'failed');
      if (tests.length === 0 && file.message) return [`${where}: ${firstLine(file.message)}`]; // the file failed
      return tests.map(
        (test) => `${where} › ${test.fullName}: ${firstLine(test.failureMessages?.[0] ?? '')}`,
      );
    });
    return { result: code === 0 ? 'passed' : 'failed', counts, failures };
  });
}

if (wants('unit')) {
  await vitest(
    'Unit and API tests on PGlite and PostgreSQL (vitest)',
    ALONE.flatMap((file) => ['--exclude', file]),
  );
  await vitest('The power-cut test, alone (vitest)', ALONE);
}

if (wants('e2e')) {
  const chromium = chromiumPath();
  if (!chromium) {
    const lines = [
      'Chromium not found (/usr/bin/chromium; set CHROMIUM_PATH) and it cannot be installed here.',
      'The END-TO-END TESTS ARE SKIPPED. Install it: apt-get install chromium',
    ];
    loud(lines);
    stages.push({
      name: 'End-to-end tests in Chromium (playwright)',
      result: ci ? 'failed' : 'skipped',
      seconds: 0,
      note: ci ? 'CI=true: Chromium is required' : 'no Chromium',
    });
  } else {
    await stage('End-to-end tests in Chromium (playwright)', async () => {
      const report = path.join(reportDir, 'playwright.json');
      const code = await run(bin('playwright'), ['test', '--reporter=list,json'], {
        CHROMIUM_PATH: chromium,
        PLAYWRIGHT_JSON_OUTPUT_NAME: report,
      });
      const json = readJson<PlaywrightReport>(report);
      const counts = json
        ? {
            passed: json.stats.expected + json.stats.flaky,
            failed: json.stats.unexpected,
            skipped: json.stats.skipped,
          }
        : undefined;
      return {
        result: code === 0 ? 'passed' : 'failed',
        counts,
        failures: json ? playwrightFailures(json) : [],
      };
    });
  }
}

fs.rmSync(reportDir, { recursive: true, force: true });

header('Summary');
const pad = (s: string, n: number) => s.padEnd(n);
for (const s of stages) {
  const counts = s.counts
    ? `${s.counts.passed} passed, ${s.counts.failed} failed, ${s.counts.skipped} skipped`
    : '';
  const mark = s.result === 'passed' ? 'PASS' : s.result === 'failed' ? 'FAIL' : 'SKIP';
  console.log(
    `${mark}  ${pad(s.name, 56)} ${pad(`${s.seconds.toFixed(1)} s`, 9)} ${counts}${s.note ? ` (${s.note})` : ''}`,
  );
  const failures = s.failures ?? [];
  for (const failure of failures.slice(0, 20)) console.log(`      ✗ ${failure}`);
  if (failures.length > 20) console.log(`      … and ${failures.length - 20} more failed`);
}
const skippedStages = stages.filter((s) => s.result === 'skipped');
if (skippedStages.length > 0)
  loud([`SKIPPED: ${skippedStages.map((s) => s.name).join('; ')}`, 'This run does NOT prove everything.']);
const total = stages.reduce(
  (sum, s) => ({
    passed: sum.passed + (s.counts?.passed ?? 0),
    failed: sum.failed + (s.counts?.failed ?? 0),
    skipped: sum.skipped + (s.counts?.skipped ?? 0),
  }),
  { passed: 0, failed: 0, skipped: 0 },
);
const anyFailed = stages.some((s) => s.result === 'failed');
// A failed stage without test counts (type check, lint) still counts as one failure in the closing line.
const failed = total.failed === 0 && anyFailed ? 1 : total.failed;
console.log(`\nTests: ${total.passed} passed, ${failed} failed, ${total.skipped} skipped`);
process.exit(anyFailed ? 1 : 0);
