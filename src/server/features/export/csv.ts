/**
 * CSV as RFC 4180 says: a header row, CRLF line ends, a field quoted when it holds the separator, a quote or
 * a line break (quotes doubled). null is an empty field. Separator `,` by default; `;` for German Excel,
 * which reads UTF-8 only after a byte order mark, so that variant starts with one.
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
  return `${values.map((v) => csvField(v, sep)).join(sep)}\r\n`;
}

function csvField(value: unknown, sep: Separator): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return text.includes(sep) || /["\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
