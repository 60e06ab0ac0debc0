import { startWorker } from '../workers.ts';
import type { CsvEncoding } from './encoding.ts';
import type { Line } from './framework.ts';
import type { KindName } from './kinds/index.ts';
import { type FileFacts, type FileRead, readCsvText } from './read.ts';
import { readInput, type WorkerInput } from './read-input.ts';

export type { WorkerInput };

/**
 * Where an import's rows come from: what reading the file found (`opened`), then its batches one at a time
 * (`next`). The server and `npm run import` read in a worker thread (`workerSource`); a text already in
 * memory (tests, small files) is read where it is (`textSource`).
 */
export interface RowSource {
  opened: Promise<Opened>;
  /** The next batch of whole units, or null after the last. */
  next(): Promise<Line<unknown>[] | null>;
  /** Ends the reading (the worker), also half-way. */
  close(): Promise<void>;
}

export type Opened =
  | { ok: true; fileName: string; encoding: CsvEncoding; facts: FileFacts }
  /** The upload's body is not what the call takes (German message, 400). */
  | { ok: false; invalid: string }
  /** Neither UTF-8 nor Windows-1252 (English advice, as the CLI prints it). */
  | { ok: false; undecodable: string };

/** What the worker answers. */
export type ToReader =
  | { type: 'progress'; share: number }
  | { type: 'invalid'; message: string }
  | { type: 'undecodable'; reason: string }
  | { type: 'facts'; fileName: string; encoding: CsvEncoding; facts: FileFacts }
  | { type: 'batch'; rows: Line<unknown>[] }
  | { type: 'end' };

/** The worker ran out of its memory (`maxHeapMb`): the file has more rows than an upload may. */
export class TooManyRows extends Error {
  constructor() {
    super('import worker: the file has more rows than its memory holds');
    this.name = 'TooManyRows';
  }
}

/** A decoded text, read here and now (no worker). */
export function textSource(kind: KindName, text: string, encoding: CsvEncoding = 'UTF-8'): RowSource {
  return readSource(readCsvText(kind, text), '', encoding);
}

function readSource(read: FileRead, fileName: string, encoding: CsvEncoding): RowSource {
  let next = 0;
  return {
    opened: Promise.resolve({ ok: true, fileName, encoding, facts: read.facts }),
    next: async () => {
      const batch = read.batches[next];
      if (!batch) return null;
      read.batches[next++] = [];
      return batch;
    },
    close: async () => {},
  };
}

/**
 * Upload bodies up to this size (≈ 300 article lines) are read where they are, in 1–3 ms: a worker takes
 * far longer to start (its modules loaded afresh: 50–300 ms), and most of an ERP's pushes are this small.
 * Larger ones are read in the worker.
 */
export const INLINE_READ_BYTES = 16 * 1024;

/** An import's input read where it is (`INLINE_READ_BYTES`) or in a worker thread (`workerSource`). */
export function inputSource(
  input: WorkerInput,
  options: { maxHeapMb?: number; onProgress?: (share: number) => void } = {},
): RowSource {
  if (input.bytes.byteLength > INLINE_READ_BYTES) return workerSource(input, options);
  const result = readInput(input);
  if (result.type === 'invalid') return emptySource(Promise.resolve({ ok: false, invalid: result.message }));
  if (result.type === 'undecodable')
    return emptySource(Promise.resolve({ ok: false, undecodable: result.reason }));
  return readSource(result.read, result.fileName, result.encoding);
}

const emptySource = (opened: Promise<Opened>): RowSource => ({
  opened,
  next: async () => null,
  close: async () => {},
});

/**
 * Reads in a worker thread: `bytes` (an upload's JSON body or a file) are moved there, not copied, when
 * they own their memory. `maxHeapMb` bounds the worker's heap (an upload): a file of more rows than fit ends
 * with TooManyRows instead of growing the server. The worker ends with `close`.
 */
export function workerSource(
  input: WorkerInput,
  options: { maxHeapMb?: number; onProgress?: (share: number) => void } = {},
): RowSource {
  const whole = input.bytes.byteOffset === 0 && input.bytes.byteLength === input.bytes.buffer.byteLength;
  const worker = startWorker('import-worker', {
    workerData: input,
    transferList: whole ? [input.bytes.buffer as ArrayBuffer] : [],
    ...(options.maxHeapMb ? { resourceLimits: { maxOldGenerationSizeMb: options.maxHeapMb } } : {}),
  });
  let failure: Error | null = null;
  let waiting: { resolve: (message: ToReader) => void; reject: (error: Error) => void } | null = null;
  const queue: ToReader[] = [];
  const fail = (error: Error) => {
    failure ??= error;
    waiting?.reject(failure);
    waiting = null;
  };
  worker.on('message', (message: ToReader) => {
    if (message.type === 'progress') {
      options.onProgress?.(message.share);
      return;
    }
    if (waiting) {
      waiting.resolve(message);
      waiting = null;
    } else queue.push(message);
  });
  worker.on('error', (error: Error & { code?: string }) =>
    fail(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new TooManyRows() : error),
  );
  worker.on('exit', (code) => fail(new Error(`import worker: ended (exit code ${code})`)));
  const receive = (): Promise<ToReader> => {
    const queued = queue.shift();
    if (queued) return Promise.resolve(queued);
    if (failure) return Promise.reject(failure);
    return new Promise((resolve, reject) => {
      waiting = { resolve, reject };
    });
  };
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await worker.terminate();
  };
  const opened = receive().then((message): Opened => {
    if (message.type === 'facts')
      return { ok: true, fileName: message.fileName, encoding: message.encoding, facts: message.facts };
    void close();
    if (message.type === 'invalid') return { ok: false, invalid: message.message };
    if (message.type === 'undecodable') return { ok: false, undecodable: message.reason };
    throw new Error(`import worker: answered ${message.type} first`);
  });
  // Nobody may be waiting for the answer yet: its failure is read through `opened` itself.
  opened.catch(() => {});
  return {
    opened,
    next: async () => {
      await opened;
      worker.postMessage({ type: 'next' });
      const message = await receive();
      if (message.type === 'batch') return message.rows;
      if (message.type === 'end') return null;
      throw new Error(`import worker: answered ${message.type} for a batch`);
    },
    close,
  };
}
