/**
 * The dictionary's check routines ("linters"), each on one component of an AI's data, after its length and
 * character set passed. Written from the GS1 General Specifications; `kind` picks the worker's message.
 * `NOT_CHECKED` lists the routines this scanner leaves out and why — a test fails for a routine the
 * dictionary names that is in neither list, so a new one is a decision, not an accident.
 */
export type CheckKind = 'checkDigit' | 'date' | 'time' | 'value';

interface Check {
  kind: CheckKind;
  ok: (value: string, today: Date) => boolean;
}

/** GS1 mod-10 check digit over any length (GTIN, SSCC, GLN, GSRN, GDTI…): weights 3 and 1 from the right. */
export function mod10Ok(digits: string): boolean {
  if (!/^\d{2,}$/.test(digits)) return false;
  let sum = 0;
  for (let i = digits.length - 2, weight = 3; i >= 0; i--, weight = 4 - weight)
    sum += Number(digits[i]) * weight;
  return (10 - (sum % 10)) % 10 === Number(digits[digits.length - 1]);
}

/** GS1's character set 82, in the order that gives each character its value for the check-character pair. */
export const CSET82 = `!"%&'()*+,-./0123456789:;<=>?ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz`;
const CSET32 = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
const PRIMES = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89];

/** The check-character pair of alphanumeric keys (GMN): the last two characters, mod 1021 over prime weights. */
function checkPairOk(value: string): boolean {
  const body = value.slice(0, -2);
  if (value.length < 3 || body.length > PRIMES.length) return false;
  let sum = 0;
  for (let i = 0; i < body.length; i++)
    sum += CSET82.indexOf(body[body.length - 1 - i] as string) * (PRIMES[i] as number);
  sum %= 1021;
  return value.slice(-2) === `${CSET32[sum >> 5]}${CSET32[sum & 31]}`;
}

/**
 * YYMMDD as an ISO date, `null` when it is none. The century follows GS1's sliding window (General
 * Specifications 7.12): a year more than 50 years ahead of today belongs to the last century, one 50 or
 * more behind to the next. Day 00 (`dayZero`) means the month's last day.
 */
export function yymmddToIso(yymmdd: string, today: Date, dayZero = true): string | null {
  const match = /^(\d\d)(\d\d)(\d\d)$/.exec(yymmdd);
  if (!match) return null;
  const thisYear = today.getUTCFullYear();
  let year = Math.floor(thisYear / 100) * 100 + Number(match[1]);
  if (year - thisYear > 50) year -= 100;
  else if (thisYear - year >= 50) year += 100;
  return isoOf(year, Number(match[2]), Number(match[3]), dayZero);
}

function isoOf(year: number, month: number, day: number, dayZero: boolean): string | null {
  if (month < 1 || month > 12) return null;
  const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const date = day === 0 && dayZero ? lastDay : day;
  if (date < 1 || date > lastDay) return null;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(date).padStart(2, '0')}`;
}

const inRange = (value: string, low: number, high: number) => Number(value) >= low && Number(value) <= high;

/** IBAN: two letters, two check digits, then the account; the whole number mod 97 is 1 (ISO 13616). */
function ibanOk(value: string): boolean {
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{1,30}$/.test(value)) return false;
  const digits = (value.slice(4) + value.slice(0, 4)).replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  let rest = 0;
  for (const digit of digits) rest = (rest * 10 + Number(digit)) % 97;
  return rest === 1;
}

export const CHECKS: Readonly<Record<string, Check>> = {
  csum: { kind: 'checkDigit', ok: mod10Ok },
  csumalpha: { kind: 'checkDigit', ok: checkPairOk },
  yymmd0: { kind: 'date', ok: (v, today) => yymmddToIso(v, today) !== null },
  yymmdd: { kind: 'date', ok: (v, today) => yymmddToIso(v, today, false) !== null },
  yyyymmdd: {
    kind: 'date',
    ok: (v) => isoOf(Number(v.slice(0, 4)), Number(v.slice(4, 6)), Number(v.slice(6, 8)), false) !== null,
  },
  hhmi: { kind: 'time', ok: (v) => inRange(v.slice(0, 2), 0, 23) && inRange(v.slice(2, 4), 0, 59) },
  hh: { kind: 'time', ok: (v) => inRange(v, 0, 23) },
  mi: { kind: 'time', ok: (v) => inRange(v, 0, 59) },
  ss: { kind: 'time', ok: (v) => inRange(v, 0, 59) },
  zero: { kind: 'value', ok: (v) => v === '0' },
  nonzero: { kind: 'value', ok: (v) => /[1-9]/.test(v) },
  yesno: { kind: 'value', ok: (v) => v === '0' || v === '1' },
  winding: { kind: 'value', ok: (v) => v === '0' || v === '1' || v === '9' },
  hyphen: { kind: 'value', ok: (v) => v === '-' },
  iso5218: { kind: 'value', ok: (v) => ['0', '1', '2', '9'].includes(v) },
  /** Piece number and total count, two digits each: 01 ≤ piece ≤ total. */
  pieceoftotal: {
    kind: 'value',
    ok: (v) => Number(v.slice(0, 2)) >= 1 && Number(v.slice(0, 2)) <= Number(v.slice(2, 4)),
  },
  /** Position in a sequence, `n/m` with 1 ≤ n ≤ m ≤ 9. */
  posinseqslash: { kind: 'value', ok: (v) => /^[1-9]\/[1-9]$/.test(v) && Number(v[0]) <= Number(v[2]) },
  nozeroprefix: { kind: 'value', ok: (v) => v === '0' || !v.startsWith('0') },
  hasnondigit: { kind: 'value', ok: (v) => /\D/.test(v) },
  /** Every `%` starts a percent-encoded byte. */
  pcenc: { kind: 'value', ok: (v) => !/%(?![0-9A-Fa-f]{2})/.test(v) },
  /** Latitude + 90 and longitude + 180, in ten-millionths of a degree. */
  latitude: { kind: 'value', ok: (v) => Number(v) <= 1_800_000_000 },
  longitude: { kind: 'value', ok: (v) => Number(v) < 3_600_000_000 },
  iban: { kind: 'value', ok: ibanOk },
};

/** Routines of the dictionary this scanner does not run, and why. */
export const NOT_CHECKED: Readonly<Record<string, string>> = {
  gcppos1: "needs GS1's list of company prefix lengths (a key's digits and check digit are checked)",
  gcppos2: "needs GS1's list of company prefix lengths (a key's digits and check digit are checked)",
  iso3166: 'list of ISO 3166 country codes not carried (three digits are checked)',
  iso3166999: 'list of ISO 3166 country codes not carried (three digits are checked)',
  iso3166alpha2: 'list of ISO 3166 country codes not carried (character set and length are checked)',
  iso4217: 'list of ISO 4217 currency codes not carried (three digits are checked)',
  importeridx: 'UIC importer index: not used in a warehouse',
  packagetype: 'list of UN/ECE package types not carried',
  mediatype: 'list of AIDC media types not carried',
  couponcode: 'coupon structure: not used in a warehouse',
  couponposoffer: 'coupon structure: not used in a warehouse',
};
