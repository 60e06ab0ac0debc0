import { Writable } from 'node:stream';
import { parentPort, workerData } from 'node:worker_threads';
import { directSteps } from '../../http/back-office.ts';
import { lowerThisThreadsPriority } from '../../workers.ts';
import type { Label } from './label.ts';
import { writePdf } from './pdf.ts';
import type { FromRenderer, RenderJob, ToRenderer } from './rendered.ts';
import { zplLabel } from './zpl.ts';

/**
 * A label file drawn in a worker thread (rendered.ts starts it): the barcodes, the PDF's pages and their
 * compression, the ZPL — seconds of work for 20,000 labels — never on the thread that answers the handhelds.
 * The server sends the labels a batch at a time; each batch is answered with the bytes it made and 'taken',
 * so no more than one batch is in flight and the file never piles up here.
 */
const port = parentPort;
if (!port) throw new Error('label worker: not started as a worker thread');
lowerThisThreadsPriority();
const job = workerData as RenderJob;
const post = (message: FromRenderer, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

/** Bytes made since the last answer, sent together with the next (PDF objects come in many small pieces). */
let made: Buffer[] = [];
function send(type: 'taken' | 'done'): void {
  const bytes = Buffer.concat(made);
  made = [];
  // A fresh buffer of its own (concat's, unless empty or pooled): moved to the server, not copied.
  const owned = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  post({ type, bytes }, owned && bytes.byteLength > 0 ? [bytes.buffer as ArrayBuffer] : []);
}

const batches: (Label[] | null)[] = [];
let wake: (() => void) | null = null;
port.on('message', (message: ToRenderer) => {
  batches.push(message.type === 'labels' ? message.labels : null);
  wake?.();
  wake = null;
});

/** The labels as the server sends them; after each batch, its bytes and 'taken' ask for the next. */
async function* incoming(): AsyncGenerator<Label> {
  for (let first = true; ; first = false) {
    if (!first) send('taken');
    while (batches.length === 0) await new Promise<void>((resolve) => (wake = resolve));
    const batch = batches.shift();
    if (!batch) return;
    yield* batch;
  }
}

async function render(): Promise<void> {
  if (job.format === 'zpl') {
    for await (const label of incoming()) made.push(Buffer.from(zplLabel(label, job.size, job.dpi)));
  } else {
    const out = new Writable({
      write(chunk: Buffer, _encoding, done) {
        made.push(chunk);
        done();
      },
    });
    await writePdf(directSteps, incoming(), job.size, out, job.title);
  }
  send('done');
}

render().catch((error: unknown) => {
  post({ type: 'failed', message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
});
