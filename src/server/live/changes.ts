import { EventEmitter } from 'node:events';
import pg from 'pg';

/**
 * What changed, for the Leitstand's live views (issue 20, DESIGN §9): every successful write announces its
 * call's name (a "topic"); a live view hears the topics and reloads what it shows. Announcements are
 * gathered for a moment and sent as one batch, so a busy floor costs one message per batch, not per scan.
 *
 * Server instances are stateless: with PostgreSQL every instance LISTENs on one channel and announces with
 * NOTIFY, so a Leitstand connected to one instance hears what was booked through any other. The embedded
 * database belongs to one process, so there it stays in the process.
 */
export interface ChangeFeed {
  /** Announces a change (the call's name); delivered with the next batch. */
  publish(topic: string): void;
  /** Hears every batch of topics, from this instance and the others; answers the unsubscribe. */
  subscribe(listener: (topics: string[]) => void): () => void;
  close(): Promise<void>;
}

/** How long announcements are gathered before they go out together. */
export const BATCH_MS = 200;
/**
 * Batches go out at most this often: every batch makes each open Leitstand reload what it shows, and on a
 * busy floor (a booking every few milliseconds) batches 200 ms apart had 20 desks fetch 300 journal pages a
 * second beside the handhelds (bench, floor under back-office work). A booking after a quiet second still
 * shows within BATCH_MS.
 */
export const MIN_BATCH_INTERVAL_MS = 1000;
const CHANNEL = 'lagerscanner_changes';
/** NOTIFY's payload must stay under 8000 bytes. */
const MAX_PAYLOAD = 7000;

class Batcher {
  private pending = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private lastSent = Number.NEGATIVE_INFINITY;
  constructor(private readonly send: (topics: string[]) => void) {}

  add(topic: string): void {
    this.pending.add(topic);
    if (this.timer) return;
    const wait = Math.max(BATCH_MS, this.lastSent + MIN_BATCH_INTERVAL_MS - performance.now());
    this.timer = setTimeout(() => this.flush(), wait);
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.pending.size === 0) return;
    const topics = [...this.pending];
    this.pending.clear();
    this.lastSent = performance.now();
    this.send(topics);
  }
}

/** The embedded database's feed: in this process only. */
export function localChangeFeed(): ChangeFeed {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  const batcher = new Batcher((topics) => emitter.emit('topics', topics));
  return {
    publish: (topic) => batcher.add(topic),
    subscribe(listener) {
      emitter.on('topics', listener);
      return () => emitter.off('topics', listener);
    },
    close: async () => batcher.flush(),
  };
}

export interface FeedLog {
  warn(object: object, message: string): void;
  info(object: object, message: string): void;
}

/**
 * PostgreSQL's feed: one connection of its own LISTENs and NOTIFYs (outside the pool, so a busy pool never
 * delays it). A lost connection is opened again after a pause; meanwhile this instance's own changes are
 * delivered here directly, so its Leitstand views keep going.
 */
export function postgresChangeFeed(url: string, log: FeedLog): ChangeFeed {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  let client: pg.Client | null = null;
  let closed = false;
  let retryTimer: NodeJS.Timeout | null = null;

  const deliver = (topics: string[]) => emitter.emit('topics', topics);
  const batcher = new Batcher((topics) => {
    const connected = client;
    if (!connected) return deliver(topics);
    let payload = JSON.stringify(topics);
    if (payload.length > MAX_PAYLOAD) payload = JSON.stringify(['*']);
    connected.query('select pg_notify($1, $2)', [CHANNEL, payload]).catch(() => deliver(topics));
  });

  const connect = async (delayMs: number) => {
    if (closed) return;
    const next = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
    next.on('notification', (message) => {
      if (message.channel !== CHANNEL || !message.payload) return;
      try {
        const topics = JSON.parse(message.payload) as unknown;
        if (Array.isArray(topics)) deliver(topics.filter((t): t is string => typeof t === 'string'));
      } catch {
        // not ours
      }
    });
    const reconnect = (error: unknown) => {
      if (client === next) client = null;
      next.removeAllListeners('error');
      next.on('error', () => {});
      void next.end().catch(() => {});
      if (closed) return;
      const wait = Math.min(delayMs * 2, 10_000);
      log.warn({ err: error, retryInMs: wait }, 'live change feed lost its PostgreSQL connection');
      retryTimer = setTimeout(() => void connect(wait), wait);
    };
    next.on('error', reconnect);
    try {
      await next.connect();
      await next.query(`listen ${CHANNEL}`);
      if (closed) {
        await next.end();
        return;
      }
      client = next;
      if (delayMs > 500) log.info({}, 'live change feed connected again');
    } catch (error) {
      reconnect(error);
    }
  };
  void connect(500);

  return {
    publish: (topic) => batcher.add(topic),
    subscribe(listener) {
      emitter.on('topics', listener);
      return () => emitter.off('topics', listener);
    },
    async close() {
      batcher.flush();
      closed = true;
      if (retryTimer) clearTimeout(retryTimer);
      const last = client;
      client = null;
      await last?.end().catch(() => {});
    },
  };
}
