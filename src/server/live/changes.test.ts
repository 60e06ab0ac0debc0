import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BATCH_MS, localChangeFeed, MIN_BATCH_INTERVAL_MS } from './changes.ts';

describe('the live feed of one process', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sends a change after a quiet spell within BATCH_MS, and on a busy floor at most one batch a second', async () => {
    const feed = localChangeFeed();
    const heard: { at: number; topics: string[] }[] = [];
    feed.subscribe((topics) => heard.push({ at: performance.now(), topics }));
    const start = performance.now();
    feed.publish('bookInventur');
    feed.publish('rebookArticle');
    vi.advanceTimersByTime(BATCH_MS);
    expect(heard).toEqual([{ at: start + BATCH_MS, topics: ['bookInventur', 'rebookArticle'] }]);
    // A booking every 10 ms for 3 s: batches a second apart, each with what came meanwhile.
    for (let i = 0; i < 300; i++) {
      feed.publish(i % 2 ? 'bookInventur' : 'captureBatch');
      vi.advanceTimersByTime(10);
    }
    vi.advanceTimersByTime(MIN_BATCH_INTERVAL_MS);
    const gaps = heard.slice(1).map((batch, i) => batch.at - (heard[i]?.at ?? 0));
    expect(heard.length).toBe(4);
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(MIN_BATCH_INTERVAL_MS);
    expect(heard.at(-1)?.topics.sort()).toEqual(['bookInventur', 'captureBatch']);
    await feed.close();
  });
});
