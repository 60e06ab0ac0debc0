import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/** Rows per insert statement of the demo seed. */
const CHUNK = 500;

/** Inserts the rows in statements of CHUNK rows, in their order (ids from a sequence follow it). */
export async function insertChunked<T extends keyof Database & string>(
  db: Kysely<Database>,
  table: T,
  rows: Record<string, unknown>[],
): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) {
    await db
      .insertInto(table)
      // biome-ignore lint/suspicious/noExplicitAny: generic bulk insert over any table of the schema
      .values(rows.slice(i, i + CHUNK) as any)
      .execute();
  }
}

/** The id a code or number was given when seeded; a seed that names an unknown one is a bug in the seed. */
export function idOf<K>(ids: ReadonlyMap<K, number>, key: K): number {
  const id = ids.get(key);
  if (id === undefined) throw new Error(`seed: unknown ${String(key)}`);
  return id;
}
