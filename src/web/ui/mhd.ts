/** The formats a worker types or scans, each read as [day, month, year]. */
const FORMATS: [RegExp, (m: RegExpExecArray) => [number, number, number]][] = [
  // DDMMYY as a worker types it (years 20xx); a GS1 label's YYMMDD comes through src/contract/gs1.ts
  [/^(\d{2})(\d{2})(\d{2})$/, (m) => [Number(m[1]), Number(m[2]), 2000 + Number(m[3])]],
  // D.M.YYYY, DD.MM.YYYY, DD.MM.YY
  [
    /^(\d{1,2})\.(\d{1,2})\.(\d{2}|\d{4})$/,
    (m) => [Number(m[1]), Number(m[2]), (m[3]?.length === 2 ? 2000 : 0) + Number(m[3])],
  ],
  // YYYY-MM-DD
  [/^(\d{4})-(\d{2})-(\d{2})$/, (m) => [Number(m[3]), Number(m[2]), Number(m[1])]],
];

/**
 * A best-before date as a worker types or scans it. Answers the ISO date, or null when the text is in no
 * known format or no real calendar date (31.02. is refused, not rolled over).
 */
export function parseMhd(input: string): string | null {
  const text = input.trim();
  for (const [pattern, read] of FORMATS) {
    const match = pattern.exec(text);
    if (!match) continue;
    const [day, month, year] = read(match);
    const date = new Date(Date.UTC(year, month - 1, day));
    if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day)
      return null;
    return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
  }
  return null;
}
