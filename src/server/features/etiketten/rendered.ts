import { Readable } from 'node:stream';
import type { Dpi, LabelSize } from '../../../contract/etiketten.ts';
import { startWorker } from '../../workers.ts';
import type { Label } from './label.ts';
import type { PreparedLabels } from './service.ts';

/** What the label worker draws (render-worker.ts). */
export interface RenderJob {
  format: 'pdf' | 'zpl';
  size: LabelSize;
  dpi: Dpi;
  /** The PDF's title. */
  title: string;
}

export type ToRenderer = { type: 'labels'; labels: Label[] } | { type: 'end' };
export type FromRenderer =
  /** The bytes one batch made (may be none: a PDF writes a page when it is full), and: send the next. */
  | { type: 'taken'; bytes: Uint8Array }
  /** The file's last bytes. */
  | { type: 'done'; bytes: Uint8Array }
  | { type: 'failed'; message: string };

/**
 * Labels sent to the worker at once: a batch of location labels takes ≈ 20 ms to draw as ZPL there, and its
 * copy to the worker a fraction of a millisecond here.
 */
const LABELS_PER_BATCH = 256;

/**
 * The worker's heap: a run holds a batch and a page, a few MB live. Without limits V8 let it grow before
 * collecting, and a worker drawing 20,000 labels as PDF added 142 MB to the server's RSS; with these, 74 MB
 * (ZPL 59 MB), all given back when it ends.
 */
const WORKER_HEAP = { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 8 };

/**
 * The labels as a file drawn in a worker thread (render-worker.ts), for a run too long for the server's
 * thread: here only the labels are read (`prepared`, in steps behind the floor) and the bytes handed on.
 * The file is pulled: the next batch goes to the worker when the reader of the stream (the download's
 * socket, a print job) wants more and the worker has taken the one before, so a slow download holds at most
 * a batch. Destroying the stream (the browser went away) ends the worker and the reading.
 */
export function renderedInWorker(prepared: PreparedLabels, job: RenderJob): Readable {
  const worker = startWorker('label-worker', { workerData: job, resourceLimits: WORKER_HEAP });
  const labels = prepared.labels()[Symbol.asyncIterator]();
  let inFlight = false;
  let allSent = false;
  let finished = false;

  async function sendNext(): Promise<void> {
    if (inFlight || allSent || stream.destroyed) return;
    inFlight = true;
    const batch: Label[] = [];
    while (batch.length < LABELS_PER_BATCH) {
      const next = await labels.next();
      if (next.done) {
        allSent = true;
        break;
      }
      batch.push(next.value);
    }
    if (stream.destroyed) return;
    if (batch.length > 0) worker.postMessage({ type: 'labels', labels: batch } satisfies ToRenderer);
    if (allSent) worker.postMessage({ type: 'end' } satisfies ToRenderer);
  }
  const go = () => sendNext().catch((error: unknown) => stream.destroy(error as Error));

  const stream = new Readable({
    read: go,
    destroy(error, done) {
      finished = true;
      void worker.terminate();
      void labels.return?.(undefined);
      done(error);
    },
  });
  worker.on('message', (message: FromRenderer) => {
    if (message.type === 'failed') {
      stream.destroy(new Error(`label worker: ${message.message}`));
      return;
    }
    const bytes = Buffer.from(message.bytes.buffer, message.bytes.byteOffset, message.bytes.byteLength);
    const wantsMore = bytes.byteLength === 0 || stream.push(bytes);
    if (message.type === 'done') {
      finished = true;
      stream.push(null);
      void worker.terminate();
      return;
    }
    inFlight = false;
    if (wantsMore) go();
  });
  worker.on('error', (error) => stream.destroy(error));
  worker.on('exit', (code) => {
    if (!finished) stream.destroy(new Error(`label worker: ended (exit code ${code})`));
  });
  return stream;
}
