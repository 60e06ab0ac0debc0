import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openPglite } from './connect.ts';

describe('the PGlite dialect', () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openPglite({ dataDir: null });
    await sql`create table counter (id int primary key, n int not null)`.execute(handle.db);
    await sql`insert into counter values (1, 0), (2, 0)`.execute(handle.db);
  });
  afterAll(() => handle.close());

  const read = async (id: number) =>
    (await sql<{ n: number }>`select n from counter where id = ${id}`.execute(handle.db)).rows[0]?.n;

  it('keeps a transaction that rolls back from undoing a concurrent one', async () => {
    const failing = handle.db.transaction().execute(async (trx) => {
      await sql`update counter set n = n + 100 where id = 1`.execute(trx);
      await new Promise((r) => setTimeout(r, 30));
      throw new Error('refused');
    });
    const succeeding = handle.db.transaction().execute(async (trx) => {
      await sql`update counter set n = n + 1 where id = 2`.execute(trx);
    });
    await expect(failing).rejects.toThrow('refused');
    await succeeding;
    expect(await read(1)).toBe(0);
    expect(await read(2)).toBe(1);
  });

  it('runs many concurrent read-modify-write transactions without losing one', async () => {
    await Promise.all(
      Array.from({ length: 50 }, () =>
        handle.db.transaction().execute(async (trx) => {
          const current =
            (await sql<{ n: number }>`select n from counter where id = 2`.execute(trx)).rows[0]?.n ?? 0;
          await new Promise((r) => setImmediate(r));
          await sql`update counter set n = ${current + 1} where id = 2`.execute(trx);
        }),
      ),
    );
    expect(await read(2)).toBe(51);
  });

  it('answers dates as YYYY-MM-DD strings and counts as numbers', async () => {
    const row = (
      await sql<{ d: string; c: number }>`select date '2026-03-01' as d, count(*) as c from counter`.execute(
        handle.db,
      )
    ).rows[0];
    expect(row).toEqual({ d: '2026-03-01', c: 2 });
  });
});
