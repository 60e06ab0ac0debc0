// The SQL the Bestand's reads share: the search, a location's content and the journal.
import { type RawBuilder, sql } from 'kysely';

/** A time as UTC text with the database's microseconds: 2026-11-24T09:15:02.123456Z. */
export const utcOf = (time: RawBuilder<unknown>) =>
  sql<string>`to_char(${time} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
export const utc = (column: string) => utcOf(sql.raw(column));
/** A date column as its day: 2026-11-24. */
export const day = (column: string) => sql.raw<string | null>(`to_char(${column}, 'YYYY-MM-DD')`);

/** `%text%` for ILIKE, the pattern characters in the text taken literally. */
export const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
