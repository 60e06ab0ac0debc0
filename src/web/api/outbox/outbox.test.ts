import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, NetworkError } from '../client.ts';
import { createOutbox, type OutboxEntry, type OutboxStore, type OutboxUser } from './outbox.ts';

/** The IndexedDB store's contract, in memory (the IndexedDB store itself is tested in Chromium: e2e/outbox.spec.ts). */
function memoryStore(initial: OutboxEntry[] = []): OutboxStore & { rows: Map<string, OutboxEntry> } {
  const rows = new Map(initial.map((e) => [e.key, e]));
  return {
    rows,
    all: async () => [...rows.values()].sort((a, b) => a.seq - b.seq),
    put: async (e) => {
      rows.set(e.key, structuredClone(e));
    },
    delete: async (key) => {
      rows.delete(key);
    },
  };
}

const anna: OutboxUser = { id: 1, name: 'Anna' };
const bernd: OutboxUser = { id: 2, name: 'Bernd' };

function scan(key: string, user = anna) {
  return {
    key,
    userId: user.id,
    userName: user.name,
    call: 'retourenerfassung',
    body: { tracking: key },
    label: key,
  };
}

describe('the outbox of capture scans', () => {
  let store: ReturnType<typeof memoryStore>;
  let user: OutboxUser | null;
  /** Keys in the order they reached the "server", and what the server does with the next ones. */
  let sent: string[];
  let server: (entry: OutboxEntry) => void | Promise<void>;

  function outbox() {
    return createOutbox({
      store,
      currentUser: () => user,
      send: async (entry) => {
        sent.push(entry.key);
        await server(entry);
      },
    });
  }

  beforeEach(() => {
    vi.useFakeTimers();
    store = memoryStore();
    user = anna;
    sent = [];
    server = () => {};
  });
  afterEach(() => vi.useRealTimers());

  it('keeps scans across a restart and sends them in scan order with their own keys once the server answers', async () => {
    server = () => {
      throw new NetworkError();
    };
    const first = outbox();
    await first.add(scan('k1'));
    await first.add(scan('k2'));
    await first.add(scan('k3'));
    first.stop();
    expect(sent).toEqual([]); // nothing tried at once: the scan has just failed

    server = () => {};
    const restarted = outbox(); // a reload: only the store is left
    await restarted.start();
    expect(sent).toEqual(['k1', 'k2', 'k3']);
    expect(restarted.entries()).toEqual([]);
    expect(store.rows.size).toBe(0);
  });

  it('stops at the first scan without a verdict and tries it again after 2, 4, 8 … seconds, in order', async () => {
    const box = outbox();
    server = () => {
      throw new NetworkError();
    };
    await box.add(scan('k1'));
    await box.add(scan('k2'));
    await vi.advanceTimersByTimeAsync(1_999);
    expect(sent).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent).toEqual(['k1']); // k2 is not tried past k1
    await vi.advanceTimersByTimeAsync(3_999);
    expect(sent).toEqual(['k1']);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent).toEqual(['k1', 'k1']);
    server = (entry) => {
      if (entry.key === 'k1') throw new ApiError(503, 'Systemfehler');
    };
    await vi.advanceTimersByTimeAsync(8_000);
    expect(sent).toEqual(['k1', 'k1', 'k1']); // a server error is no verdict either
    server = () => {};
    await vi.advanceTimersByTimeAsync(16_000);
    expect(sent).toEqual(['k1', 'k1', 'k1', 'k1', 'k2']);
    expect(box.entries()).toEqual([]);
  });

  it('backs off from an overloaded server (503 with Retry-After): its wait if longer, and scanning on does not send sooner', async () => {
    const box = outbox();
    const overloaded = (retryAfterMs: number) => () => {
      throw new ApiError(
        503,
        'Server ausgelastet – bitte in ein paar Sekunden noch einmal versuchen.',
        null,
        retryAfterMs,
      );
    };
    server = overloaded(1_000);
    // The capture call got 503 after its own tries: kept, first try after the usual 2 s (above the 1 s asked).
    await box.add(scan('k1'), 1_000);
    await box.nudge(); // the worker scans on: no sooner
    expect(sent).toEqual([]);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(sent).toEqual(['k1']);
    await box.add(scan('k2'));
    await box.nudge();
    await vi.advanceTimersByTimeAsync(3_999);
    expect(sent).toEqual(['k1']); // 4 s after the second 503, not at each new scan
    server = overloaded(45_000); // a server that asks for longer than the backoff
    await vi.advanceTimersByTimeAsync(1);
    expect(sent).toEqual(['k1', 'k1']);
    server = () => {};
    await vi.advanceTimersByTimeAsync(44_999);
    await box.nudge();
    expect(sent).toEqual(['k1', 'k1']);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent).toEqual(['k1', 'k1', 'k1', 'k2']);
    expect(box.entries()).toEqual([]);
  });

  it("a nudge sends at once when the last try got no answer at all, and 'Jetzt senden' always does", async () => {
    const box = outbox();
    server = () => {
      throw new NetworkError();
    };
    await box.add(scan('k1'));
    server = () => {};
    await box.nudge(); // no overload: a new scan sends the waiting ones now
    expect(sent).toEqual(['k1']);
    server = () => {
      throw new ApiError(503, 'Server ausgelastet', null, 1_000);
    };
    await box.add(scan('k2'), 1_000);
    server = () => {};
    await box.flush(); // the worker's 'Jetzt senden'
    expect(sent).toEqual(['k1', 'k2']);
    expect(box.entries()).toEqual([]);
  });

  it('moves a refused scan to the failed list, goes on with the next, and keeps it until acknowledged', async () => {
    const box = outbox();
    server = () => {
      throw new NetworkError();
    };
    await box.add(scan('k1'));
    await box.add(scan('unknown'));
    await box.add(scan('k3'));
    server = (entry) => {
      if (entry.key === 'unknown') throw new ApiError(404, 'Trackingnummer unknown nicht gefunden');
    };
    await box.flush();
    expect(sent).toEqual(['k1', 'unknown', 'k3']);
    expect(box.entries()).toEqual([
      expect.objectContaining({
        key: 'unknown',
        state: 'failed',
        message: 'Trackingnummer unknown nicht gefunden',
      }),
    ]);
    expect(store.rows.get('unknown')?.state).toBe('failed'); // survives a reload as failed

    await box.flush();
    expect(sent).toHaveLength(3); // a failed scan is not sent again
    await box.acknowledge('unknown');
    expect(box.entries()).toEqual([]);
    expect(store.rows.size).toBe(0);
  });

  it('keeps a scan whose login ran out (401) and sends it after the worker logs in again', async () => {
    const box = outbox();
    server = () => {
      throw new ApiError(401, 'Scan wurde nicht gespeichert');
    };
    await box.add(scan('k1'));
    await box.flush();
    expect(box.entries()).toEqual([expect.objectContaining({ key: 'k1', state: 'pending' })]);
    server = () => {};
    await box.flush();
    expect(box.entries()).toEqual([]);
  });

  it("sends only the logged-in worker's scans; another worker's wait for them", async () => {
    const box = outbox();
    server = () => {
      throw new NetworkError();
    };
    await box.add(scan('anna-1', anna));
    await box.add(scan('bernd-1', bernd));
    await box.add(scan('anna-2', anna));
    box.stop();
    server = () => {};
    user = bernd;
    await box.flush();
    expect(sent).toEqual(['bernd-1']);
    expect(box.hasPending(anna.id)).toBe(true);
    expect(box.hasPending(bernd.id)).toBe(false);
    user = null; // logged out: nothing is sent
    await box.flush();
    expect(sent).toEqual(['bernd-1']);
    user = anna;
    await box.flush();
    expect(sent).toEqual(['bernd-1', 'anna-1', 'anna-2']);
  });

  it('sends a scan added while a flush is under way in the same run, after the earlier ones', async () => {
    const box = outbox();
    server = () => {
      throw new NetworkError();
    };
    await box.add(scan('k1'));
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => {
      release = r;
    });
    server = async () => {
      await gate;
    };
    const flushing = box.flush();
    await box.add(scan('k2'));
    release();
    await flushing;
    expect(sent).toEqual(['k1', 'k2']);
    expect(box.entries()).toEqual([]);
  });
});
