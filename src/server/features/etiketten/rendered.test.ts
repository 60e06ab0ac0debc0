import fs from 'node:fs';
import { PassThrough, type Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { pdfWords, zplLabels } from '../../../../test/support/labels.ts';
import { directSteps } from '../../http/back-office.ts';
import type { Label } from './label.ts';
import { zplStream } from './label-files.ts';
import { writePdf } from './pdf.ts';
import { renderedInWorker } from './rendered.ts';
import type { PreparedLabels } from './service.ts';

/**
 * A long label run drawn in a worker thread (rendered.ts, render-worker.ts): the same file as drawn on the
 * server's thread, pulled by its reader a batch at a time, and ended with its reader.
 */

/** `count` location labels, as a range would give them; `pulled` says how many the file has taken so far. */
function locations(count: number) {
  const seen = { pulled: 0, closed: false };
  const prepared: PreparedLabels = {
    count,
    labels: async function* () {
      try {
        for (let i = 0; i < count; i++) {
          seen.pulled++;
          const code = `Z-${String(Math.floor(i / 400)).padStart(2, '0')}-${String(Math.floor(i / 20) % 20).padStart(2, '0')}-${String(i % 20).padStart(2, '0')}`;
          const label: Label = {
            kind: 'lagerplatz',
            symbol: { type: 'code128', data: code },
            title: code,
            lines: [i % 7 === 0 ? 'Fach für Größe Ü' : 'Regal Z'],
            arrow: i % 2 === 0 ? 'hoch' : 'runter',
          };
          yield label;
        }
      } finally {
        seen.closed = true;
      }
    },
  };
  return { prepared, seen };
}

const job = { size: 'a4-70x36', dpi: 203, title: 'Etiketten: Lagerplatz' } as const;

describe('a label file drawn in a worker thread', () => {
  it('is the same ZPL as drawn on the server’s thread, every label once and in order', async () => {
    const { prepared } = locations(1_000);
    const inWorker = (
      await buffer(renderedInWorker(prepared, { ...job, format: 'zpl', size: '100x50' }))
    ).toString();
    let here = '';
    for await (const chunk of zplStream(directSteps, prepared, { size: '100x50', dpi: 203 })) here += chunk;
    expect(zplLabels(inWorker)).toHaveLength(1_000);
    expect(inWorker).toBe(here);
  }, 60_000);

  it('is the same PDF as drawn on the server’s thread: the same sheets with the same words in the same places', async () => {
    const { prepared } = locations(300);
    const inWorker = await buffer(renderedInWorker(prepared, { ...job, format: 'pdf' }));
    const out = new PassThrough();
    const [here] = await Promise.all([
      buffer(out),
      writePdf(directSteps, prepared.labels(), job.size, out, job.title),
    ]);
    expect(inWorker.subarray(0, 5).toString()).toBe('%PDF-');
    const pages = await pdfWords(inWorker);
    expect(pages).toHaveLength(Math.ceil(300 / 24));
    expect(pages).toEqual(await pdfWords(here));
  }, 60_000);

  it('draws no further ahead than its reader: a reader that stops holds back the labels after a batch or two', async () => {
    const { prepared, seen } = locations(20_000);
    const file = renderedInWorker(prepared, { ...job, format: 'zpl', size: '100x50' });
    const first = await firstChunk(file);
    expect(first.toString()).toMatch(/^\^XA/);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    // A batch is 256 labels: the one read, the one the stream's buffer took, one in the worker.
    expect(seen.pulled).toBeLessThanOrEqual(3 * 256);
    file.destroy();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(seen.closed).toBe(true);
  }, 60_000);

  it.runIf(process.platform === 'linux')(
    'runs at the lowest CPU priority, beside the handhelds’ thread at its own',
    async () => {
      expect(nicedThreads()).toEqual([]);
      const { prepared } = locations(20_000);
      // BACK_OFFICE_NICE as a server has it unless an operator sets it (the test run sets 0: vitest.config.ts).
      const given = process.env.BACK_OFFICE_NICE;
      delete process.env.BACK_OFFICE_NICE;
      const file = renderedInWorker(prepared, { ...job, format: 'zpl', size: '100x50' });
      if (given !== undefined) process.env.BACK_OFFICE_NICE = given;
      await firstChunk(file);
      expect(nicedThreads()).toEqual([19]);
      file.destroy();
    },
    60_000,
  );
});

/** The nice values of this process's threads that run below its main thread's priority (Linux). */
function nicedThreads(): number[] {
  const niceOf = (tid: string) =>
    Number(fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1]?.split(' ')[16]);
  const own = niceOf(String(process.pid));
  return fs
    .readdirSync('/proc/self/task')
    .map(niceOf)
    .filter((nice) => nice > own);
}

/** The stream's first chunk; the stream stays paused after it. */
function firstChunk(stream: Readable): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    stream.once('error', reject);
    stream.once('data', (chunk: Buffer) => {
      stream.pause();
      resolve(chunk);
    });
  });
}
