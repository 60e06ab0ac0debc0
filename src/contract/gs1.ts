import { texts } from './texts.ts';

/**
 * GS1 codes as warehouse scanners deliver them (issue 8): GS1-128 and GS1 DataMatrix/QR element strings
 * (with or without the symbology identifier `]C1`, `]d2`, `]Q3`, `]e0`; variable-length fields ended by the
 * group separator, ASCII 29), the human-readable form with brackets, `(01)04006381333931(10)ABC`, and GS1
 * Digital Link URIs, `https://id.gs1.org/01/04006381333931/10/ABC?17=261231`. Shared by the web app (one
 * scan fills several fields) and the server. Ours, not a library: the two GS1 toolkits carry the whole AI
 * table (≈ 100 KB) into every screen; a warehouse needs the logistics AIs below.
 */
export interface Gs1Element {
  ai: string;
  value: string;
}

export interface Gs1Data {
  elements: Gs1Element[];
  /** AI 00: the pallet or parcel (18 digits). */
  sscc: string | null;
  /** AI 01 (the unit) or 02 (the contained trade items): GTIN-14. */
  gtin: string | null;
  /** AI 10: batch / lot (Charge). */
  batch: string | null;
  /** AI 17: best before / expiry (MHD), ISO `YYYY-MM-DD`; day 00 means the month's last day. */
  expiry: string | null;
  /** AI 30 or 37: count of items. */
  count: number | null;
}

export type Gs1Result =
  | { kind: 'gs1'; data: Gs1Data }
  | { kind: 'invalid'; message: string }
  | { kind: 'none' };

export const GROUP_SEPARATOR = '\u001d';

type AiSpec = { fixed: number } | { max: number; numeric?: boolean };

/** Data length per AI: fixed, or variable up to `max` (ended by the group separator or the code's end). */
const AIS: Record<string, AiSpec> = {
  '00': { fixed: 18 },
  '01': { fixed: 14 },
  '02': { fixed: 14 },
  '10': { max: 20 },
  '11': { fixed: 6 },
  '12': { fixed: 6 },
  '13': { fixed: 6 },
  '15': { fixed: 6 },
  '16': { fixed: 6 },
  '17': { fixed: 6 },
  '20': { fixed: 2 },
  '21': { max: 20 },
  '22': { max: 20 },
  '30': { max: 8, numeric: true },
  '37': { max: 8, numeric: true },
  '240': { max: 30 },
  '241': { max: 30 },
  '250': { max: 30 },
  '251': { max: 30 },
  '400': { max: 30 },
  '401': { max: 30 },
  '402': { fixed: 17 },
  '403': { max: 30 },
  '410': { fixed: 13 },
  '411': { fixed: 13 },
  '412': { fixed: 13 },
  '413': { fixed: 13 },
  '414': { fixed: 13 },
  '415': { fixed: 13 },
  '420': { max: 20 },
  '421': { max: 12 },
  '422': { fixed: 3 },
  ...Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`9${i}`, { max: 30 }])),
};
/** 310n–369n: weights and measures, n decimals, 6 digits. */
const MEASURE = /^3[1-6]\d\d$/;

function specOf(ai: string): AiSpec | null {
  return AIS[ai] ?? (MEASURE.test(ai) ? { fixed: 6 } : null);
}

/** The AI at the start of `text` (2, 3 or 4 digits), or null. */
function aiAt(text: string): string | null {
  for (const length of [2, 3, 4]) {
    const ai = text.slice(0, length);
    if (/^\d+$/.test(ai) && ai.length === length && specOf(ai)) return ai;
  }
  return null;
}

/** The GS1 mod-10 check digit is right (GTIN-8/12/13/14, SSCC). */
export function validCheckDigit(digits: string): boolean {
  if (!/^\d{8,18}$/.test(digits)) return false;
  let sum = 0;
  for (let i = digits.length - 2, weight = 3; i >= 0; i--, weight = 4 - weight)
    sum += Number(digits[i]) * weight;
  return (10 - (sum % 10)) % 10 === Number(digits[digits.length - 1]);
}

const SYMBOLOGY = /^\](C1|d2|Q3|e0|J1)/;

/**
 * Reads a scan as GS1. `none`: not a GS1 code (a plain EAN, an article number, a tracking number without
 * marks) — the caller uses the text as it is. `invalid`: it is meant as GS1 but broken (German message).
 * Without any GS1 mark (symbology identifier, group separator, brackets, Digital Link) a digit string only
 * counts as GS1 when it starts with 00, 01 or 02 and reads completely with valid check digits — so a
 * 13-digit EAN is never taken apart.
 */
export function parseGs1(scan: string, today: Date = new Date()): Gs1Result {
  const text = scan.trim();
  if (/^https?:\/\//i.test(text)) return fromDigitalLink(text, today);
  if (text.startsWith('(')) return fromBrackets(text, today);
  const symbology = SYMBOLOGY.exec(text);
  if (symbology) return fromElementString(text.slice(symbology[0].length), today);
  if (text.includes(GROUP_SEPARATOR)) return fromElementString(text, today);
  if (/^0[012]\d{14,}/.test(text)) {
    const read = fromElementString(text, today);
    return read.kind === 'gs1' ? read : { kind: 'none' };
  }
  return { kind: 'none' };
}

function fromElementString(text: string, today: Date): Gs1Result {
  const elements: Gs1Element[] = [];
  let rest = text.startsWith(GROUP_SEPARATOR) ? text.slice(1) : text;
  while (rest.length > 0) {
    const ai = aiAt(rest);
    if (!ai) return invalid(texts.gs1.unknownAi(rest.slice(0, 4)));
    const spec = specOf(ai) as AiSpec;
    rest = rest.slice(ai.length);
    let value: string;
    if ('fixed' in spec) {
      value = rest.slice(0, spec.fixed);
      rest = rest.slice(spec.fixed);
      if (value.length < spec.fixed) return invalid(texts.gs1.tooShort(ai));
    } else {
      const end = rest.indexOf(GROUP_SEPARATOR);
      value = end === -1 ? rest : rest.slice(0, end);
      rest = end === -1 ? '' : rest.slice(end + 1);
      if (value.length === 0 || value.length > spec.max) return invalid(texts.gs1.badLength(ai));
    }
    if (rest.startsWith(GROUP_SEPARATOR)) rest = rest.slice(1); // a separator after a fixed field is allowed
    elements.push({ ai, value });
  }
  return fromElements(elements, today);
}

function fromBrackets(text: string, today: Date): Gs1Result {
  const elements: Gs1Element[] = [];
  const pattern = /\((\d{2,4})\)([^(]*)/gy;
  let consumed = 0;
  for (const match of text.matchAll(pattern)) {
    elements.push({ ai: match[1] as string, value: (match[2] as string).trim() });
    consumed = (match.index ?? 0) + match[0].length;
  }
  if (elements.length === 0 || consumed !== text.length) return invalid(texts.gs1.unreadable);
  for (const { ai, value } of elements) {
    const spec = specOf(ai);
    if (!spec) return invalid(texts.gs1.unknownAi(ai));
    if ('fixed' in spec ? value.length !== spec.fixed : value.length === 0 || value.length > spec.max)
      return invalid(texts.gs1.badLength(ai));
  }
  return fromElements(elements, today);
}

/** Short names Digital Link 1.0 allowed beside the numeric AIs. */
const DL_ALIASES: Record<string, string> = { gtin: '01', sscc: '00', lot: '10', ser: '21', exp: '17' };

function fromDigitalLink(text: string, today: Date): Gs1Result {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { kind: 'none' };
  }
  const segments = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  const keyAt = segments.findIndex((s) => ['00', '01', 'gtin', 'sscc'].includes(s));
  if (keyAt === -1) return { kind: 'none' }; // some other web address
  const elements: Gs1Element[] = [];
  for (let i = keyAt; i < segments.length; i += 2) {
    const ai = DL_ALIASES[segments[i] as string] ?? (segments[i] as string);
    const value = segments[i + 1];
    if (value === undefined || !specOf(ai)) return invalid(texts.gs1.unreadable);
    elements.push({ ai, value });
  }
  for (const [key, value] of url.searchParams) {
    const ai = DL_ALIASES[key] ?? key;
    if (specOf(ai)) elements.push({ ai, value }); // other parameters are the resolver's business
  }
  // GTIN-8/12/13 in a link: the GTIN-14 is the same number with leading zeros.
  for (const element of elements) if (element.ai === '01') element.value = element.value.padStart(14, '0');
  return fromElements(elements, today);
}

function fromElements(elements: Gs1Element[], today: Date): Gs1Result {
  const value = (...ais: string[]) => elements.find((e) => ais.includes(e.ai))?.value ?? null;
  for (const { ai, value: v } of elements) {
    if ([...v].some((c) => c.charCodeAt(0) < 32 || c.charCodeAt(0) === 127))
      return invalid(texts.gs1.unreadable);
    const spec = specOf(ai) as AiSpec;
    // Every fixed-length AI above is numeric, and so are the counts.
    if (('fixed' in spec || spec.numeric) && !/^\d+$/.test(v)) return invalid(texts.gs1.notDigits(ai));
    if (['00', '01', '02'].includes(ai) && !validCheckDigit(v)) return invalid(texts.gs1.checkDigit(ai));
  }
  const expiryText = value('17');
  const expiry = expiryText === null ? null : isoDate(expiryText, today);
  if (expiryText !== null && expiry === null) return invalid(texts.gs1.badDate('17'));
  const countText = value('30', '37');
  return {
    kind: 'gs1',
    data: {
      elements,
      sscc: value('00'),
      gtin: value('01', '02'),
      batch: value('10'),
      expiry,
      count: countText === null ? null : Number(countText),
    },
  };
}

/**
 * YYMMDD as a date. The century follows GS1's sliding window (General Specifications 7.12): a year more
 * than 50 years ahead of today belongs to the last century, one 50 or more behind to the next.
 */
export function isoDate(yymmdd: string, today: Date = new Date()): string | null {
  const match = /^(\d\d)(\d\d)(\d\d)$/.exec(yymmdd);
  if (!match) return null;
  const [yy, mm, dd] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const thisYear = today.getUTCFullYear();
  let year = Math.floor(thisYear / 100) * 100 + yy;
  if (year - thisYear > 50) year -= 100;
  else if (thisYear - year >= 50) year += 100;
  if (mm < 1 || mm > 12) return null;
  const lastDay = new Date(Date.UTC(year, mm, 0)).getUTCDate();
  const day = dd === 0 ? lastDay : dd;
  if (day > lastDay) return null;
  return `${year}-${String(mm).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

const invalid = (message: string): Gs1Result => ({ kind: 'invalid', message });
