import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
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

describe('the PGlite dialect’s prepared statements', () => {
  let handle: DatabaseHandle;
  beforeEach(async () => {
    handle = await openPglite({ dataDir: null });
  });
  afterEach(() => handle.close());

  const prepared = async () =>
    (
      await sql<{
        statement: string;
      }>`select statement from pg_prepared_statements order by statement`.execute(handle.db)
    ).rows.map((row) => row.statement);

  it('prepares a statement once and answers each call with its own parameters', async () => {
    await sql`create table place (code text primary key, name text not null)`.execute(handle.db);
    await sql`insert into place values ('A-1', 'Regal eins'), ('A-2', 'Regal zwei')`.execute(handle.db);
    const find = (code: string) =>
      handle.db
        .selectFrom('place' as never)
        .select(['name' as never])
        .where('code' as never, '=', code as never)
        .executeTakeFirst() as Promise<{ name: string } | undefined>;
    expect(await find('A-1')).toEqual({ name: 'Regal eins' });
    expect(await find('A-2')).toEqual({ name: 'Regal zwei' });
    expect(await find('B-9')).toBeUndefined();
    const lookups = (await prepared()).filter((text) => text.includes('from "place"'));
    expect(lookups).toHaveLength(1);
  });

  it('serializes parameters by their type in the statement: jsonb, timestamptz, arrays, null', async () => {
    await sql`create table typed (doc jsonb, at timestamptz, tags text[], note text)`.execute(handle.db);
    const at = new Date('2026-11-25T08:30:00.000Z');
    await sql`insert into typed values (${{ menge: 3, ok: true }}, ${at}, ${['a', 'b,c']}, ${null})`.execute(
      handle.db,
    );
    const row = (
      await sql<{
        doc: unknown;
        at: Date;
        tags: string[];
        note: string | null;
      }>`select doc, at, tags, note from typed`.execute(handle.db)
    ).rows[0];
    expect(row).toEqual({ doc: { menge: 3, ok: true }, at, tags: ['a', 'b,c'], note: null });
  });

  it('counts the rows an update, insert or delete touched', async () => {
    await sql`create table n (id int primary key)`.execute(handle.db);
    const inserted = await sql`insert into n select generate_series(1, 5)`.execute(handle.db);
    const updated = await sql`update n set id = id + 10 where id > ${2}`.execute(handle.db);
    const deleted = await sql`delete from n where id = ${99}`.execute(handle.db);
    expect([inserted.numAffectedRows, updated.numAffectedRows, deleted.numAffectedRows]).toEqual([
      5n,
      3n,
      0n,
    ]);
  });

  it('answers a failing statement with the database’s error, and the session works on', async () => {
    await sql`create table unique_code (code text primary key)`.execute(handle.db);
    const insert = (code: string) => sql`insert into unique_code values (${code})`.execute(handle.db);
    await insert('X');
    await expect(insert('X')).rejects.toMatchObject({ code: '23505', constraint: 'unique_code_pkey' });
    await expect(sql`select * from missing_table`.execute(handle.db)).rejects.toMatchObject({
      code: '42P01',
    });
    await insert('Y');
    const codes = await sql<{ code: string }>`select code from unique_code order by code`.execute(handle.db);
    expect(codes.rows.map((row) => row.code)).toEqual(['X', 'Y']);
    // A statement that could not be parsed is not kept.
    expect((await prepared()).some((text) => text.includes('missing_table'))).toBe(false);
  });

  it('reads a large answer whole, with umlauts in parameters and values', async () => {
    const rows = (
      await sql<{ n: number; name: string }>`select g as n, ${'Größe ü'} || ' ' || g as name
        from generate_series(1, ${20_000}::int) g`.execute(handle.db)
    ).rows;
    expect(rows).toHaveLength(20_000);
    expect(rows[0]).toEqual({ n: 1, name: 'Größe ü 1' });
    expect(rows[19_999]).toEqual({ n: 20_000, name: 'Größe ü 20000' });
    expect(rows.every((row, i) => row.n === i + 1 && row.name === `Größe ü ${i + 1}`)).toBe(true);
  });

  it('sends parameters longer than its buffer whole (a stored answer of a large note)', async () => {
    await sql`create table answer (key text primary key, body jsonb)`.execute(handle.db);
    const body = { lines: Array.from({ length: 300 }, (_, i) => ({ nummer: `10${i}`, name: `Größe ${i}` })) };
    const key = 'k'.repeat(3000);
    await sql`insert into answer values (${key}, ${body})`.execute(handle.db);
    const row = (await sql<{ key: string; body: unknown }>`select key, body from answer`.execute(handle.db))
      .rows[0];
    expect(row).toEqual({ key, body });
  });

  it('gives an error all the fields PostgreSQL sent: message, detail, table, constraint', async () => {
    await sql`create table lager (id int primary key, menge int not null check (menge >= 0))`.execute(
      handle.db,
    );
    await sql`insert into lager values (${1}, ${5})`.execute(handle.db);
    const error = await sql`update lager set menge = menge - ${9} where id = ${1}`
      .execute(handle.db)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: '23514',
      severity: 'ERROR',
      table: 'lager',
      constraint: 'lager_menge_check',
      message: 'new row for relation "lager" violates check constraint "lager_menge_check"',
      detail: 'Failing row contains (1, -4).',
    });
    expect(error).toBeInstanceOf(Error);
  });

  it('prepares a statement anew when the columns of its table changed under it', async () => {
    await sql`create table shape (a int)`.execute(handle.db);
    await sql`insert into shape values (1)`.execute(handle.db);
    const all = () => sql<Record<string, number>>`select * from shape`.execute(handle.db);
    expect((await all()).rows).toEqual([{ a: 1 }]);
    await sql`alter table shape add column b int default 2`.execute(handle.db);
    // PostgreSQL refuses the old statement once ("cached plan must not change result type"); the next call
    // prepares it again and sees the new column.
    await all().catch((error: { code?: string }) => expect(error.code).toBe('0A000'));
    expect((await all()).rows).toEqual([{ a: 1, b: 2 }]);
  });

  it('keeps at most 500 statements in the session and answers right after closing the oldest', async () => {
    for (let i = 0; i < 520; i++) {
      const row = (await sql<{ n: number }>`select ${sql.lit(i)}::int + ${1}::int as n`.execute(handle.db))
        .rows[0];
      expect(row?.n).toBe(i + 1);
    }
    const kept = await prepared();
    expect(kept.length).toBeLessThanOrEqual(500);
    expect(kept.some((text) => text.includes('select 519::int'))).toBe(true);
    expect(kept.some((text) => text.includes('select 0::int'))).toBe(false);
    const again = (await sql<{ n: number }>`select ${sql.lit(0)}::int + ${1}::int as n`.execute(handle.db))
      .rows[0];
    expect(again?.n).toBe(1);
  });

  it('sends long statements unnamed, so bulk inserts never collect in the session', async () => {
    await sql`create table bulk (id int)`.execute(handle.db);
    const ids = Array.from({ length: 40 }, (_, i) => i);
    await handle.db
      .insertInto('bulk' as never)
      .values(ids.map((id) => ({ id })) as never)
      .execute();
    const count = await sql<{ c: number }>`select count(*) as c from bulk`.execute(handle.db);
    expect(count.rows[0]?.c).toBe(40);
    expect((await prepared()).some((text) => text.includes('insert into "bulk"'))).toBe(false);
  });
});
