import { Writable } from 'node:stream';
import v8 from 'node:v8';
import vm from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lagerplatzPdf } from '../../src/contract/etiketten.ts';
import { zplStream } from '../../src/server/features/etiketten/label-files.ts';
import { writePdf } from '../../src/server/features/etiketten/pdf.ts';
import { prepareLabels } from '../../src/server/features/etiketten/service.ts';
import { directSteps } from '../../src/server/http/back-office.ts';
import { demo } from '../../src/server/seed/demo.ts';
import { loginAs, startTestApp, type TestApp } from '../support/app.ts';
import { caller } from '../support/endpoint-call.ts';

/**
 * A run of 20,000 location labels (issue 21) streams: the file leaves page by page while the locations are
 * read a page at a time, and the server's memory stays under a stated ceiling however large the run.
 */
const LOCATIONS = 20_000;
/**
 * The ceiling: the heap the run holds may grow by at most this while the 20,000-label PDF is written
 * (read after a full collection at every tenth sheet). Measured: 2.7 MB (the PDF itself is 3.4 MB, 834
 * sheets). A writer that kept the file or pdfkit's buffer would also fail
 * the checks on the first bytes and the buffered bytes below.
 */
const HEAP_CEILING_MB = 16;

/**
 * A full garbage collection, so that the heap read after it is what the run holds, not what the collector
 * has not got round to yet (that varied from 9 to 32 MB with the machine's load, and failed once in CI).
 */
v8.setFlagsFromString('--expose-gc');
const collectGarbage = vm.runInNewContext('gc') as () => void;
/** The heap in use after a full collection. */
function retainedHeap(): number {
  collectGarbage();
  return process.memoryUsage().heapUsed;
}

describe('a 20,000-location run', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp('pglite');
    const rows = Array.from({ length: LOCATIONS }, (_, i) => {
      const code = `Z-${String(Math.floor(i / 400) + 1).padStart(2, '0')}-${String((Math.floor(i / 20) % 20) + 1).padStart(2, '0')}-${String((i % 20) + 1).padStart(2, '0')}`;
      return { code, name: code, lagertyp: 'Fach' };
    });
    for (let i = 0; i < rows.length; i += 2000)
      await t.database.db
        .insertInto('locations')
        .values(rows.slice(i, i + 2000))
        .execute();
  }, 120_000);
  afterAll(() => t.close());

  /** A download that reads 64 KB at a time, a little slower than the server writes. */
  function slowClient() {
    const stats = { bytes: 0, chunks: 0, firstAfterLabels: -1, maxBuffered: 0 };
    const sink = new Writable({
      highWaterMark: 64 * 1024,
      write(chunk: Buffer, _encoding, done) {
        stats.bytes += chunk.length;
        stats.chunks++;
        setImmediate(done);
      },
    });
    return { sink, stats };
  }

  it('writes the PDF page by page under the memory ceiling', async () => {
    const prepared = await prepareLabels(
      directSteps,
      t.database.db,
      { kind: 'lagerplatz', from: 'Z-01-01-01', to: 'Z-50-20-20' },
      'a4-70x36',
    );
    expect(prepared.count).toBe(LOCATIONS);
    const { sink, stats } = slowClient();
    let yielded = 0;
    let peakHeap = 0;
    const baseline = retainedHeap();
    async function* counted() {
      for await (const label of prepared.labels()) {
        if (stats.bytes > 0 && stats.firstAfterLabels < 0) stats.firstAfterLabels = yielded;
        yielded++;
        if (yielded % 240 === 0) {
          peakHeap = Math.max(peakHeap, retainedHeap() - baseline);
          stats.maxBuffered = Math.max(stats.maxBuffered, sink.writableLength);
        }
        yield label;
      }
    }
    const started = performance.now();
    const written = await writePdf(directSteps, counted(), 'a4-70x36', sink, 'Etiketten');
    await new Promise((resolve) => sink.on('finish', resolve));
    const seconds = (performance.now() - started) / 1000;
    expect(written).toBe(LOCATIONS);
    // The first bytes were on their way after the first sheets, not after the whole run (-1: only at its end).
    expect(stats.firstAfterLabels).toBeGreaterThanOrEqual(0);
    expect(stats.firstAfterLabels).toBeLessThan(100);
    // Never more than a sheet or two waits for the client.
    expect(stats.maxBuffered).toBeLessThan(512 * 1024);
    // Each wait for the slow client took its listeners along (one left per wait piled up past Node's 10).
    expect(
      sink.listenerCount('close') + sink.listenerCount('drain') + sink.listenerCount('error'),
    ).toBeLessThan(8);
    const heapMb = peakHeap / 2 ** 20;
    console.info(
      `20,000 location labels: PDF ${(stats.bytes / 2 ** 20).toFixed(1)} MB (${Math.ceil(LOCATIONS / 24)} A4 sheets) in ${seconds.toFixed(1)} s, heap growth at most ${heapMb.toFixed(1)} MB`,
    );
    expect(heapMb).toBeLessThan(HEAP_CEILING_MB);
  }, 300_000);

  it('streams the ZPL too, in chunks of at most 64 KB', async () => {
    const prepared = await prepareLabels(
      directSteps,
      t.database.db,
      { kind: 'lagerplatz', from: 'Z-01-01-01', to: 'Z-50-20-20' },
      '100x50',
    );
    let bytes = 0;
    let chunks = 0;
    for await (const chunk of zplStream(directSteps, prepared, { size: '100x50', dpi: 203 })) {
      bytes += chunk.length;
      chunks++;
      expect(chunk.length).toBeLessThan(70_000);
    }
    expect(chunks).toBeGreaterThan(10);
    console.info(`20,000 location labels as ZPL: ${(bytes / 2 ** 20).toFixed(1)} MB`);
  }, 300_000);

  it('the download of the whole range answers a PDF of 834 sheets', async () => {
    const lead = await loginAs(t.app, demo.leadUser);
    const res = await caller(t.app, lead)(lagerplatzPdf, { query: { from: 'Z-01-01-01', to: 'Z-50-20-20' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-labels']).toBe(String(LOCATIONS));
    expect(res.rawPayload.subarray(-6).toString()).toContain('%%EOF');
    expect((res.body.match(/\/Type \/Page\b/g) ?? []).length).toBe(Math.ceil(LOCATIONS / 24));
  }, 300_000);
});
