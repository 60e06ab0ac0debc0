import { type Kysely, type RawBuilder, sql, type Transaction } from 'kysely';
import type { ImportReason, ImportSummary, ImportThing } from '../../contract/leitstand/import-messages.ts';
import type { Database } from '../db/schema.ts';
import { because, summaryLine } from './messages.ts';
import type { Column, RowReader } from './rows.ts';

/**
 * What an import kind is (its columns, checks and writing) and the parts the kinds share to write: chunks,
 * keys to ids, upserts, summaries. Reading a file's rows is rows.ts.
 */

export interface Line<Row> {
  line: number;
  row: Row;
}

export type Db = Kysely<Database> | Transaction<Database>;

/** What a kind's checks across the file's rows get, where the file is read (a worker thread): no database. */
export interface FileContext {
  /** Column keys the header has. */
  present: Set<string>;
  /** Header text of a column key, as the file spells it. */
  header(key: string): string;
  refuse(line: number, key: string, why: ImportReason): void;
  isRefused(line: number): boolean;
}

/** What a kind gets to check rows against the database, and to write them. */
export interface ImportContext extends FileContext {
  trx: Transaction<Database>;
  /**
   * `check`: before anything is written (a refusal refuses the file); `apply`: again, in the transaction
   * that writes these rows — what the floor changed since (a note packed meanwhile) refuses its unit then.
   */
  phase: 'check' | 'apply';
  /** The Leitstand's upload: a users file must leave an active admin (decision 21). */
  keepAnAdmin: boolean;
  /** What a check collects over all of a file's steps (the admins a users file switches off). */
  memo: Map<string, unknown>;
  /** --images: folder the projects file's pictures are copied from. */
  imagesSource: string | null;
  /** Where the server serves pictures from (…/kartonagen/{id}.jpg). */
  imagesDir: string;
  /** Work to do after the transaction committed (copying pictures). */
  afterCommit(job: () => void): void;
}

/** Reads from the database in a step of its own (the engine's `Steps`), for `prepare`. */
export interface PrepareContext {
  read<T>(work: (db: Db) => Promise<T>): Promise<T>;
}

/**
 * One kind of file. An import reads every row (`read`, `inFile`) off the server's thread, then checks
 * (`check`) and stages its rows a few units at a time, then writes them (`check` again, `write`) a few
 * units per transaction (src/server/import/staged.ts).
 */
export interface ImportKind<Row> {
  name: string;
  columns: Column[];
  /** One record into a row, checks that need nothing but the record itself. */
  read(r: RowReader): Row | undefined;
  /**
   * Which rows belong together — a delivery note's lines, a location's minimums, an article's stock slots:
   * they are checked and written in one transaction, never split (rows of the same key may lie far apart).
   */
  unit(row: Row): string;
  /** Checks across the file's rows that need no database (a key repeated by another unit). */
  inFile?(ctx: FileContext, rows: Line<Row>[]): void;
  /** Checks of whole units against the database; refuses through the context. Writes nothing. */
  check(ctx: ImportContext, rows: Line<Row>[]): Promise<void>;
  /** After every unit was checked (phase `check`): checks of the whole file against the database. */
  afterCheck?(ctx: ImportContext): Promise<void>;
  /** Checked rows into what is staged: no secret is ever written to the staging table (passwords hashed). */
  prepare?(ctx: PrepareContext, rows: Line<Row>[]): Promise<Line<Row>[]>;
  /** Writes rows that were not refused (whole units); returns summary lines for the report. */
  write(ctx: ImportContext, rows: Line<Row>[]): Promise<ImportSummary[]>;
}

/** A file that would leave no active admin (a users file uploaded in the Leitstand): refused whole. */
export class LeavesNoAdmin extends Error {
  constructor() {
    super('the file would switch off every active admin');
    this.name = 'LeavesNoAdmin';
  }
}

/**
 * Adds the summary lines of one more write to those so far: the counts of the same line (code and its
 * texts, as `what`) add up; a line first seen now goes at the end.
 */
export function mergeSummaries(sofar: ImportSummary[], more: ImportSummary[]): ImportSummary[] {
  const keyOf = (line: ImportSummary) =>
    JSON.stringify([line.code, Object.entries(line.params).filter(([, value]) => typeof value !== 'number')]);
  const merged = sofar.map((line) => ({ ...line, params: { ...line.params } }) as ImportSummary);
  for (const line of more) {
    const same = merged.find((m) => keyOf(m) === keyOf(line));
    if (!same) {
      merged.push({ ...line, params: { ...line.params } } as ImportSummary);
      continue;
    }
    const params = same.params as Record<string, unknown>;
    for (const [key, value] of Object.entries(line.params))
      if (typeof value === 'number') params[key] = ((params[key] as number) ?? 0) + value;
  }
  return merged;
}

/** Statements write this many rows each (multi-row insert … on conflict). */
export const CHUNK = 1000;

export function chunks<T>(items: T[], size = CHUNK): T[][] {
  const result: T[][] = [];
  for (let i = 0; i < items.length; i += size) result.push(items.slice(i, i + size));
  return result;
}

/** Refuses every later row that repeats an earlier row's natural key (`what`: its name, 'Artikelnummer'). */
export function refuseDuplicates<Row>(
  ctx: FileContext,
  rows: Line<Row>[],
  key: (row: Row) => string,
  column: string,
  what: string,
): void {
  const first = new Map<string, number>();
  for (const { line, row } of rows) {
    const k = key(row);
    const earlier = first.get(k);
    if (earlier === undefined) first.set(k, line);
    else ctx.refuse(line, column, because('duplicate', { what, line: earlier }));
  }
}

/** The natural key of the tables other rows refer to. */
const KEY_COLUMN = {
  articles: 'nummer',
  locations: 'code',
  projects: 'name',
  delivery_notes: 'belegnr',
} as const;

/** Ids of existing rows by their natural key, looked up 5,000 keys at a time (`= any($1)`). */
export async function idsByKey(
  db: Db,
  table: keyof typeof KEY_COLUMN,
  keys: Iterable<string>,
): Promise<Map<string, number>> {
  const column = sql.ref(KEY_COLUMN[table]);
  const result = new Map<string, number>();
  for (const part of chunks([...new Set(keys)], 5000)) {
    const { rows } = await sql<{ id: number; key: string }>`
      select id, ${column} as key from ${sql.table(table)} where ${column} = any(${part}::text[])`.execute(
      db,
    );
    for (const r of rows) result.set(r.key, r.id);
  }
  return result;
}

/** "articles: 3 new, 2 changed, 95 unchanged" */
export function summary(
  what: ImportThing,
  counts: { inserted: number; updated: number; total: number },
): ImportSummary {
  const { inserted, updated } = counts;
  return summaryLine('counts', { what, inserted, updated, unchanged: counts.total - inserted - updated });
}

/**
 * The `do update set …` of an upsert: the columns the file has (besides the key) take the file's value, and
 * a row whose values are all equal is left alone (so it does not count as changed, and is not rewritten).
 */
export function upsertSet(
  table: string,
  columns: Record<string, string>,
  present: Set<string>,
  keyColumns: string[],
): RawBuilder<unknown> {
  const updated = Object.entries(columns)
    .filter(([key, column]) => present.has(key) && !keyColumns.includes(column))
    .map(([, column]) => column);
  if (updated.length === 0) return sql.raw(`${keyColumns[0]} = excluded.${keyColumns[0]} where false`);
  const assignments = updated.map((c) => `${c} = excluded.${c}`).join(', ');
  const mine = updated.map((c) => `${table}.${c}`).join(', ');
  const theirs = updated.map((c) => `excluded.${c}`).join(', ');
  return sql.raw(`${assignments} where (${mine}) is distinct from (${theirs})`);
}

export interface WriteCounts {
  inserted: number;
  updated: number;
  total: number;
}

/**
 * Writes rows CHUNK at a time. `writePart` answers one `{ inserted }` per row it inserted or changed
 * (`returning (xmax = 0) as inserted`); rows it did not answer for were unchanged.
 */
export async function writeInChunks<Row>(
  rows: Line<Row>[],
  writePart: (part: Row[]) => Promise<{ inserted: boolean }[]>,
): Promise<WriteCounts> {
  const counts = { inserted: 0, updated: 0, total: rows.length };
  for (const part of chunks(rows)) {
    const written = await writePart(part.map((r) => r.row));
    for (const w of written) {
      if (w.inserted) counts.inserted++;
      else counts.updated++;
    }
  }
  return counts;
}
