import type { ImportReason } from '../../contract/leitstand/import-messages.ts';
import { because, inEnglish } from './messages.ts';

/**
 * CSV as ERP systems and Excel write it (RFC 4180): fields in double quotes may hold the separator, line
 * breaks and doubled quotes; lines end in CRLF or LF. The text is already decoded (encoding.ts: UTF-8 or
 * Windows-1252). German Excel separates with ';', most other exporters with ',' — the header line decides.
 */
export interface CsvRecord {
  /** Line number in the file (1 = header) where the record starts. */
  line: number;
  fields: string[];
}

export interface CsvFile {
  separator: ';' | ',' | '\t';
  header: CsvRecord;
  records: CsvRecord[];
}

export class CsvSyntaxError extends Error {
  constructor(
    readonly line: number,
    readonly reason: ImportReason,
  ) {
    super(`line ${line}: ${inEnglish(reason)}`);
  }
}

/** The separator the header line uses most often outside quotes (';' wins a tie: German exports). */
export function detectSeparator(text: string): ';' | ',' | '\t' {
  const counts = { ';': 0, ',': 0, '\t': 0 };
  let quoted = false;
  for (const char of text) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '\n' || char === '\r')) break;
    else if (!quoted && (char === ';' || char === ',' || char === '\t')) counts[char]++;
  }
  if (counts['\t'] > counts[';'] && counts['\t'] > counts[',']) return '\t';
  return counts[','] > counts[';'] ? ',' : ';';
}

/**
 * Parses the whole text. `onProgress` gets the share of characters read (0…1) now and then. Entirely empty
 * lines between records are skipped (Excel leaves them at the end); a line of only separators is a record
 * with empty fields (the importer skips those too).
 */
export function parseCsv(input: string, onProgress?: (share: number) => void): CsvFile {
  const file = openCsv(input, onProgress);
  return { separator: file.separator, header: file.header, records: [...file.records] };
}

/**
 * The header, and the records after it one at a time as they are parsed (a syntax error is thrown when the
 * parse gets there): the importer reads each record into its row at once, so a large file's records never
 * sit in memory all together (each field is a string of its own: 15 MB of CSV made ≈ 100 MB of them).
 */
export function openCsv(
  input: string,
  onProgress?: (share: number) => void,
  maxRecordChars = Number.POSITIVE_INFINITY,
): { separator: ';' | ',' | '\t'; header: CsvRecord; records: Iterable<CsvRecord> } {
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  const separator = detectSeparator(text);
  const all = csvRecords(text, separator, onProgress, maxRecordChars);
  const first = all.next();
  if (first.done) throw new CsvSyntaxError(1, because('fileEmpty', {}));
  return { separator, header: first.value, records: { [Symbol.iterator]: () => all } };
}

/**
 * `maxRecordChars`: a record longer than this (from its first character to its line end) is a syntax error
 * (`lineTooLong`), found as soon as the parse passes the limit — a file of one endless line never becomes
 * millions of fields.
 */
function* csvRecords(
  text: string,
  separator: string,
  onProgress?: (share: number) => void,
  maxRecordChars = Number.POSITIVE_INFINITY,
): Generator<CsvRecord, void, undefined> {
  let fields: string[] = [];
  let field = '';
  let line = 1;
  let recordLine = 1;
  let fieldQuoted = false;
  let i = 0;
  const n = text.length;
  let nextReport = 1 << 20;
  let recordStart = 0;
  const checkLength = () => {
    if (i - recordStart > maxRecordChars)
      throw new CsvSyntaxError(recordLine, because('lineTooLong', { max: maxRecordChars }));
  };

  /** The record that ends here, or null for an entirely empty line. */
  const endRecord = (): CsvRecord | null => {
    fields.push(field);
    const empty = fields.length === 1 && fields[0] === '' && !fieldQuoted;
    const record = empty ? null : { line: recordLine, fields };
    fields = [];
    field = '';
    fieldQuoted = false;
    return record;
  };

  while (i < n) {
    if (onProgress && i >= nextReport) {
      onProgress(i / n);
      nextReport = i + (1 << 20);
    }
    const char = text[i];
    if (char === '"' && field === '' && !fieldQuoted) {
      // A quoted field: up to the closing quote; "" is one quote.
      fieldQuoted = true;
      const startLine = line;
      i++;
      let value = '';
      for (;;) {
        const close = text.indexOf('"', i);
        if (close === -1) throw new CsvSyntaxError(startLine, because('quoteNotClosed', {}));
        const chunk = text.slice(i, close);
        value += chunk;
        for (let k = 0; k < chunk.length; k++) if (chunk.charCodeAt(k) === 10) line++;
        if (text[close + 1] === '"') {
          value += '"';
          i = close + 2;
          continue;
        }
        i = close + 1;
        break;
      }
      field = value;
      checkLength();
      const after = text[i];
      if (after !== undefined && after !== separator && after !== '\r' && after !== '\n') {
        throw new CsvSyntaxError(line, because('textAfterQuote', {}));
      }
      continue;
    }
    if (char === separator) {
      checkLength();
      fields.push(field);
      field = '';
      fieldQuoted = false;
      i++;
      continue;
    }
    if (char === '\r' || char === '\n') {
      const record = endRecord();
      if (record) yield record;
      i += char === '\r' && text[i + 1] === '\n' ? 2 : 1;
      line++;
      recordLine = line;
      recordStart = i;
      continue;
    }
    if (fieldQuoted) throw new CsvSyntaxError(line, because('textAfterQuote', {}));
    // Plain text up to the next separator or line end.
    let end = i;
    while (end < n) {
      const c = text[end];
      if (c === separator || c === '\r' || c === '\n') break;
      end++; // a quote inside an unquoted field (12" Rohr) is taken as it is, as Excel reads it
    }
    field += text.slice(i, end);
    i = end;
    checkLength();
  }
  if (field !== '' || fields.length > 0 || fieldQuoted) {
    const record = endRecord();
    if (record) yield record;
  }
  onProgress?.(1);
}
