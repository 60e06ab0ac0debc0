import { once } from 'node:events';
import type { Writable } from 'node:stream';

/**
 * Waits until `out` wants more, or is gone: a document written page by page (the label PDFs, the
 * Inventurliste) holds its drawing while a slow download has more buffered than it wants, not the memory.
 */
export async function drained(out: Writable): Promise<void> {
  if (out.destroyed || !out.writableNeedDrain) return;
  // Whichever comes first; the other's listeners go with it (a waiting listener per sheet piled up).
  const done = new AbortController();
  const waits = [once(out, 'drain', { signal: done.signal }), once(out, 'close', { signal: done.signal })];
  for (const wait of waits) wait.catch(() => {});
  try {
    await Promise.race(waits);
  } finally {
    done.abort();
  }
}
