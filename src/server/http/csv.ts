/**
 * CSV as RFC 4180 says: a header row, CRLF line ends, a field quoted when it holds the separator, a quote or
 * a line break (quotes doubled). null is an empty field. Separator `,` by default; `;` for German Excel,
 * which reads UTF-8 only after a byte order mark, so that variant starts with one. Every CSV the project
 * writes goes through `csvCell`, which also keeps a spreadsheet from running a cell as a formula.
 */
export type Separator = ',' | ';';

export function csvHeader(columns: readonly string[], sep: Separator): string {
  return (sep === ';' ? '\uFEFF' : '') + csvLine(columns, sep);
}

export function csvRows(
  rows: readonly Record<string, unknown>[],
  columns: readonly string[],
  sep: Separator,
): string {
  let out = '';
  for (const row of rows)
    out += csvLine(
      columns.map((c) => row[c]),
      sep,
    );
  return out;
}

function csvLine(values: readonly unknown[], sep: Separator): string {
  return `${values.map((v) => csvCell(v, sep)).join(sep)}\r\n`;
}

/**
 * Where a spreadsheet starts a formula (OWASP "CSV injection": = + - @ TAB CR; LF and NUL too, as ASVS 1.2.10
 * lists them). Excel evaluates `=HYPERLINK(…)` typed into a Charge as soon as IT opens the file.
 */
const FORMULA_START = /^[=+\-@\t\r\n\0]/;

/**
 * One cell. A text starting like a formula gets a single quote before it and is quoted: the spreadsheet then
 * shows the text. Decided by the column's type, not by how the cell looks: a number (every amount, count and
 * id, typed as a number by the contract) is written as it is — `-5` is data, and a plain number can never be
 * a formula — while a text column is neutralised whatever it holds, so a Charge "-5" reads as '-5 (the
 * worker's text, not a number Excel made of it). JSON goes out unchanged; only CSV is read by spreadsheets.
 */
export function csvCell(value: unknown, sep: Separator): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  const text = String(value);
  if (FORMULA_START.test(text)) return `"'${text.replaceAll('"', '""')}"`;
  return text.includes(sep) || /["\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
