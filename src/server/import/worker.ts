import { parentPort, workerData } from 'node:worker_threads';
import { lowerThisThreadsPriority } from '../workers.ts';
import type { FileRead } from './read.ts';
import { readInput } from './read-input.ts';
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
lowerThisThreadsPriority();

function read(input: WorkerInput): FileRead | null {
  let nextShare = 0.1;
  const result = readInput(input, (share) => {
    if (share < nextShare) return;
    nextShare = share + 0.1;
    post({ type: 'progress', share });
  });
  if (result.type !== 'read') {
    post(result);
    return null;
  }
  post({ type: 'facts', fileName: result.fileName, encoding: result.encoding, facts: result.read.facts });
  return result.read;
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
