import { GROUP_SEPARATOR } from '../../../contract/limits.ts';
import { scannerTestTexts } from '../../../contract/texts-scanner-test.ts';
import type { ScanSettings } from '../../ui/scan-settings.ts';
import { align, EDIT } from './alignment.ts';

/**
 * The scanner self-test (issue 8): the worker scans the printed test sheet's three codes into a plain field
 * that records every keydown and input event, and this module reads from them what the scanner really sends
 * — its terminator, its speed, how it types layout-sensitive characters and the GS1 group separator, and any
 * prefix or suffix — and says which scanner setting to change. Pure: the screen records, this judges.
 */

type TestCodeId = 'code128' | 'gs1' | 'qr';

export interface TestCode {
  id: TestCodeId;
  /** What a correctly set scanner types for it (the GS1 code with ASCII 29 after the batch). */
  text: string;
  /** What the test sheet prints under it and encodes: the GS1 code in bracket form. */
  printed: string;
}

/** Layout-sensitive characters, each between invariant digits so a wrong one cannot shift the others. */
const CODE128_TEXT = `Zy-1/2_3#4@5"6;7:8'9[0]`;
/** GTIN 04006381333931 (valid check digit), batch TEST42 — variable length, so a GS must end it —, MHD 31.12.2027. */
const GS1_TEXT = `010400638133393110TEST42${GROUP_SEPARATOR}17271231`;
const QR_TEXT =
  'Lagerscanner Selbsttest, Code 3 von 3: langer QR-Code. Alle Zeichen muessen vollstaendig und in der ' +
  'richtigen Reihenfolge ankommen. 0123456789 ABCDEFGHIJKLMNOPQRSTUVWXYZ abcdefghijklmnopqrstuvwxyz Ende.';

export const TEST_CODES: readonly TestCode[] = [
  { id: 'code128', text: CODE128_TEXT, printed: CODE128_TEXT },
  { id: 'gs1', text: GS1_TEXT, printed: '(01)04006381333931(10)TEST42(17)271231' },
  { id: 'qr', text: QR_TEXT, printed: QR_TEXT },
];

/** One keydown as the field saw it. */
export interface KeyRecord {
  key: string;
  code: string;
  /** The event's timeStamp (ms): when the key came in, not when the page got to handle it. */
  at: number;
  ctrl: boolean;
  alt: boolean;
}

export type Terminator = 'enter' | 'tab' | 'none';

/** One scan as recorded: from the first event to Enter, Tab, or a pause without keys. */
export interface CapturedScan {
  /** Every keydown, the terminator's included. */
  keys: KeyRecord[];
  /** When text arrived (input events): a wedge that sends the code as one string has no keydown per character. */
  inputs: number[];
  /** The field's text at the end: what a scan field would read. */
  text: string;
  terminator: Terminator;
}

export type Finding =
  | { kind: 'terminator'; got: 'tab' | 'none' }
  | { kind: 'timing'; medianMs: number; maxMs: number; slow: boolean }
  | { kind: 'layout'; pairs: CharPair[]; scannerShould: 'de' | 'us' }
  | { kind: 'caseSwapped'; pairs: CharPair[] }
  | { kind: 'groupSeparatorLost'; via: 'ctrl-bracket' | 'unidentified' | 'unknown' }
  | { kind: 'groupSeparatorAs'; text: string }
  | { kind: 'prefix'; text: string }
  | { kind: 'suffix'; text: string }
  | { kind: 'codeId'; text: string }
  | { kind: 'characters'; missing: number; duplicated: number; other: number };

interface CharPair {
  expected: string;
  /** '' when it did not arrive at all. */
  got: string;
}

export interface ScanReport {
  /** Which test code this was; null when it matches none. */
  code: TestCodeId | null;
  received: string;
  findings: Finding[];
}

/**
 * Gaps between characters a keyboard wedge should stay under: a USB wedge types a character every 1–8 ms.
 * A single longer gap is harmless while it stays well below the pause that ends a scan without Enter; a
 * busy handheld delays a key by 50–100 ms now and then by itself (measured in Chromium here: 62 ms).
 */
const SLOW_MEDIAN_MS = 10;
const STALL_MS = 150;
/** A scan without Enter or Tab ends after this long without keys. */
export const END_OF_SCAN_PAUSE_MS = 300;

type Framing = Pick<ScanSettings, 'prefix' | 'suffix' | 'groupSeparatorAs'>;

/** Reads one recorded scan against the test sheet and the device's scanner settings. */
export function analyzeScan(scan: CapturedScan, settings: Framing): ScanReport {
  const findings: Finding[] = [];
  if (scan.terminator !== 'enter') findings.push({ kind: 'terminator', got: scan.terminator });
  const timing = timingOf(scan);
  if (timing) findings.push(timing);
  const match = identify(scan.text);
  if (match) findings.push(...contentFindings(match.code, match.asTyped, scan, settings));
  return { code: match?.code.id ?? null, received: scan.text, findings };
}

/**
 * The test's result so far: the latest scan of each code counts (a scan after changing the scanner replaces
 * the one before), and the advice of all of them, each once.
 */
export function summarize(reports: readonly ScanReport[]): {
  latest: Partial<Record<TestCodeId, ScanReport>>;
  pending: number;
  findings: Finding[];
} {
  const latest: Partial<Record<TestCodeId, ScanReport>> = {};
  for (const report of reports) if (report.code) latest[report.code] = report;
  const findings: Finding[] = [];
  const seen = new Set<string>();
  for (const { id } of TEST_CODES) {
    for (const finding of latest[id]?.findings ?? []) {
      const advice = describeFinding(finding).advice;
      if (seen.has(advice)) continue;
      seen.add(advice);
      findings.push(finding);
    }
  }
  return { latest, pending: TEST_CODES.filter(({ id }) => !latest[id]).length, findings };
}

/** A finding in the worker's words: what is wrong and which setting to change. */
export function describeFinding(finding: Finding): { problem: string; advice: string } {
  const t = scannerTestTexts.findings;
  const pairs = (list: CharPair[]) =>
    list
      .slice(0, 6)
      .map((p) => t.pair(visible(p.expected), visible(p.got)))
      .join(', ');
  switch (finding.kind) {
    case 'terminator':
      return {
        problem: finding.got === 'tab' ? t.terminatorTab : t.terminatorNone,
        advice: t.terminatorAdvice,
      };
    case 'timing':
      return {
        problem: finding.slow ? t.slow(finding.medianMs, finding.maxMs) : t.stalls(finding.maxMs),
        advice: t.timingAdvice,
      };
    case 'layout':
      return {
        problem: t.layout(pairs(finding.pairs)),
        advice: finding.scannerShould === 'de' ? t.layoutAdviceDe : t.layoutAdviceUs,
      };
    case 'caseSwapped':
      return { problem: t.caseSwapped(pairs(finding.pairs)), advice: t.caseAdvice };
    case 'groupSeparatorLost':
      return {
        problem:
          finding.via === 'ctrl-bracket'
            ? t.gsLostCtrl
            : finding.via === 'unidentified'
              ? t.gsLostUnidentified
              : t.gsLost,
        advice: t.gsLostAdvice,
      };
    case 'groupSeparatorAs':
      return { problem: t.gsAs(visible(finding.text)), advice: t.gsAsAdvice(visible(finding.text)) };
    case 'prefix':
      return { problem: t.prefix(visible(finding.text)), advice: t.prefixAdvice(visible(finding.text)) };
    case 'suffix':
      return { problem: t.suffix(visible(finding.text)), advice: t.suffixAdvice(visible(finding.text)) };
    case 'codeId':
      return { problem: t.codeId(finding.text), advice: t.codeIdAdvice };
    case 'characters':
      return {
        problem: t.characters(finding.missing, finding.duplicated, finding.other),
        advice: t.charactersAdvice,
      };
  }
}

/** Control characters made readable: the group separator as ⟨GS⟩, others as ⟨0x..⟩. */
export function visible(text: string): string {
  return Array.from(text, (c) => {
    const ascii = c.charCodeAt(0);
    if (ascii >= 0x20 && ascii !== 0x7f) return c;
    return c === GROUP_SEPARATOR ? '⟨GS⟩' : `⟨0x${ascii.toString(16).padStart(2, '0')}⟩`;
  }).join('');
}

// --- Keyboard layouts ---------------------------------------------------------------------------------------

/**
 * A scanner set to a US layout on a device with a German one: the scanner presses the key that types the
 * character on a US keyboard, the device reads that key the German way. A scanner set to German on a US
 * device does the reverse. Characters a German keyboard types with AltGr (@ [ ] { } \ | ~) have no key
 * of their own on a US one and are usually lost.
 */
const US_ON_DE: Record<string, string> = Object.fromEntries(
  [
    'yz',
    'zy',
    'YZ',
    'ZY',
    '@"',
    '#§',
    '^&',
    '&/',
    '*(',
    '()',
    ')=',
    '-ß',
    '_?',
    '[ü',
    '{Ü',
    ']+',
    '}*',
    ';ö',
    ':Ö',
    "'ä",
    '"Ä',
    '\\#',
    "|'",
    '<;',
    '>:',
    '/-',
    '?_',
    '~°',
  ].map((pair) => [pair[0], pair[1]]),
) as Record<string, string>;
const DE_ON_US: Record<string, string> = Object.fromEntries(
  Object.entries(US_ON_DE).map(([intended, typed]) => [typed, intended]),
);
const ALTGR_ON_DE = new Set(['@', '[', ']', '{', '}', '\\', '|', '~', '€']);

const swapCase = (c: string) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase());
const OTHER_LAYOUTS: ((c: string) => string)[] = [(c) => US_ON_DE[c] ?? c, (c) => DE_ON_US[c] ?? c, swapCase];

// --- Which code, and what differs --------------------------------------------------------------------------

/**
 * The test code this text is, allowing for a wrong layout or Caps Lock; null when none is close. With it,
 * the code as that layout types it (the same length: a lost character is a difference, not a mapping).
 */
function identify(received: string): { code: TestCode; asTyped: string } | null {
  if (received === '') return null;
  let best: { code: TestCode; asTyped: string; score: number } | null = null;
  for (const code of TEST_CODES) {
    const exact = align(code.text, received).cost;
    let fit = { asTyped: code.text, cost: exact };
    for (const layout of OTHER_LAYOUTS) {
      const asTyped = Array.from(code.text, (c) => (c === GROUP_SEPARATOR ? c : layout(c))).join('');
      const cost = align(asTyped, received).cost;
      // Another layout must explain most of the differences, not one or two by a lucky shift.
      if (cost * 2 < exact && cost < fit.cost) fit = { asTyped, cost };
    }
    const score = fit.cost / (EDIT * code.text.length);
    if (!best || score < best.score) best = { code, asTyped: fit.asTyped, score };
  }
  return best && best.score <= 0.4 ? best : null;
}

function contentFindings(code: TestCode, asTyped: string, scan: CapturedScan, settings: Framing): Finding[] {
  const received = scan.text;
  const { start, end, ops } = align(asTyped, received);
  const findings: Finding[] = [];
  let prefix = received.slice(0, start);
  let suffix = received.slice(end);
  // A first or last character read twice looks like a one-letter prefix or suffix: count it as doubled.
  let duplicated = 0;
  const first = code.text[0] ?? '';
  const last = code.text[code.text.length - 1] ?? '';
  if (prefix !== '' && Array.from(prefix).every((c) => c === first)) {
    duplicated += prefix.length;
    prefix = '';
  }
  if (suffix !== '' && Array.from(suffix).every((c) => c === last)) {
    duplicated += suffix.length;
    suffix = '';
  }

  const layoutPairs: CharPair[] = [];
  const casePairs: CharPair[] = [];
  let votesDe = 0;
  let votesUs = 0;
  let missing: string[] = [];
  let other = 0;
  for (const op of ops) {
    if (op.kind === 'char') {
      const expected = code.text[op.i] as string;
      if (op.got === expected) continue;
      const byUs = US_ON_DE[expected] === op.got;
      const byDe = DE_ON_US[expected] === op.got;
      if (byUs || byDe) {
        layoutPairs.push({ expected, got: op.got });
        if (byUs) votesDe++;
        if (byDe) votesUs++;
      } else if (swapCase(expected) === op.got) casePairs.push({ expected, got: op.got });
      else other++;
    } else if (op.kind === 'missing') missing.push(code.text[op.i] as string);
    else if (op.kind === 'extra') {
      if (op.got === received[op.at - 1] || op.got === received[op.at + 1]) duplicated++;
      else other++;
    } else if (op.kind === 'gs') findings.push(...groupSeparatorFindings(op.got, scan, settings));
  }
  if (layoutPairs.length > 0) {
    const scannerShould = votesUs > votesDe ? 'us' : 'de';
    if (scannerShould === 'us') {
      // A US device has no key for what a German scanner types with AltGr: those are lost to the layout.
      for (const c of missing.filter((c) => ALTGR_ON_DE.has(c))) layoutPairs.push({ expected: c, got: '' });
      missing = missing.filter((c) => !ALTGR_ON_DE.has(c));
    }
    findings.push({ kind: 'layout', pairs: uniquePairs(layoutPairs), scannerShould });
  }
  if (casePairs.length > 0) findings.push({ kind: 'caseSwapped', pairs: uniquePairs(casePairs) });
  if (missing.length + duplicated + other > 0)
    findings.push({ kind: 'characters', missing: missing.length, duplicated, other });

  findings.unshift(...framingFindings(code, prefix, suffix, settings));
  return findings;
}

function framingFindings(code: TestCode, prefix: string, suffix: string, settings: Framing): Finding[] {
  const findings: Finding[] = [];
  if (prefix !== '' && prefix !== settings.prefix) {
    const unconfigured =
      settings.prefix && prefix.startsWith(settings.prefix) ? prefix.slice(settings.prefix.length) : prefix;
    // ]C1 on a GS1-128 code is read (and dropped) by the app itself; a code id on other codes is not.
    const readByApp = code.id === 'gs1' && unconfigured === ']C1';
    if (/^\][A-Za-z][0-9A-Za-z]$/.test(unconfigured)) {
      if (!readByApp) findings.push({ kind: 'codeId', text: unconfigured });
    } else findings.push({ kind: 'prefix', text: prefix });
  }
  if (suffix !== '' && suffix !== settings.suffix) findings.push({ kind: 'suffix', text: suffix });
  return findings;
}

function groupSeparatorFindings(got: string, scan: CapturedScan, settings: Framing): Finding[] {
  if (got === GROUP_SEPARATOR || (got !== '' && got === settings.groupSeparatorAs)) return [];
  if (got !== '') return [{ kind: 'groupSeparatorAs', text: got }];
  const ctrlBracket = scan.keys.some((k) => k.ctrl && (k.code === 'BracketRight' || k.key === ']'));
  const unidentified = scan.keys.filter((k) => k.key === 'Unidentified').length;
  const typed = scan.keys.filter((k) => k.key.length === 1).length;
  const via = ctrlBracket
    ? 'ctrl-bracket'
    : unidentified > 0 && unidentified <= 2 && typed > 0
      ? 'unidentified'
      : 'unknown';
  return [{ kind: 'groupSeparatorLost', via }];
}

function uniquePairs(pairs: CharPair[]): CharPair[] {
  const seen = new Set<string>();
  return pairs.filter((p) => {
    const key = `${p.expected}\u0000${p.got}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

// --- Timing ------------------------------------------------------------------------------------------------

const MODIFIERS = new Set(['Shift', 'Control', 'Alt', 'AltGraph', 'Meta', 'CapsLock']);

/**
 * Gaps between characters: between keydowns (Shift and the like left out: a scanner presses them between two
 * characters), or between input events when the text came without a keydown per character.
 */
function timingOf(scan: CapturedScan): Finding | null {
  const keyTimes = scan.keys.filter((k) => !MODIFIERS.has(k.key)).map((k) => k.at);
  const times = keyTimes.length >= scan.inputs.length ? keyTimes : scan.inputs;
  if (times.length < 6) return null;
  const gaps = times.slice(1).map((t, i) => t - (times[i] as number));
  const sorted = [...gaps].sort((a, b) => a - b);
  const medianMs = Math.round(sorted[Math.floor(sorted.length / 2)] as number);
  const maxMs = Math.round(sorted[sorted.length - 1] as number);
  const slow = medianMs > SLOW_MEDIAN_MS;
  if (!slow && maxMs <= STALL_MS) return null;
  return { kind: 'timing', medianMs, maxMs, slow };
}
