import { useSyncExternalStore } from 'react';
import type { z } from 'zod';
import type { Endpoint } from '../../../contract/endpoint.ts';
import { isOfflineCall } from '../../../contract/outbox.ts';
import { connection } from '../../state/connection.ts';
import { api } from '../api.ts';
import { ApiError, NetworkError } from '../client.ts';
import { readSession } from '../session.ts';
import { idbStore } from './idb-store.ts';
import { createOutbox, type OutboxEntry } from './outbox.ts';

export type { OutboxEntry } from './outbox.ts';

async function endpointOf(call: string): Promise<Endpoint> {
  // Loaded when first needed: the contract (and zod) is not part of the first screen's bundle.
  const { outboxEndpoints } = await import('../../../contract/outbox-endpoints.ts');
  if (!isOfflineCall(call)) throw new Error(`outbox: ${call} is not a capture call`);
  return outboxEndpoints[call];
}

export const outbox = createOutbox({
  store: idbStore(),
  currentUser() {
    const session = readSession();
    return session ? { id: session.id, name: session.name } : null;
  },
  async send(entry: OutboxEntry) {
    const endpoint = await endpointOf(entry.call);
    await api.call(endpoint, { body: entry.body, idempotencyKey: entry.key, on401: 'scan' });
  },
});

if (typeof window !== 'undefined') {
  // Send when the connection returns: the browser's network flag, or any call getting an answer again
  // (connection.ts follows the browser's online event too).
  let wasConnected = connection.connected();
  connection.subscribe(() => {
    const connected = connection.connected();
    if (connected && !wasConnected) void outbox.flush();
    wasConnected = connected;
  });
  void outbox.start(); // app start
}

/**
 * No verdict on the scan: no answer at all, a gateway saying the server is not there, or our own server
 * overloaded (503 with Retry-After, decision 26) — it did nothing with the scan.
 */
function unreachable(error: unknown): boolean {
  return (
    error instanceof NetworkError || (error instanceof ApiError && [502, 503, 504].includes(error.status))
  );
}

type CaptureOutcome<T> = { saved: false; answer: T } | { saved: true };

/**
 * Sends a capture scan, or — when the server cannot be reached — keeps it in the outbox under the key its
 * first try carried ('Gespeichert – wird gesendet'). While older scans of this worker wait, a new one queues
 * behind them, so the server gets them in scan order. A refusal (4xx) is thrown as before: online, the
 * worker sees it at once.
 */
export async function captureScan<E extends Endpoint>(
  endpoint: E,
  body: z.input<E['body']>,
  label: string,
  /** A form's action key (action-key.ts), kept across its own retries; a scan's is new. */
  key: string = crypto.randomUUID(),
): Promise<CaptureOutcome<z.output<E['response']>>> {
  if (!isOfflineCall(endpoint.name)) throw new Error(`outbox: ${endpoint.name} is not a capture call`);
  const session = readSession();
  const keep = async (retryAfterMs: number | null = null) => {
    if (!session) throw new NetworkError();
    const entry = { key, userId: session.id, userName: session.name, call: endpoint.name, body, label };
    await outbox.add(entry, retryAfterMs);
  };
  if (session && outbox.hasPending(session.id)) {
    await keep();
    if (connection.connected()) void outbox.nudge();
    return { saved: true };
  }
  try {
    return { saved: false, answer: await api.call(endpoint, { body, idempotencyKey: key, on401: 'scan' }) };
  } catch (error) {
    if (!unreachable(error)) throw error;
    await keep(error instanceof ApiError ? error.retryAfterMs : null);
    return { saved: true };
  }
}

/** Every scan in the outbox (all users'), re-rendering when it changes. */
export function useOutboxEntries(): readonly OutboxEntry[] {
  return useSyncExternalStore(outbox.subscribe, outbox.entries, outbox.entries);
}
