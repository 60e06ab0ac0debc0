import { parentPort, workerData } from 'node:worker_threads';
import { inputErrorMessage } from '../../contract/input-errors.ts';
import { runImport } from '../../contract/leitstand/import.ts';
import { texts } from '../../contract/texts.ts';
import { decodeCsv } from './encoding.ts';
import { type FileRead, readCsvText } from './read.ts';
import type { ToReader, WorkerInput } from './source.ts';

/**
 * The import's reading in a worker thread (source.ts starts it): the upload's JSON and base64, the file's
 * encoding, the CSV and every row's checks run here, never on the thread that answers the handhelds. It
 * answers what it found, then one batch of rows each time it is asked for the next (so no more than one
 * batch at a time is in flight to the server's thread).
 */
const port = parentPort;
if (!port) throw new Error('import worker: not started as a worker thread');
const post = (message: ToReader) => port.postMessage(message);

function opened(input: WorkerInput): { fileName: string; bytes: Uint8Array } | ToReader {
  if (input.form === 'file') return { fileName: '', bytes: input.bytes };
  let body: unknown;
  try {
    body = JSON.parse(
      Buffer.from(input.bytes.buffer, input.bytes.byteOffset, input.bytes.byteLength).toString('utf8'),
    );
  } catch {
    return { type: 'invalid', message: texts.errors.invalidJson };
  }
  const parsed = runImport.body.safeParse(body, { reportInput: true });
  if (!parsed.success)
    return { type: 'invalid', message: inputErrorMessage(runImport.name, parsed.error.issues[0]) };
  return { fileName: parsed.data.fileName, bytes: Buffer.from(parsed.data.content, 'base64') };
}

function read(input: WorkerInput): FileRead | null {
  const file = opened(input);
  if ('type' in file) {
    post(file);
    return null;
  }
  const decoded = decodeCsv(file.bytes);
  if (!decoded.ok) {
    post({ type: 'undecodable', reason: decoded.reason });
    return null;
  }
  let nextShare = 0.1;
  const result = readCsvText(input.kind, decoded.text, (share) => {
    if (share < nextShare) return;
    nextShare = share + 0.1;
    post({ type: 'progress', share });
  });
  post({ type: 'facts', fileName: file.fileName, encoding: decoded.encoding, facts: result.facts });
  return result;
}

const result = read(workerData as WorkerInput);
if (result) {
  let next = 0;
  port.on('message', (message: { type: 'next' }) => {
    if (message.type !== 'next') return;
    const batch = result.batches[next];
    // Sent batches are let go: the rows read shrink as the server takes them.
    result.batches[next] = [];
    next++;
    post(batch ? { type: 'batch', rows: batch } : { type: 'end' });
  });
}
