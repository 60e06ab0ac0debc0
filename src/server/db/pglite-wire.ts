import { protocol } from '@electric-sql/pglite';

/**
 * The PostgreSQL wire protocol for the one call that runs most: a prepared statement's Bind, Execute, Sync,
 * and its answer (DataRow, CommandComplete, ErrorResponse). PGlite's own codec (pg-protocol) builds three
 * writers per call and turns every answer into message objects through private fields (compiled to WeakMap
 * lookups): in the server's profile that was a fifth of a location lookup's CPU. This one writes into one
 * reused buffer and reads the answer straight into rows. Parameters and columns go as text, as PGlite's
 * query() sends them; what they mean is the statement's business (its types, PGlite's parsers).
 */

const BIND = 0x42; // 'B'
const EXECUTE = 0x45; // 'E'
const SYNC = 0x53; // 'S'
const DATA_ROW = 0x44; // 'D'
const COMMAND_COMPLETE = 0x43; // 'C'
const ERROR_RESPONSE = 0x45; // 'E'

/** A statement's columns as it was described: names, and how each value is read from its text. */
export interface Columns {
  names: string[];
  /** Per column: its type's parser (PGlite's, with ours for date and int8), or undefined for the text. */
  parsers: (((text: string, type: number) => unknown) | undefined)[];
  types: number[];
}

export interface WireResult {
  rows: Record<string, unknown>[];
  /** Rows an INSERT, UPDATE, DELETE, COPY or MERGE touched; 0 for the others (as PGlite's parseResults). */
  affectedRows: number;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Writes one batch at a time into a buffer it keeps: the batch is read by PGlite before the next is written. */
export class BatchWriter {
  private bytes = new Uint8Array(1024);
  private view = new DataView(this.bytes.buffer);
  private at = 0;

  /** Bind (unnamed portal, `statement`, every value as text or NULL), Execute (all rows), Sync. */
  bindExecuteSync(statement: string, values: readonly (string | null)[]): Uint8Array {
    this.at = 0;
    const bind = this.begin(BIND);
    this.cstring('');
    this.cstring(statement);
    this.int16(0); // parameter formats: all text
    this.int16(values.length);
    for (const value of values) {
      if (value === null) {
        this.int32(-1);
        continue;
      }
      const lengthAt = this.at;
      this.int32(0);
      const length = this.string(value); // may move the buffer: the length goes into the new one
      this.view.setInt32(lengthAt, length);
    }
    this.int16(0); // result formats: all text
    this.end(bind);
    const execute = this.begin(EXECUTE);
    this.cstring('');
    this.int32(0); // no row limit
    this.end(execute);
    this.end(this.begin(SYNC));
    return this.bytes.subarray(0, this.at);
  }

  private ensure(more: number): void {
    if (this.at + more <= this.bytes.length) return;
    const bigger = new Uint8Array(Math.max(this.bytes.length * 2, this.at + more));
    bigger.set(this.bytes.subarray(0, this.at));
    this.bytes = bigger;
    this.view = new DataView(bigger.buffer);
  }

  private begin(code: number): number {
    this.ensure(5);
    const start = this.at;
    this.bytes[start] = code;
    this.at += 5;
    return start;
  }

  /** Sets the message's length: everything after its code. */
  private end(start: number): void {
    this.view.setInt32(start + 1, this.at - start - 1);
  }

  private int16(value: number): void {
    this.ensure(2);
    this.view.setInt16(this.at, value);
    this.at += 2;
  }

  private int32(value: number): void {
    this.ensure(4);
    this.view.setInt32(this.at, value);
    this.at += 4;
  }

  /** The string's UTF-8 bytes; returns how many. */
  private string(value: string): number {
    this.ensure(value.length * 3);
    const { written } = encoder.encodeInto(value, this.bytes.subarray(this.at));
    this.at += written;
    return written;
  }

  private cstring(value: string): void {
    if (value !== '') this.string(value);
    this.ensure(1);
    this.bytes[this.at++] = 0;
  }
}

/**
 * Reads the answer to `bindExecuteSync`: its rows by `columns` (undefined: the statement returns none), the
 * affected rows from CommandComplete. An ErrorResponse is thrown as pg-protocol's DatabaseError with the
 * same fields, as PGlite's query() throws it (code, detail, constraint, …).
 */
export function readResult(answer: Uint8Array, columns: Columns | undefined): WireResult {
  const view = new DataView(answer.buffer, answer.byteOffset, answer.byteLength);
  const rows: Record<string, unknown>[] = [];
  let affectedRows = 0;
  let error: Error | undefined;
  let offset = 0;
  while (offset + 5 <= answer.length) {
    const code = answer[offset];
    const length = view.getInt32(offset + 1);
    const body = offset + 5;
    const next = offset + 1 + length;
    if (code === DATA_ROW && columns) rows.push(readRow(answer, view, body, columns));
    else if (code === COMMAND_COMPLETE) affectedRows = affected(cstring(answer, body));
    else if (code === ERROR_RESPONSE && !error) error = readError(answer, body, length);
    offset = next;
  }
  if (error) throw error;
  return { rows, affectedRows };
}

function readRow(
  answer: Uint8Array,
  view: DataView,
  body: number,
  columns: Columns,
): Record<string, unknown> {
  const count = view.getInt16(body);
  let at = body + 2;
  const row: Record<string, unknown> = {};
  for (let i = 0; i < count; i++) {
    const length = view.getInt32(at);
    at += 4;
    let value: unknown = null;
    if (length >= 0) {
      const text = decoder.decode(answer.subarray(at, at + length));
      at += length;
      const parse = columns.parsers[i];
      value = parse ? parse(text, columns.types[i] as number) : text;
    }
    row[columns.names[i] as string] = value;
  }
  return row;
}

/** "UPDATE 3", "INSERT 0 5", "SELECT 2": the count of the commands that change rows, else 0. */
function affected(tag: string): number {
  const space = tag.indexOf(' ');
  const command = space < 0 ? tag : tag.slice(0, space);
  switch (command) {
    case 'INSERT':
    case 'UPDATE':
    case 'DELETE':
    case 'COPY':
    case 'MERGE':
      return Number.parseInt(tag.slice(tag.lastIndexOf(' ') + 1), 10);
    default:
      return 0;
  }
}

/** Where the zero-terminated string starting at `at` ends (its terminator). */
function cstringEnd(answer: Uint8Array, at: number): number {
  let end = at;
  while (end < answer.length && answer[end] !== 0) end++;
  return end;
}

function cstring(answer: Uint8Array, at: number): string {
  return decoder.decode(answer.subarray(at, cstringEnd(answer, at)));
}

/** The ErrorResponse's fields, as pg-protocol's parser sets them on its DatabaseError. */
const ERROR_FIELDS: Record<string, string> = {
  S: 'severity',
  C: 'code',
  D: 'detail',
  H: 'hint',
  P: 'position',
  p: 'internalPosition',
  q: 'internalQuery',
  W: 'where',
  s: 'schema',
  t: 'table',
  c: 'column',
  d: 'dataType',
  n: 'constraint',
  F: 'file',
  L: 'line',
  R: 'routine',
};

function readError(answer: Uint8Array, body: number, length: number): Error {
  const fields: Record<string, string> = {};
  let at = body;
  while (at < answer.length && answer[at] !== 0) {
    const end = cstringEnd(answer, at + 1);
    fields[String.fromCharCode(answer[at] as number)] = decoder.decode(answer.subarray(at + 1, end));
    at = end + 1;
  }
  const error = new protocol.messages.DatabaseError(fields.M ?? '', length, 'error');
  for (const [type, name] of Object.entries(ERROR_FIELDS)) {
    (error as unknown as Record<string, string | undefined>)[name] = fields[type];
  }
  return error;
}
