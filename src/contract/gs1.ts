import { CHECKS, type CheckKind, mod10Ok, yymmddToIso } from './gs1/checks.ts';
import { type Cset, matchesPattern, PREDEFINED_LENGTH } from './gs1/rows.ts';
import { type AiSpec, aiLengthOf, aiSpec } from './gs1/table.ts';
import { GROUP_SEPARATOR } from './limits.ts';
import { texts } from './texts.ts';

/**
 * GS1 codes as warehouse scanners deliver them (issues 8, 18): element strings — GS1-128, GS1 DataMatrix,
 * GS1 QR, DataBar, DotCode, with or without the symbology identifier (`]C1`, `]d2`, `]Q3`, `]e0`, `]J1`),
 * variable-length fields ended by the group separator (ASCII 29; a wedge's replacement for it is turned back
 * by src/web/ui/scan-settings.ts) —, the human-readable form with brackets, `(01)04006381333931(10)ABC`, and
 * GS1 Digital Link URIs behind any symbology identifier, `]Q1https://id.gs1.org/01/04006381333931/10/ABC?15=261231`.
 * All three are checked by the same rules: every AI's format, length, check routines and pairings from
 * GS1's Barcode Syntax Dictionary (src/contract/gs1/, generated table).
 *
 * What cannot be read is named, not guessed: an error in the label's identification key (GTIN, SSCC, …) or a
 * contradiction between keys refuses the whole label (`invalid`); any other field that is unknown, broken or
 * against GS1's pairing rules is left out and listed in `problems` with a German message naming its AI, and
 * the rest is used — a scan screen that needs only the GTIN still gets it from a label whose price field it
 * does not know. Pairing rules are judged on the one code scanned (GS1 judges them over all codes on an item).
 *
 * Shared by the web app and the server; only the screens that read GS1 load it (the table is ≈ 2.5 KB gzip).
 */
export { GROUP_SEPARATOR };

export interface Gs1Element {
  ai: string;
  value: string;
}

/** A part of the label that was not used, and why (German, naming the AI). */
export interface Gs1Problem {
  ai: string;
  message: string;
}

export interface Gs1Data {
  /** Every field read and valid, in label order (a field repeated with the same value: once). */
  elements: Gs1Element[];
  /** Fields left out (unknown, broken, against a pairing rule), first problem per AI, in label order. */
  problems: Gs1Problem[];
  /** AI 00: the pallet or parcel (18 digits). */
  sscc: string | null;
  /** AI 01 (the unit) or 02 (the trade items contained): GTIN-14. */
  gtin: string | null;
  /** Which AI the GTIN came from. */
  gtinFrom: '01' | '02' | null;
  /** AI 10: batch / lot (Charge). */
  batch: string | null;
  /** AI 15: best before, ISO `YYYY-MM-DD`; day 00 means the month's last day (also 16 and 17). */
  bestBefore: string | null;
  /** AI 16: sell by. */
  sellBy: string | null;
  /** AI 17: expiry / use by. */
  expiry: string | null;
  /**
   * The German MHD (decision 15): (15) best before, else (17) expiry, else (16) sell by — the first of
   * them the label carries; null when that one is broken (its problem is listed), never the next one instead.
   */
  mhd: string | null;
  mhdFrom: '15' | '17' | '16' | null;
  /** AI 30 or 37: count of items. */
  count: number | null;
}

export type Gs1Result =
  | { kind: 'gs1'; data: Gs1Data }
  | { kind: 'invalid'; message: string }
  | { kind: 'none' };

/** Symbology identifiers of codes in GS1 mode (element strings); a Digital Link may follow any identifier. */
const GS1_MODES = new Set([']C1', ']e0', ']d2', ']Q3', ']J1']);

const NONE: Gs1Result = { kind: 'none' };
const invalid = (message: string): Gs1Result => ({ kind: 'invalid', message });

/**
 * Reads a scan as GS1. `none`: not a GS1 code (a plain EAN, an article number, a tracking number without
 * marks, some other web address) — the caller uses the text as it is. `invalid`: meant as GS1 but not usable
 * (German message). Without any GS1 mark (symbology identifier, group separator, brackets, Digital Link) a
 * digit string only counts as GS1 when it starts with 00, 01 or 02 and reads completely and cleanly — so a
 * 13-digit EAN or a long article number is never taken apart.
 */
export function parseGs1(scan: string, today: Date = new Date()): Gs1Result {
  const text = scan.trim();
  const symbology = /^\][A-Za-z]\d/.exec(text)?.[0] ?? '';
  const body = text.slice(symbology.length);
  if (/^https?:\/\//i.test(body)) {
    const link = readDigitalLink(body);
    return link === 'none' ? NONE : evaluate(link, today);
  }
  if (symbology !== '' && !GS1_MODES.has(symbology)) return NONE;
  if (/^\(\d{2,4}\)/.test(body)) return evaluate(readBrackets(body), today);
  if (symbology !== '' || body.includes(GROUP_SEPARATOR)) return evaluate(readElementString(body), today);
  if (/^0[012]\d{14,}/.test(body)) {
    // Unmarked: GS1 only if every field reads (a pairing rule the code misses alone is no reason to doubt it).
    const read = evaluate(readElementString(body), today);
    if (read.kind !== 'gs1') return NONE;
    const { elements, problems } = read.data;
    return problems.every((p) => elements.some((e) => e.ai === p.ai)) ? read : NONE;
  }
  return NONE;
}

/** An element as found, before it is checked; `problem` set where the form itself already tells one. */
interface Found {
  ai: string;
  value: string;
  spec: AiSpec | undefined;
  problem?: string;
}

/** null: the structure breaks (no AI where one must start). */
function readElementString(data: string): Found[] | null {
  const found: Found[] = [];
  const nextSeparator = (from: number) => {
    const at = data.indexOf(GROUP_SEPARATOR, from);
    return at === -1 ? data.length : at;
  };
  let at = 0;
  while (at < data.length) {
    if (data[at] === GROUP_SEPARATOR) {
      at++; // FNC1 in first position, a separator after a predefined-length field
      continue;
    }
    const prefix = data.slice(at, at + 2);
    if (!/^\d\d$/.test(prefix)) return null;
    const predefined = PREDEFINED_LENGTH[prefix];
    const length = aiLengthOf(prefix) ?? (predefined ? 2 : undefined);
    const ai = length ? data.slice(at, at + length) : (/^\d{2,4}/.exec(data.slice(at))?.[0] as string);
    if (!/^\d+$/.test(ai) || (length !== undefined && ai.length !== length)) return null;
    const spec = aiSpec(ai);
    if (!spec) {
      // Unknown: GS1 fixes the length of every AI with a predefined-length prefix; any other ends at a separator.
      at = predefined ? Math.min(at + predefined, nextSeparator(at)) : nextSeparator(at);
      found.push({ ai, value: '', spec });
      continue;
    }
    at += ai.length;
    const end = spec.predefined ? Math.min(at + spec.maxLength, nextSeparator(at)) : nextSeparator(at);
    found.push({ ai, value: data.slice(at, end), spec });
    at = end;
  }
  return found;
}

/** `(01)04006381333931 (10)ABC`: values trimmed (no GS1 character set holds a space); `\(` is a bracket in data. */
function readBrackets(text: string): Found[] | null {
  const found: Found[] = [];
  const element = /\((\d{2,4})\)((?:\\\(|[^(])*)/y;
  while (element.lastIndex < text.length) {
    const match = element.exec(text);
    if (!match) return null;
    const ai = match[1] as string;
    found.push({ ai, value: (match[2] as string).replaceAll('\\(', '(').trim(), spec: aiSpec(ai) });
  }
  return found;
}

/** Short names of GS1 Digital Link 1.0, still printed on labels. */
const DL_ALIASES: Record<string, string> = {
  gtin: '01',
  sscc: '00',
  lot: '10',
  ser: '21',
  cpv: '22',
  exp: '17',
};

/**
 * A GS1 Digital Link URI: the path from its end — qualifiers, then the primary key; what stands before the
 * key is the resolver's own path — and the query's AIs (other parameters are the resolver's business).
 * null: meant as GS1 but not readable; 'none': a web address without a GS1 key.
 */
function readDigitalLink(text: string): Found[] | null | 'none' {
  let url: URL;
  let segments: string[];
  let query: [string, string][];
  try {
    url = new URL(text);
  } catch {
    return 'none';
  }
  try {
    segments = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    query = url.search
      .slice(1)
      .split('&')
      .filter(Boolean)
      .map((pair) => {
        const at = pair.indexOf('=');
        const [name, value] = at === -1 ? [pair, ''] : [pair.slice(0, at), pair.slice(at + 1)];
        return [decodeURIComponent(name), decodeURIComponent(value)]; // '+' stays '+' (character set 82)
      });
  } catch {
    return null; // broken percent-encoding
  }
  const aiOf = (name: string) => DL_ALIASES[name] ?? (/^\d{2,4}$/.test(name) ? name : null);

  const path: Found[] = [];
  let key: AiSpec | undefined;
  for (let i = segments.length - 2; i >= 0 && !key; i -= 2) {
    const ai = aiOf(segments[i] as string);
    if (!ai) break;
    // An AI this table does not know (not allocated, or newer than the dictionary) is named and left out,
    // as in the query and in element strings; the walk goes on to the key.
    const spec = aiSpec(ai);
    path.unshift({ ai, value: segments[i + 1] as string, spec });
    if (spec?.dlKey) key = spec;
  }
  if (!key) return segments.some((s) => aiSpec(aiOf(s) ?? '')?.dlKey) ? null : 'none';

  // Qualifiers in one of the key's orders (01: 22, 10, 21 or 235); one out of order is not used.
  const qualifiers = path.slice(1);
  let misplaced = qualifiers;
  for (const order of key.dlKey ?? []) {
    let next = 0;
    const wrong = qualifiers.filter((q) => {
      const at = order.indexOf(q.ai, next);
      if (at === -1) return true;
      next = at + 1;
      return false;
    });
    if (wrong.length < misplaced.length) misplaced = wrong;
  }
  for (const q of misplaced) q.problem = texts.gs1.misplaced(q.ai);

  const attributes: Found[] = [];
  for (const [name, value] of query) {
    const ai = aiOf(name);
    if (!ai) continue;
    const spec = aiSpec(ai);
    const attribute: Found = { ai, value, spec };
    if (spec && !spec.dlAttribute) attribute.problem = texts.gs1.misplaced(ai);
    attributes.push(attribute);
  }
  const found = [...path, ...attributes];
  // GTIN-8, -12 and -13 may stand in a link as they are; the GTIN-14 is the same number with leading zeros.
  for (const f of found)
    if ((f.ai === '01' || f.ai === '02') && /^(\d{8}|\d{12,13})$/.test(f.value))
      f.value = f.value.padStart(14, '0');
  return found;
}

const CSETS: Record<Cset, RegExp> = {
  N: /^\d*$/,
  X: /^[!"%-?A-Z_a-z]*$/, // character set 82: ! " % & ' ( ) * + , - . / 0–9 : ; < = > ? A–Z _ a–z
  Y: /^[#\-/0-9A-Z]*$/, // character set 39
  Z: /^[A-Za-z0-9_-]*={0,2}$/, // character set 64 (base64url), padding at the end
};

const CHECK_MESSAGES: Record<CheckKind, (ai: string) => string> = {
  checkDigit: texts.gs1.checkDigit,
  date: texts.gs1.badDate,
  time: texts.gs1.badTime,
  value: texts.gs1.badValue,
};

/** What is wrong with one field's data by the dictionary (length, character set, check routines), or null. */
function problemOf(ai: string, value: string, spec: AiSpec, today: Date): string | null {
  if (value === '') return texts.gs1.empty(ai);
  let at = 0;
  for (const component of spec.components) {
    if (at >= value.length && component.optional) break;
    if (value.length - at < component.min) return texts.gs1.tooShort(ai);
    const part = value.slice(at, at + component.max);
    at += part.length;
    if (!CSETS[component.cset].test(part))
      return component.cset === 'N' ? texts.gs1.notDigits(ai) : texts.gs1.badCharacters(ai);
    for (const name of component.checks) {
      const check = CHECKS[name];
      if (check && !check.ok(part, today)) return CHECK_MESSAGES[check.kind](ai);
    }
  }
  return at < value.length ? texts.gs1.tooLong(ai) : null;
}

/** One set of rules for every form: each field, then repeats, exclusions and requirements between fields. */
function evaluate(found: Found[] | null, today: Date): Gs1Result {
  if (!found) return invalid(texts.gs1.unreadable);
  const problems: Gs1Problem[] = [];
  const report = (ai: string, message: string) => {
    if (!problems.some((p) => p.ai === ai)) problems.push({ ai, message });
  };
  const isKey = (ai: string) => aiSpec(ai)?.key === true;
  /** Known AIs on the label, read or not: the pairing rules look at what the label carries. */
  const present = new Set<string>();
  const read: Found[] = [];
  for (const f of found) {
    if (!f.spec) {
      report(f.ai, texts.gs1.unknownAi(f.ai));
      continue;
    }
    present.add(f.ai);
    const problem = f.problem ?? problemOf(f.ai, f.value, f.spec, today);
    if (problem && f.spec.key) return invalid(problem);
    if (problem) report(f.ai, problem);
    else read.push(f);
  }

  const left = new Set(problems.map((p) => p.ai)); // AIs not used: one broken copy makes every copy doubtful
  const values = new Map<string, string>();
  for (const f of read) {
    const first = values.get(f.ai);
    if (first === undefined) values.set(f.ai, f.value);
    else if (first !== f.value) {
      if (isKey(f.ai)) return invalid(texts.gs1.twice(f.ai));
      report(f.ai, texts.gs1.twice(f.ai));
      left.add(f.ai);
    }
  }
  for (const a of present) {
    for (const pattern of aiSpec(a)?.ex ?? []) {
      for (const b of present) {
        if (b === a || !matchesPattern(b, pattern)) continue;
        if (isKey(a) && isKey(b)) {
          const [first, second] = [...present].filter((ai) => ai === a || ai === b); // in label order
          return invalid(texts.gs1.notWith(first as string, second as string));
        }
        for (const [x, y] of [
          [a, b],
          [b, a],
        ] as const) {
          if (isKey(x)) continue;
          report(x, texts.gs1.notWith(x, y));
          left.add(x);
        }
      }
    }
  }
  // Requirements are told, the field still used: the missing one may be on another code of the same item.
  for (const a of present)
    for (const group of aiSpec(a)?.req ?? [])
      if (!group.some((all) => all.every((p) => [...present].some((b) => matchesPattern(b, p)))))
        report(a, texts.gs1.needs(a, group));

  const elements: Gs1Element[] = [];
  for (const f of read)
    if (!left.has(f.ai) && !elements.some((e) => e.ai === f.ai)) elements.push({ ai: f.ai, value: f.value });
  if (elements.length === 0) return invalid(problems[0]?.message ?? texts.gs1.unreadable);

  const value = (ai: string) => elements.find((e) => e.ai === ai)?.value ?? null;
  const date = (ai: string) => {
    const yymmdd = value(ai);
    return yymmdd === null ? null : yymmddToIso(yymmdd, today);
  };
  const gtinFrom = value('01') !== null ? '01' : value('02') !== null ? '02' : null;
  const mhdFrom = (['15', '17', '16'] as const).find((ai) => present.has(ai)) ?? null;
  const count = value('30') ?? value('37');
  return {
    kind: 'gs1',
    data: {
      elements,
      problems,
      sscc: value('00'),
      gtin: gtinFrom && value(gtinFrom),
      gtinFrom,
      batch: value('10'),
      bestBefore: date('15'),
      sellBy: date('16'),
      expiry: date('17'),
      mhd: mhdFrom && date(mhdFrom),
      mhdFrom,
      count: count === null ? null : Number(count),
    },
  };
}

/** The GS1 mod-10 check digit is right (GTIN-8/12/13/14, GLN, SSCC). */
export function validCheckDigit(digits: string): boolean {
  return /^\d{8,18}$/.test(digits) && mod10Ok(digits);
}

/** YYMMDD as an ISO date with GS1's sliding century window; day 00 is the month's last day. */
export function isoDate(yymmdd: string, today: Date = new Date()): string | null {
  return yymmddToIso(yymmdd, today);
}
