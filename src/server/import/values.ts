import type { ImportReason } from '../../contract/leitstand/import-messages.ts';
import { because } from './messages.ts';

/**
 * Cell values as German ERP exports write them. Each parser returns the value or the reason why the cell is
 * refused (a code: English for the CLI, German in the Leitstand; src/server/import/messages.ts).
 */
export type Parsed<T> = { ok: true; value: T } | { ok: false; reason: ImportReason };

const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });

/** A refused cell as a reason quotes it: at most 60 characters (a report lists it, and keeps it a week). */
export const quoted = (text: string) => (text.length > 60 ? `${text.slice(0, 59)}…` : text);
const no = <T>(reason: ImportReason): Parsed<T> => ({ ok: false, reason });

/**
 * A number: German "1.234,5" / "1234,5" / "-3", or "1234.5". With a comma, the comma is the decimal mark
 * and dots group thousands; without one, a dot followed by groups of exactly three digits groups thousands
 * ("1.234" is 1234, as a German export means it) and any other dot is a decimal point ("12.5").
 */
export function parseNumber(text: string): Parsed<number> {
  const t = text.trim().replace(/\s/g, '');
  let normalized: string;
  if (/^[+-]?\d{1,3}(\.\d{3})+(,\d+)?$/.test(t) || /^[+-]?\d+(,\d+)?$/.test(t)) {
    normalized = t.replaceAll('.', '').replace(',', '.');
  } else if (/^[+-]?\d+(\.\d+)?$/.test(t)) {
    normalized = t;
  } else {
    return no(because('notANumber', { value: quoted(text) }));
  }
  const value = Number(normalized);
  return Number.isFinite(value) ? ok(value) : no(because('notANumber', { value: quoted(text) }));
}

/** A whole number within [min, max]; "12,0" is 12, "12,5" is refused. */
export function parseWholeNumber(text: string, min: number, max: number): Parsed<number> {
  const number = parseNumber(text);
  if (!number.ok) return number;
  if (!Number.isInteger(number.value)) return no(because('notAWholeNumber', { value: quoted(text) }));
  if (number.value < min || number.value > max)
    return no(because('outOfRange', { value: number.value, min, max }));
  return ok(number.value);
}

/**
 * A calendar date as 'YYYY-MM-DD': "31.12.2027", "31.12.27" (20xx), "1.2.2027" or ISO "2027-12-31". A time
 * after it, as some ERPs export date fields ("31.12.2027 00:00:00"), is ignored.
 */
export function parseDate(text: string): Parsed<string> {
  const t = text.trim().replace(/[ T]\d{1,2}:\d{2}(:\d{2}(\.\d+)?)?$/, '');
  let year: number;
  let month: number;
  let day: number;
  const german = /^(\d{1,2})\.(\d{1,2})\.(\d{2}|\d{4})$/.exec(t);
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(t);
  if (german) {
    day = Number(german[1]);
    month = Number(german[2]);
    year = Number(german[3]);
    if ((german[3] ?? '').length === 2) year += 2000;
  } else if (iso) {
    year = Number(iso[1]);
    month = Number(iso[2]);
    day = Number(iso[3]);
  } else {
    return no(because('notADate', { value: quoted(text) }));
  }
  const date = new Date(Date.UTC(year, month - 1, day));
  if (
    year < 1900 ||
    date.getUTCFullYear() !== year ||
    date.getUTCMonth() !== month - 1 ||
    date.getUTCDate() !== day
  ) {
    return no(because('notACalendarDate', { value: quoted(text) }));
  }
  return ok(`${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`);
}

const TRUE = new Set(['ja', 'j', 'x', '1', 'wahr', 'true', 'yes', 'y']);
const FALSE = new Set(['nein', 'n', '0', 'falsch', 'false', 'no', '-']);

/** Ja/Nein as exports write it (ja, j, x, 1, wahr / nein, n, 0, falsch); empty is `empty`. */
export function parseBoolean(text: string, empty: boolean): Parsed<boolean> {
  const t = text.trim().toLowerCase();
  if (t === '') return ok(empty);
  if (TRUE.has(t)) return ok(true);
  if (FALSE.has(t)) return ok(false);
  return no(because('notABoolean', { value: quoted(text) }));
}

/** True when an EAN/GTIN of 8, 12, 13 or 14 digits has the right check digit. */
export function isValidGtin(code: string): boolean {
  if (!/^(\d{8}|\d{12,14})$/.test(code)) return false;
  let sum = 0;
  const body = code.slice(0, -1);
  for (let i = 0; i < body.length; i++) {
    const digit = Number(body[body.length - 1 - i]);
    sum += digit * (i % 2 === 0 ? 3 : 1);
  }
  return (10 - (sum % 10)) % 10 === Number(code.at(-1));
}

/** Control characters (other than tab) have no place in a code or a name. */
export function hasControlCharacter(text: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: that is the point
  return /[\u0000-\u0008\u000a-\u001f\u007f]/.test(text);
}

/**
 * Characters that are invisible yet change what a text is or how it reads: the C1 controls (U+0080–U+009F,
 * U+0085 a line break to some programs), the bidi marks, embeddings, overrides and isolates (U+202E turns
 * "Kugelschreiber" into a name that reads backwards on the screen and in a CSV), and the line and paragraph
 * separators. A name or code from an ERP holds none of them legitimately.
 */
const HIDDEN_CHARACTER = /[\u0080-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/;

/** The first such character as `U+202E`, or null. */
export function hiddenCharacter(text: string): string | null {
  const match = HIDDEN_CHARACTER.exec(text);
  if (!match) return null;
  return `U+${(match[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}
