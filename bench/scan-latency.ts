import fs from 'node:fs';
import path from 'node:path';
import { type Kysely, sql } from 'kysely';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { chromiumArgs, chromiumExecutable } from '../e2e/support/chromium.ts';
import type { Database } from '../src/server/db/schema.ts';
import { largeArticleNummer, largeEan, largeLocationCode } from '../src/server/seed/large.ts';
import { DEVICE_SETTINGS_KEY } from '../src/web/api/session.ts';
import { SCAN_TO_FEEDBACK, type ScanSteps } from '../src/web/ui/scan-field.tsx';
import { summariseTrace } from './trace.ts';

/**
 * Scan-to-feedback in a real Chromium at 360×640 with its CPU throttled 4× (a handheld's CPU): scans typed as
 * a keyboard wedge types them, the time from the Enter keydown to the answer painted as the app itself
 * measures it (user timing `scan-to-feedback`, src/web/ui/scan-field.tsx). Two fields: the Inventur article
 * field (a lookup, the article then locked) and the package-content scan field (a booking of one piece).
 *
 * Each scan's time is also split into its steps (`PHASES`), from the times the app notes with its measure
 * (`ScanSteps`) and the call's resource timing. With `profile`, a Chromium performance trace is recorded
 * over each field's scans and summarised (`trace.ts`).
 */
export interface ScanLatency {
  field: string;
  scans: number;
  median: number;
  p95: number;
  /** Median of the API calls' own time in the browser (request sent → answer read): network + server. */
  apiMedian: number;
  /** What the handheld itself adds: median − apiMedian. */
  clientShare: number;
  /** The median of each step of a scan (`PHASES`), ms; empty when the app noted no steps. */
  phases: { name: string; median: number }[];
}

/** A scan's steps, from Enter pressed to its answer painted (they add up to the scan's time). */
export const PHASES = [
  'Enter waits', // pressed → the field's handler runs (a busy page, keystrokes queued)
  'to the call', // handler → request started (the screen's code before the call)
  'API call', // request started → answer received (network + server)
  'answer taken', // answer received → the screen's state set (body read and checked, the screen's code)
  'render', // → the next task after React's render (React renders and commits, effects)
  'frame wait', // → the frame that paints it begins
  'paint', // → the task after that frame (style, layout, paint)
] as const;

/** The delivery note the package-content run packs: 51 lines of 4 pieces, each line at most 5 (no dialog). */
export const BENCH_NOTE = 'LSBENCH01';
const NOTE_LINES = 51;
const PIECES_PER_LINE = 4;

/** The article of the note's line `line` (0-based): spread over the warehouse's `articles`. */
const noteArticle = (line: number, articles: number) =>
  largeArticleNummer(1 + line * Math.max(1, Math.min(97, Math.floor(articles / NOTE_LINES))));

/** Writes the bench's delivery note into the large warehouse (before the server starts). */
export async function addBenchNote(db: Kysely<Database>, articles: number): Promise<void> {
  await sql`delete from delivery_note_lines where delivery_note_id in
    (select id from delivery_notes where belegnr = ${BENCH_NOTE})`.execute(db);
  await sql`delete from delivery_notes where belegnr = ${BENCH_NOTE}`.execute(db);
  const note = await db
    .insertInto('delivery_notes')
    .values({
      belegnr: BENCH_NOTE,
      batch_id: null,
      project_id: null,
      eu: true,
      versandart: 'DHL037',
      klaerfall_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await sql`insert into delivery_note_lines (delivery_note_id, article_id, lsmenge)
    select ${note.id}, id, ${PIECES_PER_LINE} from articles
    where nummer in (${sql.join(Array.from({ length: NOTE_LINES }, (_, i) => noteArticle(i, articles)))})`.execute(
    db,
  );
}

export async function measureScanLatency(options: {
  base: string;
  scans: number;
  articles: number;
  log: (line: string) => void;
  /** Record a Chromium trace over each field's scans: to `${profile}-<field>.json`. */
  profile?: string | null;
  /** The web app's build (source maps for the trace's summary). */
  webDir: string;
}): Promise<ScanLatency[]> {
  const browser: Browser = await chromium.launch({
    executablePath: chromiumExecutable,
    args: chromiumArgs,
  });
  try {
    const context = await browser.newContext({
      viewport: { width: 360, height: 640 },
      hasTouch: true,
      isMobile: true,
      locale: 'de-DE',
    });
    // The package-content run scans each line's article four times in a row, as fast as the answers come:
    // faster than a person could, so the double-read guard (the same code within 300 ms counts once) would
    // swallow some. It is this device's setting; off here, so every scan is measured.
    await context.addInitScript(([key, value]) => localStorage.setItem(key, value), [
      DEVICE_SETTINGS_KEY,
      JSON.stringify({ doubleReadMs: 0 }),
    ] as const);
    const watch = await MeasureWatch.on(context);
    const page = await context.newPage();
    await login(page, options.base);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });

    options.log('  Chromium (4× CPU throttling): Inventur article field …');
    await page.goto(`${options.base}/inventur`);
    await scanAndWait(watch, page, largeLocationCode(1), 1);
    await page.getByRole('button', { name: 'Lagerplatz leeren' }).waitFor();
    await clearMeasures(watch, page);
    const inventurTrace = await startTrace(browser, page, options.profile, 'inventur');
    for (let n = 1; n <= options.scans; n++) {
      // Article numbers and EANs with and without their leading 0, spread over the warehouse.
      const i = 1 + ((n * 7919) % options.articles);
      const ean = largeEan(i);
      const otherEan = ean.startsWith('0') ? ean.slice(1) : `0${ean}`;
      const code = [largeArticleNummer(i), ean, otherEan][n % 3] ?? ean;
      await scanAndWait(watch, page, code, n);
      await page.getByRole('button', { name: 'Artikel leeren' }).click();
    }
    const inventur = await readMeasures(page);
    await stopTrace(browser, inventurTrace, 'Inventur article field', options);

    options.log('  Chromium (4× CPU throttling): package-content scan field …');
    await page.goto(`${options.base}/paketinhalt`);
    await clearMeasures(watch, page);
    await scanAndWait(watch, page, BENCH_NOTE, 1);
    await page.getByLabel('Artikel scannen').waitFor();
    await clearMeasures(watch, page);
    const packingTrace = await startTrace(browser, page, options.profile, 'package-content');
    const pieces = Math.min(options.scans, NOTE_LINES * PIECES_PER_LINE - 1);
    for (let n = 1; n <= pieces; n++) {
      const line = Math.floor((n - 1) / PIECES_PER_LINE);
      await scanAndWait(watch, page, noteArticle(line, options.articles), n);
    }
    const packing = await readMeasures(page);
    await stopTrace(browser, packingTrace, 'package-content scan field', options);
    return [summarise('Inventur article field', inventur), summarise('package-content scan field', packing)];
  } finally {
    await browser.close();
  }
}

async function login(page: Page, base: string): Promise<void> {
  await page.goto(base);
  await page.getByRole('button', { name: 'Mit Name und Passwort anmelden' }).click();
  await page.getByLabel('Name').fill('demo');
  await page.getByLabel('Passwort').fill('demo');
  await page.getByRole('button', { name: 'Anmelden', exact: true }).click();
  await page.getByRole('button', { name: 'Demo Nutzer abmelden' }).waitFor();
}

const MEASURED_BINDING = 'lagerscannerBenchMeasured';

/**
 * Told by the page when a scan's measure is there: an observer in the page calls a binding with the number of
 * measures so far. Nothing of the bench runs in the page while a scan is under way — polling took the
 * throttled CPU from the app, and so did an evaluate sent after the Enter (it ran in the middle of the scan).
 */
class MeasureWatch {
  private count = 0;
  private waiting: { count: number; resolve: () => void } | null = null;

  static async on(context: BrowserContext): Promise<MeasureWatch> {
    const watch = new MeasureWatch();
    await context.exposeBinding(MEASURED_BINDING, (_source, count: number) => {
      watch.count = count;
      if (watch.waiting && count >= watch.waiting.count) watch.waiting.resolve();
    });
    await context.addInitScript(
      ([name, binding]) => {
        // (No named function consts in here: tsx would wrap them in a helper the page does not have.)
        new PerformanceObserver(() => {
          const report = (window as unknown as Record<string, (count: number) => void>)[binding];
          report?.(performance.getEntriesByName(name).length);
        }).observe({ type: 'measure' });
      },
      [SCAN_TO_FEEDBACK, MEASURED_BINDING] as const,
    );
    return watch;
  }

  /** Until the page has this many measures. */
  async until(count: number): Promise<void> {
    if (this.count >= count) return;
    let timer: NodeJS.Timeout | undefined;
    try {
      await new Promise<void>((resolve, reject) => {
        this.waiting = { count, resolve };
        timer = setTimeout(() => reject(new Error(`no ${SCAN_TO_FEEDBACK} measure within 15 s`)), 15_000);
      });
    } finally {
      clearTimeout(timer);
      this.waiting = null;
    }
  }

  /** The page's measures were cleared. */
  cleared(): void {
    this.count = 0;
  }
}

/** Types the code into the focused field like a wedge, Enter, and waits until the app measured its answer. */
async function scanAndWait(watch: MeasureWatch, page: Page, code: string, expected: number): Promise<void> {
  await page.waitForFunction(() => document.activeElement?.classList.contains('scan-input'), undefined, {
    polling: 10,
  });
  await page.keyboard.type(code);
  await page.keyboard.press('Enter');
  await watch.until(expected);
  const alert = await page
    .getByRole('alert')
    .textContent({ timeout: 50 })
    .catch(() => null);
  if (alert?.trim()) throw new Error(`scan ${code} was refused: ${alert.trim()}`);
}

async function clearMeasures(watch: MeasureWatch, page: Page): Promise<void> {
  await page.evaluate((name) => {
    performance.clearMeasures(name);
    performance.clearResourceTimings();
    performance.setResourceTimingBufferSize(2000);
  }, SCAN_TO_FEEDBACK);
  watch.cleared();
}

/** Starts a trace over the page's next scans (`--profile`); returns where it goes, or null. */
async function startTrace(
  browser: Browser,
  page: Page,
  profile: string | null | undefined,
  field: string,
): Promise<string | null> {
  if (!profile) return null;
  const file = `${profile}-${field}.json`;
  // Playwright's default categories: the DevTools timeline, user timing and the JS sampling profiler.
  await browser.startTracing(page, { path: file });
  return file;
}

async function stopTrace(
  browser: Browser,
  file: string | null,
  field: string,
  options: { log: (line: string) => void; webDir: string },
): Promise<void> {
  if (!file) return;
  await browser.stopTracing();
  const summary = summariseTrace(file, options.webDir, field);
  const summaryFile = file.replace(/\.json$/, '.txt');
  fs.writeFileSync(summaryFile, summary);
  options.log(
    `  trace: ${path.relative(process.cwd(), file)} (summary ${path.relative(process.cwd(), summaryFile)})`,
  );
  options.log(summary.replace(/^/gm, '    '));
}

interface Measured {
  scans: { start: number; duration: number; steps: ScanSteps | null }[];
  api: { start: number; end: number }[];
}

async function readMeasures(page: Page): Promise<Measured> {
  return page.evaluate(
    (name) => ({
      scans: performance.getEntriesByName(name).map((entry) => ({
        start: entry.startTime,
        duration: entry.duration,
        steps: ((entry as PerformanceMeasure).detail ?? null) as ScanSteps | null,
      })),
      api: performance
        .getEntriesByType('resource')
        .filter((entry) => entry.name.includes('/api/'))
        .map((entry) => ({ start: entry.startTime, end: (entry as PerformanceResourceTiming).responseEnd })),
    }),
    SCAN_TO_FEEDBACK,
  );
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
};

/** Each scan's steps (`PHASES`, ms): its call is the one started after its Enter and answered before it was. */
function phasesOf(measured: Measured): number[][] {
  const split: number[][] = [];
  for (const scan of measured.scans) {
    const steps = scan.steps;
    if (!steps) continue;
    const calls = measured.api.filter((c) => c.start >= scan.start && c.end <= steps.answered);
    const first = calls[0];
    const last = calls[calls.length - 1];
    if (!first || !last) continue; // answered without a call (refused in the browser)
    const end = scan.start + scan.duration;
    split.push([
      steps.handled - scan.start,
      first.start - steps.handled,
      last.end - first.start,
      steps.answered - last.end,
      steps.rendered - steps.answered,
      steps.frame - steps.rendered,
      end - steps.frame,
    ]);
  }
  return split;
}

function summarise(field: string, measured: Measured): ScanLatency {
  const durations = measured.scans.map((s) => s.duration);
  const median = quantile(durations, 0.5);
  const apiMedian = quantile(
    measured.api.map((c) => c.end - c.start),
    0.5,
  );
  const split = phasesOf(measured);
  return {
    field,
    scans: durations.length,
    median,
    p95: quantile(durations, 0.95),
    apiMedian,
    clientShare: median - apiMedian,
    phases:
      split.length === 0
        ? []
        : PHASES.map((name, i) => ({
            name,
            median: quantile(
              split.map((s) => s[i] ?? 0),
              0.5,
            ),
          })),
  };
}
