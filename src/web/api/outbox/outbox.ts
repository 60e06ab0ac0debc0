import { ApiError } from '../client.ts';

/**
 * The outbox of capture scans (decision 11): a scan that could not reach the server waits here — in the
 * browser's IndexedDB, so a reload or a dead battery does not lose it — and is sent later, in the order it
 * was scanned, under the idempotency key of its first try, so a scan whose first try did reach the server
 * is applied once. A scan belongs to the worker who scanned it: only that worker's login sends it.
 */
export interface OutboxEntry {
  /** The X-Idempotency-Key of the scan's first try; every later try sends the same. */
  key: string;
  /** Order of scanning; the outbox sends the lowest first. */
  seq: number;
  userId: number;
  userName: string;
  /** Which capture call (a name of `offlineCalls`). */
  call: string;
  body: unknown;
  /** What was scanned, as the list shows it. */
  label: string;
  /** When it was scanned (ms since 1970). */
  at: number;
  /** 'failed': the server refused it; it stays until the worker acknowledges it. */
  state: 'pending' | 'failed';
  /** The server's reason, for a refused scan. */
  message?: string;
}

/** Where the entries are kept (IndexedDB in the app, memory in unit tests). */
export interface OutboxStore {
  all(): Promise<OutboxEntry[]>;
  put(entry: OutboxEntry): Promise<void>;
  delete(key: string): Promise<void>;
}

/**
 * What became of one try: applied, refused by the server (4xx), or no verdict yet (no answer, 5xx, 401) —
 * with the wait an overloaded server asked for (503 Retry-After, decision 26).
 */
type SendOutcome =
  | { kind: 'sent' }
  | { kind: 'refused'; message: string }
  | { kind: 'later'; retryAfterMs: number | null };

export interface OutboxUser {
  id: number;
  name: string;
}

interface OutboxDeps {
  store: OutboxStore;
  /** Sends one scan with its own key. */
  send(entry: OutboxEntry): Promise<void>;
  /** The worker logged in now, or null. */
  currentUser(): OutboxUser | null;
}

/**
 * Waits between tries after a try got no verdict: 2 s, 4 s, 8 s, 16 s, then every 30 s — or longer, when an
 * overloaded server asked for longer (Retry-After).
 */
const RETRY_DELAYS_MS = [2_000, 4_000, 8_000, 16_000, 30_000] as const;

/**
 * A verdict the server gave on the scan itself (400 unknown batch, 404 unknown tracking, 409 …): sending it
 * again would get the same answer. Not: no answer, a server error, 401 (the login ran out — the worker logs
 * in again and it is sent then), 408 and 429 (try later).
 */
function isRefusal(error: unknown): error is ApiError {
  return (
    error instanceof ApiError &&
    error.status >= 400 &&
    error.status < 500 &&
    ![401, 408, 429].includes(error.status)
  );
}

type NewEntry = Omit<OutboxEntry, 'seq' | 'state' | 'message' | 'at'> & { at?: number };

export function createOutbox(deps: OutboxDeps) {
  let entries: readonly OutboxEntry[] = [];
  const listeners = new Set<() => void>();
  let loading: Promise<void> | null = null;
  let flushing: Promise<void> | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let failedTries = 0;
  /** The planned try waits because the server said it was overloaded: a new scan does not send sooner. */
  let serverAskedToWait = false;

  function changed(next: readonly OutboxEntry[]) {
    entries = next;
    for (const listener of listeners) listener();
  }

  function load(): Promise<void> {
    loading ??= deps.store.all().then((stored) => {
      // Entries added before the store answered stay, after the stored ones.
      const known = new Set(stored.map((e) => e.key));
      changed([...stored, ...entries.filter((e) => !known.has(e.key))].sort((a, b) => a.seq - b.seq));
    });
    return loading;
  }

  function schedule(retryAfterMs: number | null = null) {
    if (timer) clearTimeout(timer);
    const backoff = RETRY_DELAYS_MS[Math.min(failedTries, RETRY_DELAYS_MS.length - 1)] ?? 30_000;
    const delay = Math.max(backoff, retryAfterMs ?? 0);
    serverAskedToWait = retryAfterMs !== null;
    failedTries++;
    timer = setTimeout(() => {
      timer = null;
      void flush();
    }, delay);
  }

  async function sendOne(entry: OutboxEntry): Promise<SendOutcome> {
    try {
      await deps.send(entry);
      return { kind: 'sent' };
    } catch (error) {
      if (isRefusal(error)) return { kind: 'refused', message: error.message };
      return { kind: 'later', retryAfterMs: error instanceof ApiError ? error.retryAfterMs : null };
    }
  }

  async function run(): Promise<void> {
    await load();
    for (;;) {
      const user = deps.currentUser();
      if (!user) return;
      const next = entries.find((e) => e.state === 'pending' && e.userId === user.id);
      if (!next) {
        failedTries = 0;
        return;
      }
      const outcome = await sendOne(next);
      if (outcome.kind === 'later') {
        schedule(outcome.retryAfterMs);
        return;
      }
      failedTries = 0;
      if (outcome.kind === 'sent') {
        await deps.store.delete(next.key);
        changed(entries.filter((e) => e.key !== next.key));
      } else {
        const failed: OutboxEntry = { ...next, state: 'failed', message: outcome.message };
        await deps.store.put(failed);
        changed(entries.map((e) => (e.key === next.key ? failed : e)));
      }
    }
  }

  /** Sends the current worker's waiting scans in order, until one gets no verdict (then tries again later). */
  function flush(): Promise<void> {
    if (timer) {
      clearTimeout(timer);
      timer = null;
    }
    serverAskedToWait = false;
    if (flushing) return flushing.then(() => flush());
    flushing = run().finally(() => {
      flushing = null;
    });
    return flushing;
  }

  return {
    /** Reads the stored scans and sends the current worker's (app start). */
    start(): Promise<void> {
      return load().then(() => flush());
    },
    /**
     * Keeps a scan that could not be sent; tries it again after the first delay (or the wait an overloaded
     * server asked for, when its answer was that).
     */
    async add(scan: NewEntry, retryAfterMs: number | null = null): Promise<void> {
      await load();
      const last = entries.at(-1);
      const entry: OutboxEntry = {
        ...scan,
        at: scan.at ?? Date.now(),
        seq: (last?.seq ?? 0) + 1,
        state: 'pending',
      };
      await deps.store.put(entry);
      changed([...entries, entry]);
      if (!flushing && !timer) schedule(retryAfterMs);
    },
    flush,
    /**
     * Sends now, as `flush` does — unless the last try was answered by an overloaded server (503 with
     * Retry-After): then the planned try stands, so scanning on does not send faster than the server asked.
     */
    nudge(): Promise<void> {
      if (timer && serverAskedToWait) return Promise.resolve();
      return flush();
    },
    /** The worker has read why a scan was refused: it leaves the list. */
    async acknowledge(key: string): Promise<void> {
      const entry = entries.find((e) => e.key === key);
      if (entry?.state !== 'failed') return;
      await deps.store.delete(key);
      changed(entries.filter((e) => e.key !== key));
    },
    /** Whether a scan of this worker waits (a new scan then queues behind it, to keep the order). */
    hasPending(userId: number): boolean {
      return entries.some((e) => e.state === 'pending' && e.userId === userId);
    },
    entries: (): readonly OutboxEntry[] => entries,
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** Stops the retry timer (tests, logout). */
    stop(): void {
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}
