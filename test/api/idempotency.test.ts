import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginCard } from '../../src/contract/auth.ts';
import { bookInventur } from '../../src/contract/inventur.ts';
import { texts } from '../../src/contract/texts.ts';
import { moveArticle } from '../../src/contract/umbuchung.ts';
import { demo } from '../../src/server/seed/demo.ts';
import { authHeaders, loginDemo, startTestApp, type TestApp } from '../support/app.ts';
import { databaseKinds } from '../support/db.ts';
import { caller } from '../support/endpoint-call.ts';

describe.each(databaseKinds())('exactly once on %s', (kind) => {
  let t: TestApp;
  let token: string;
  let lp: number;
  let article: number;

  beforeAll(async () => {
    t = await startTestApp(kind);
    token = await loginDemo(t.app);
    lp = await locationId(demo.locations.empty);
    article = (
      await t.database.db
        .selectFrom('articles')
        .select('id')
        .where('nummer', '=', demo.article.nummer)
        .executeTakeFirstOrThrow()
    ).id;
  });
  afterAll(() => t.close());

  const locationId = async (code: string) =>
    (
      await t.database.db
        .selectFrom('locations')
        .select('id')
        .where('code', '=', code)
        .executeTakeFirstOrThrow()
    ).id;

  const book = (amount: number, key: string | null, as = token) =>
    key === null
      ? // Raw on purpose: with no X-Idempotency-Key at all, which the contract caller always sends.
        t.app.inject({
          method: 'POST',
          url: bookInventur.path,
          payload: { lp, article, amount },
          headers: authHeaders(as),
        })
      : caller(t.app, as)(bookInventur, { body: { lp, article, amount }, key });
  const countsWithKey = async (key: string) =>
    (
      await t.database.db
        .selectFrom('inventory_counts')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('request_key', '=', key)
        .executeTakeFirstOrThrow()
    ).n;

  it('answers a replayed key with the stored answer and does the work once', async () => {
    const key = randomUUID();
    const first = await book(5, key);
    expect(first.statusCode).toBe(200);
    const movementsAfterFirst = await t.database.db
      .selectFrom('movements')
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow();
    const again = await book(5, key);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await countsWithKey(key)).toBe(1);
    const movementsAfterReplay = await t.database.db
      .selectFrom('movements')
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow();
    expect(movementsAfterReplay.n).toBe(movementsAfterFirst.n);
  });

  it('applies two concurrent requests with one key once', async () => {
    const key = randomUUID();
    // Stock 5 from the test before; both ask to count 9: applied twice it would still read 9, so count rows.
    const answers = await Promise.all([book(9, key), book(9, key), book(9, key)]);
    for (const res of answers) expect(res.statusCode).toBe(200);
    expect(await countsWithKey(key)).toBe(1);
    const journal = await t.database.db
      .selectFrom('movements')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('request_key', '=', key)
      .executeTakeFirstOrThrow();
    expect(journal.n).toBe(1);
  });

  it('refuses the same key with a different body with 409 and changes nothing', async () => {
    const key = randomUUID();
    expect((await book(11, key)).statusCode).toBe(200);
    const res = await book(12, key);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      success: false,
      message: texts.errors.idempotencyConflict,
    });
    const stock = await t.database.db
      .selectFrom('stock')
      .select('amount')
      .where('location_id', '=', lp)
      .where('article_id', '=', article)
      .executeTakeFirstOrThrow();
    expect(stock.amount).toBe(11);
  });

  it('refuses the same key from another user with 409', async () => {
    const key = randomUUID();
    expect((await book(13, key)).statusCode).toBe(200);
    const card = await caller(t.app, null)(loginCard, { body: { stechuhrdevice: demo.cardUser.card } });
    expect((await book(13, key, card.json().token)).statusCode).toBe(409);
  });

  it('refuses a mutating call without a valid UUID v4 key and writes nothing', async () => {
    const before = await t.database.db
      .selectFrom('inventory_counts')
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow();
    for (const key of [null, '', 'abc', '123e4567-e89b-12d3-a456-426614174000']) {
      const res = await book(1, key);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(texts.errors.missingIdempotencyKey);
    }
    const after = await t.database.db
      .selectFrom('inventory_counts')
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });

  it('stores a refusal with its key: a late copy of the same action is refused too, never applied', async () => {
    // The scanner was told 'refused'; a copy of the same request still on its way (cut in flight, queued on
    // another instance) arrives after the warehouse changed and would now go through. It must not.
    const target = await locationId(demo.locations.main);
    const key = randomUUID();
    const move = (amount: number) =>
      caller(t.app, token)(moveArticle, { body: { from: lp, to: target, article, amount }, key });
    const refused = await move(500);
    expect(refused.statusCode).toBe(400);
    expect(refused.headers['idempotent-replayed']).toBeUndefined();

    expect((await book(600, randomUUID())).statusCode).toBe(200); // now 600 lie on the source
    const late = await move(500);
    expect(late.statusCode).toBe(400);
    expect(late.json()).toEqual(refused.json());
    expect(late.headers['idempotent-replayed']).toBe('true');
    const movedWithKey = await t.database.db
      .selectFrom('movements')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('request_key', '=', key)
      .executeTakeFirstOrThrow();
    expect(movedWithKey.n).toBe(0);
    const onSource = await t.database.db
      .selectFrom('stock')
      .select(sql<number>`coalesce(sum(amount), 0)::int`.as('n'))
      .where('location_id', '=', lp)
      .where('article_id', '=', article)
      .executeTakeFirstOrThrow();
    expect(onSource.n).toBe(600);

    // The key is spent: other data under it is a client bug, not a new try.
    const changed = await move(5);
    expect(changed.statusCode).toBe(409);
  });
});
