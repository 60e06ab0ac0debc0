import { type Kysely, type RawBuilder, sql, type Transaction } from 'kysely';
import type { ImportReason, ImportSummary, ImportThing } from '../../contract/leitstand/import-messages.ts';
import type { Database } from '../db/schema.ts';
import { because, inEnglish, summaryLine } from './messages.ts';
import {
  hasControlCharacter,
  hiddenCharacter,
  type Parsed,
  parseBoolean,
  parseDate,
  parseNumber,
  parseWholeNumber,
} from './values.ts';

/** One column a kind reads: its documented German header and the other names ERP exports use. */
export interface Column {
  key: string;
  header: string;
  aliases?: string[];
  required?: boolean;
}

/**
 * The columns that name an article, a location or a delivery note, as every kind that refers to one reads
 * them (the kind that imports the thing itself may accept a further spelling or two).
 */
export const ARTICLE_NUMBER_ALIASES = ['Artikelnr', 'Art.-Nr.', 'ArtNr', 'Artikel'];
export const LOCATION_ALIASES = ['Lagerplatzcode', 'LP', 'Platz', 'Lagerort'];
export const NOTE_ALIASES = ['Belegnummer', 'Lieferschein', 'Lieferscheinnr', 'Lieferscheinnummer'];

/** Header names compare case-insensitively, with umlauts spelled out and without spaces or punctuation. */
export function normalizeHeader(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replaceAll('ä', 'ae')
    .replaceAll('ö', 'oe')
    .replaceAll('ü', 'ue')
    .replaceAll('ß', 'ss')
    .replace(/[^a-z0-9]/g, '');
}

/**
 * A refused cell, line, header or file: where (the column as the file spells it, or WHOLE_FILE / WHOLE_LINE),
 * why (a code and its parameters) and the reason in English as the CLI prints it.
 */
export type Refusal = ImportReason & { line: number; column: string; reason: string };

/** A refusal of `line` in `column`, with its English text. */
export const refusal = (line: number, column: string, why: ImportReason): Refusal => ({
  line,
  column,
  ...why,
  reason: inEnglish(why),
});

/**
 * The refused lines an import's report lists at most (the lowest line numbers, each with all its reasons);
 * the report counts the rest (`unlistedRows`). A file of a million bad lines answered every one of them
 * (86 MB), and kept that answer for a week under its idempotency key.
 */
export const LISTED_LINES = 100;

/** The longest record (line) a file may have, in characters: longer is no ERP export but a broken file. */
export const LINE_MAX_CHARS = 50_000;

/** The longest cell the import reads (the longest column, a card text, takes 1,000). */
export const CELL_MAX_CHARS = 2_000;

/** A set of line numbers as bits: a million refused lines take 125 KB, not a hash set's 30 MB. */
export class LineSet {
  constructor(
    private bits: Uint8Array = new Uint8Array(1024),
    private count = 0,
  ) {}

  /** The set as plain data (it crosses from the worker thread). */
  static from(data: LineSetData): LineSet {
    return new LineSet(data.bits, data.count);
  }

  get size(): number {
    return this.count;
  }

  has(line: number): boolean {
    return ((this.bits[line >> 3] ?? 0) & (1 << (line & 7))) !== 0;
  }

  add(line: number): void {
    const at = line >> 3;
    if (at >= this.bits.length) {
      const grown = new Uint8Array(Math.max(at + 1, this.bits.length * 2));
      grown.set(this.bits);
      this.bits = grown;
    }
    const bit = 1 << (line & 7);
    if (((this.bits[at] ?? 0) & bit) !== 0) return;
    this.bits[at] = (this.bits[at] ?? 0) | bit;
    this.count++;
  }

  data(): LineSetData {
    return { bits: this.bits, count: this.count };
  }
}
export interface LineSetData {
  bits: Uint8Array;
  count: number;
}

/**
 * The refusals of the lines with the lowest numbers, at most LISTED_LINES lines (each with all its
 * reasons, in the order found), in line order.
 */
export function firstListed(refusals: Refusal[]): Refusal[] {
  const sorted = [...refusals].sort((a, b) => a.line - b.line);
  let lines = 0;
  let previous: number | null = null;
  for (let i = 0; i < sorted.length; i++) {
    const line = sorted[i]?.line ?? 0;
    if (line === previous) continue;
    if (lines === LISTED_LINES) return sorted.slice(0, i);
    lines++;
    previous = line;
  }
  return sorted;
}

/**
 * Every refusal of a file: which lines were refused (all of them, as bits) and the reasons of the first
 * LISTED_LINES lines — never a list that grows with the file.
 */
export class Refusals {
  readonly lines: LineSet;
  private kept: Refusal[];

  constructor(from?: { listed: Refusal[]; lines: LineSetData }) {
    this.lines = from ? LineSet.from(from.lines) : new LineSet();
    this.kept = from ? [...from.listed] : [];
  }

  add(problem: Refusal): void {
    this.lines.add(problem.line);
    this.kept.push(problem);
    if (this.kept.length >= 1000) this.kept = firstListed(this.kept);
  }

  has(line: number): boolean {
    return this.lines.has(line);
  }

  /** Lines refused. */
  get rows(): number {
    return this.lines.size;
  }

  listed(): Refusal[] {
    this.kept = firstListed(this.kept);
    return this.kept;
  }
}

/** Reads the cells of one record by column key; every problem is kept as a refusal of this line. */
export class RowReader {
  readonly problems: Refusal[] = [];

  constructor(
    readonly line: number,
    private readonly fields: string[],
    private readonly index: Map<string, { position: number; header: string }>,
  ) {}

  /** Whether the file has this column at all (absent columns leave stored values alone). */
  has(key: string): boolean {
    return this.index.has(key);
  }

  header(key: string): string {
    return this.index.get(key)?.header ?? key;
  }

  refuse(key: string, why: ImportReason): undefined {
    this.problems.push(refusal(this.line, this.header(key), why));
    return undefined;
  }

  /** The cell exactly as written (secrets: a space may belong to a password). */
  untrimmed(key: string): string {
    const column = this.index.get(key);
    return column ? (this.fields[column.position] ?? '') : '';
  }

  /** The trimmed cell, '' when empty or absent. */
  raw(key: string): string {
    const column = this.index.get(key);
    return column ? (this.fields[column.position] ?? '').trim() : '';
  }

  /**
   * Text of at most `max` characters; '' refused when required. Returns null for an empty optional cell.
   * `fold`: line breaks and runs of spaces become one space (names written over several lines in the ERP).
   */
  text(
    key: string,
    options: { required?: boolean; max?: number; fold?: boolean } = {},
  ): string | null | undefined {
    const raw = this.raw(key);
    const value = options.fold ? raw.replace(/\s+/g, ' ') : raw;
    if (value === '') return options.required ? this.refuse(key, because('empty', {})) : null;
    if (value.length > (options.max ?? 200)) {
      return this.refuse(key, because('tooLong', { max: options.max ?? 200 }));
    }
    if (hasControlCharacter(value)) return this.refuse(key, because('controlCharacter', {}));
    const hidden = hiddenCharacter(value);
    if (hidden) return this.refuse(key, because('hiddenCharacter', { codePoint: hidden }));
    return value;
  }

  private parsed<T>(
    key: string,
    required: boolean,
    parse: (text: string) => Parsed<T>,
  ): T | null | undefined {
    const value = this.raw(key);
    if (value === '') return required ? this.refuse(key, because('empty', {})) : null;
    const result = parse(value);
    return result.ok ? result.value : this.refuse(key, result.reason);
  }

  whole(key: string, min: number, max: number, required = false): number | null | undefined {
    return this.parsed(key, required, (t) => parseWholeNumber(t, min, max));
  }

  number(key: string, required = false): number | null | undefined {
    return this.parsed(key, required, parseNumber);
  }

  date(key: string, required = false): string | null | undefined {
    return this.parsed(key, required, parseDate);
  }

  /** Ja/Nein; an empty cell is `empty`. */
  boolean(key: string, empty: boolean): boolean | undefined {
    const result = parseBoolean(this.raw(key), empty);
    return result.ok ? result.value : this.refuse(key, result.reason);
  }
}

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
