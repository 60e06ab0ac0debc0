import { type Kysely, sql } from 'kysely';
import { type Browser, chromium, type Page } from 'playwright-core';
import { chromiumArgs, chromiumExecutable } from '../e2e/support/chromium.ts';
import type { Database } from '../src/server/db/schema.ts';
import { largeArticleNummer, largeEan, largeLocationCode } from '../src/server/db/seed/large.ts';
import { DEVICE_SETTINGS_KEY } from '../src/web/api/session.ts';
import { SCAN_TO_FEEDBACK } from '../src/web/ui/scan-field.tsx';

/**
 * Scan-to-feedback in a real Chromium at 360×640 with its CPU throttled 4× (a handheld's CPU): scans typed as
 * a keyboard wedge types them, the time from the Enter keydown to the answer painted as the app itself
 * measures it (user timing `scan-to-feedback`, src/web/ui/scan-field.tsx). Two fields: the Inventur article
 * field (a lookup, the article then locked) and the package-content scan field (a booking of one piece).
 */
export interface ScanLatency {
  field: string;
  scans: number;
  median: number;
  p95: number;
  /** Median of the API calls' own time in the browser (request sent → answer read): network + server. */
  apiMedian: number;
}

/** The delivery note the package-content run packs: 51 lines of 4 pieces, each line at most 5 (no dialog). */
export const BENCH_NOTE = 'LSBENCH01';
const NOTE_LINES = 51;
const PIECES_PER_LINE = 4;

/** Writes the bench's delivery note into the large warehouse (before the server starts). */
export async function addBenchNote(db: Kysely<Database>): Promise<void> {
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
    where nummer in (${sql.join(Array.from({ length: NOTE_LINES }, (_, i) => largeArticleNummer(1 + i * 97)))})`.execute(
    db,
  );
}

export async function measureScanLatency(options: {
  base: string;
  scans: number;
  articles: number;
  log: (line: string) => void;
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
    const page = await context.newPage();
    await login(page, options.base);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });

    options.log('  Chromium (4× CPU throttling): Inventur article field …');
    await page.goto(`${options.base}/inventur`);
    await scanAndWait(page, largeLocationCode(1), 1);
    await page.getByRole('button', { name: 'Lagerplatz leeren' }).waitFor();
    await clearMeasures(page);
    for (let n = 1; n <= options.scans; n++) {
      // Article numbers and EANs with and without their leading 0, spread over the warehouse.
      const i = 1 + ((n * 7919) % options.articles);
      const ean = largeEan(i);
      const otherEan = ean.startsWith('0') ? ean.slice(1) : `0${ean}`;
      const code = [largeArticleNummer(i), ean, otherEan][n % 3] ?? ean;
      await scanAndWait(page, code, n);
      await page.getByRole('button', { name: 'Artikel leeren' }).click();
    }
    const inventur = await readMeasures(page);

    options.log('  Chromium (4× CPU throttling): package-content scan field …');
    await page.goto(`${options.base}/paketinhalt`);
    await clearMeasures(page);
    await scanAndWait(page, BENCH_NOTE, 1);
    await page.getByLabel('Artikel scannen').waitFor();
    await clearMeasures(page);
    const pieces = Math.min(options.scans, NOTE_LINES * PIECES_PER_LINE - 1);
    for (let n = 1; n <= pieces; n++) {
      const line = Math.floor((n - 1) / PIECES_PER_LINE);
      await scanAndWait(page, largeArticleNummer(1 + line * 97), n);
    }
    const packing = await readMeasures(page);
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

/** Types the code into the focused field like a wedge, Enter, and waits until the app measured its answer. */
async function scanAndWait(page: Page, code: string, expected: number): Promise<void> {
  await page.waitForFunction(() => document.activeElement?.classList.contains('scan-input'), undefined, {
    polling: 10,
  });
  await page.keyboard.type(code);
  await page.keyboard.press('Enter');
  // Told by the page when the measure is there: polling from here would take the throttled CPU from the app.
  await page.evaluate(
    ([name, count]) =>
      new Promise<void>((resolve, reject) => {
        // (No named function consts in here: tsx would wrap them in a helper the page does not have.)
        if (performance.getEntriesByName(name).length >= count) return resolve();
        const timer = setTimeout(() => reject(new Error(`no ${name} measure within 15 s`)), 15_000);
        const observer = new PerformanceObserver(() => {
          if (performance.getEntriesByName(name).length < count) return;
          observer.disconnect();
          clearTimeout(timer);
          resolve();
        });
        observer.observe({ type: 'measure' });
      }),
    [SCAN_TO_FEEDBACK, expected] as const,
  );
  const alert = await page
    .getByRole('alert')
    .textContent({ timeout: 50 })
    .catch(() => null);
  if (alert?.trim()) throw new Error(`scan ${code} was refused: ${alert.trim()}`);
}

async function clearMeasures(page: Page): Promise<void> {
  await page.evaluate((name) => {
    performance.clearMeasures(name);
    performance.clearResourceTimings();
    performance.setResourceTimingBufferSize(2000);
  }, SCAN_TO_FEEDBACK);
}

async function readMeasures(page: Page): Promise<{ scans: number[]; api: number[] }> {
  return page.evaluate(
    (name) => ({
      scans: performance.getEntriesByName(name).map((entry) => entry.duration),
      api: performance
        .getEntriesByType('resource')
        .filter((entry) => entry.name.includes('/api/'))
        .map((entry) => entry.duration),
    }),
    SCAN_TO_FEEDBACK,
  );
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
};

function summarise(field: string, measured: { scans: number[]; api: number[] }): ScanLatency {
  return {
    field,
    scans: measured.scans.length,
    median: quantile(measured.scans, 0.5),
    p95: quantile(measured.scans, 0.95),
    apiMedian: quantile(measured.api, 0.5),
  };
}
