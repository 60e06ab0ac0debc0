import type { ImportReason } from '../../contract/leitstand/import-messages.ts';
import { because, inEnglish } from './messages.ts';
import {
  hasControlCharacter,
  hiddenCharacter,
  type Parsed,
  parseBoolean,
  parseDate,
  parseNumber,
  parseWholeNumber,
} from './values.ts';

/**
 * Reading an import file's rows (decision 10): the columns a kind reads and their other names, the row
 * reader that parses and checks each cell, and the refusals with their bounds (what is listed, what is
 * counted). It runs where the file is read — the import's worker thread — and knows no database; the kinds'
 * contexts and their writing in chunks are in framework.ts.
 */

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
