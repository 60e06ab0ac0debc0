import { describe, expect, it } from 'vitest';
import { parseGs1 } from '../../../contract/gs1.ts';
import {
  analyzeScan,
  type CapturedScan,
  describeFinding,
  type Finding,
  type KeyRecord,
  type ScanReport,
  summarize,
  TEST_CODES,
  type Terminator,
} from './scanner-test.ts';

const GS = '\u001d';
const [CODE128, GS1, QR] = TEST_CODES.map((c) => c.text) as [string, string, string];
const NO_FRAMING = { prefix: '', suffix: '', groupSeparatorAs: '' };

/**
 * A keyboard wedge as the page sees it: a keydown per character (and the input event that puts it into
 * the field), spaced by the given gaps, then the terminator's keydown.
 */
class Wedge {
  private at = 10_000;
  private step = 0;
  private readonly keys: KeyRecord[] = [];
  private readonly inputs: number[] = [];
  private text = '';

  constructor(private readonly gaps: readonly number[] = [2]) {}

  private next(): number {
    const at = this.at;
    this.at += this.gaps[this.step++ % this.gaps.length] as number;
    return at;
  }

  /** Each character as its own key (Shift-free: a scanner's Shift keydowns are left out of the timing). */
  type(text: string): this {
    for (const c of text) {
      const at = this.next();
      this.keys.push({ key: c, code: '', at, ctrl: false, alt: false });
      this.inputs.push(at);
      this.text += c;
    }
    return this;
  }

  /** A key that types nothing into the field (Ctrl+], an Unidentified key). */
  press(key: string, code: string, ctrl = false): this {
    if (ctrl) this.keys.push({ key: 'Control', code: 'ControlLeft', at: this.at, ctrl: true, alt: false });
    this.keys.push({ key, code, at: this.next(), ctrl, alt: false });
    return this;
  }

  /** Text put in without a keydown of its own: a wedge committing a string, or ASCII 29 as a character. */
  insert(text: string): this {
    this.inputs.push(this.next());
    this.text += text;
    return this;
  }

  end(terminator: Terminator = 'enter'): CapturedScan {
    if (terminator !== 'none') {
      const key = terminator === 'enter' ? 'Enter' : 'Tab';
      this.keys.push({ key, code: key, at: this.next(), ctrl: false, alt: false });
    }
    return { keys: this.keys, inputs: this.inputs, text: this.text, terminator };
  }
}

/** A correctly set scanner: the GS1 code's separator arrives as ASCII 29 (no keydown, as a wedge inserts it). */
function wellSet(code: string, gaps?: number[]): CapturedScan {
  const [before, after] = code.split(GS);
  const wedge = new Wedge(gaps).type(before as string);
  if (after !== undefined) wedge.insert(GS).type(after);
  return wedge.end();
}

function firstOf(report: ScanReport): Finding {
  const [finding] = report.findings;
  if (!finding) throw new Error('no finding');
  return finding;
}

const kinds = (scan: CapturedScan, settings = NO_FRAMING) =>
  analyzeScan(scan, settings).findings.map((f) => f.kind);

describe('the scanner self-test', () => {
  it('prints a GS1 code the app reads as the scanner should type it: GTIN, batch, GS, expiry', () => {
    const gs1 = TEST_CODES[1];
    const today = new Date('2026-11-23');
    expect(parseGs1(gs1?.text ?? '', today)).toEqual(parseGs1(gs1?.printed ?? '', today));
    expect(parseGs1(gs1?.text ?? '', today)).toMatchObject({
      kind: 'gs1',
      data: { gtin: '04006381333931', batch: 'TEST42', expiry: '2027-12-31' },
    });
    expect(QR.length).toBeGreaterThanOrEqual(150);
  });

  it('passes a correctly set scanner on all three codes, in any order', () => {
    const reports = [QR, CODE128, GS1].map((code) => analyzeScan(wellSet(code), NO_FRAMING));
    expect(reports.map((r) => r.code)).toEqual(['qr', 'code128', 'gs1']);
    expect(reports.flatMap((r) => r.findings)).toEqual([]);
    expect(summarize(reports)).toMatchObject({ pending: 0, findings: [] });
  });

  it('tells which code is still to scan and ignores codes that are not on the sheet', () => {
    const article = analyzeScan(new Wedge().type('4006381333931').end(), NO_FRAMING);
    expect(article).toMatchObject({ code: null, findings: [] });
    const summary = summarize([article, analyzeScan(wellSet(GS1), NO_FRAMING)]);
    expect(summary.pending).toBe(2);
    expect(Object.keys(summary.latest)).toEqual(['gs1']);
  });

  describe('terminator', () => {
    it('asks for Enter as suffix when the scanner ends with Tab', () => {
      const report = analyzeScan(new Wedge().type(CODE128).end('tab'), NO_FRAMING);
      expect(report.findings).toEqual([{ kind: 'terminator', got: 'tab' }]);
      expect(describeFinding(firstOf(report))).toEqual({
        problem: 'Der Scanner beendet den Code mit Tab statt mit Enter.',
        advice: 'Suffix im Scanner auf Enter (CR) stellen.',
      });
    });

    it('asks for Enter as suffix when the scan ends without any terminator', () => {
      const report = analyzeScan(new Wedge().type(QR).end('none'), NO_FRAMING);
      expect(report.code).toBe('qr');
      expect(report.findings).toEqual([{ kind: 'terminator', got: 'none' }]);
    });
  });

  describe('timing', () => {
    it('finds a slow Bluetooth scanner (about 20–35 ms per character)', () => {
      const report = analyzeScan(wellSet(QR, [22, 31, 18, 27, 35, 24]), NO_FRAMING);
      expect(report.findings).toEqual([{ kind: 'timing', medianMs: 27, maxMs: 35, slow: true }]);
      expect(describeFinding(firstOf(report)).advice).toBe(
        'Zeichenverzögerung (Inter-Character Delay) im Scanner auf 0 stellen; bei Bluetooth die schnellste Übertragung wählen.',
      );
    });

    it('finds a fast scanner that stalls once in the middle of a code', () => {
      const gaps = Array.from({ length: 40 }, (_, i) => (i === 20 ? 220 : 3));
      const report = analyzeScan(wellSet(QR, gaps), NO_FRAMING);
      expect(report.findings).toEqual([{ kind: 'timing', medianMs: 3, maxMs: 220, slow: false }]);
      expect(describeFinding(firstOf(report)).problem).toBe('Die Übertragung stockt: längste Pause 220 ms.');
    });

    it('leaves a USB wedge at 1–8 ms per character alone, a single hiccup of 80 ms too', () => {
      expect(kinds(wellSet(QR, [1, 4, 8, 2, 6]))).toEqual([]);
      expect(kinds(wellSet(QR, [...Array<number>(60).fill(3), 80]))).toEqual([]);
    });

    it('leaves the Shift keys a scanner presses out of the character gaps', () => {
      const wedge = new Wedge([4]);
      for (const c of CODE128) {
        if (/[A-Z"@#_:]/.test(c)) wedge.press('Shift', 'ShiftLeft');
        wedge.type(c);
      }
      expect(kinds(wedge.end())).toEqual([]);
    });
  });

  describe('keyboard layout', () => {
    it('finds a scanner set to US on a German device: y/z swapped, @ as ", - as ß', () => {
      // What a German device reads when the scanner presses the US keys for Zy-1/2_3#4@5"6;7:8'9[0]
      const report = analyzeScan(new Wedge().type(`Yzß1-2?3§4"5Ä6ö7Ö8ä9ü0+`).end(), NO_FRAMING);
      expect(report.code).toBe('code128');
      expect(report.findings).toHaveLength(1);
      expect(report.findings[0]).toMatchObject({ kind: 'layout', scannerShould: 'de' });
      expect(report.findings[0]).toHaveProperty(
        'pairs',
        expect.arrayContaining([
          { expected: 'y', got: 'z' },
          { expected: '@', got: '"' },
        ]),
      );
      expect(describeFinding(firstOf(report))).toEqual({
        problem:
          'Zeichen kommen vertauscht an: „Z“ als „Y“, „y“ als „z“, „-“ als „ß“, „/“ als „-“, „_“ als „?“, „#“ als „§“.',
        advice: 'Tastaturlayout des Scanners auf Deutsch (DE) stellen – wie das Gerät.',
      });
    });

    it('finds only y/z and @ swapped (a scanner mixing layouts) as a layout problem too', () => {
      const report = analyzeScan(new Wedge().type(`Yz-1/2_3#4"5"6;7:8'9[0]`).end(), NO_FRAMING);
      expect(report.findings).toEqual([
        {
          kind: 'layout',
          scannerShould: 'de',
          pairs: [
            { expected: 'Z', got: 'Y' },
            { expected: 'y', got: 'z' },
            { expected: '@', got: '"' },
          ],
        },
      ]);
    });

    it('finds a German scanner on a US device, whose AltGr characters get lost', () => {
      // A German scanner's keys read the US way: - as /, " as @, and @ [ ] (AltGr) typed nothing.
      const report = analyzeScan(new Wedge().type('Yz/1&2?3\\45@6<7>8|90').end(), NO_FRAMING);
      expect(report.code).toBe('code128');
      expect(report.findings).toHaveLength(1);
      expect(report.findings[0]).toMatchObject({ kind: 'layout', scannerShould: 'us' });
      expect(report.findings[0]).toHaveProperty(
        'pairs',
        expect.arrayContaining([
          { expected: '"', got: '@' },
          { expected: '@', got: '' },
        ]),
      );
      expect(describeFinding(firstOf(report)).advice).toBe(
        'Tastaturlayout des Scanners auf Englisch (US) stellen – wie das Gerät – oder das Gerät auf Deutsch umstellen.',
      );
    });

    it('finds the layout in the long QR code as well', () => {
      const mangled = QR.replaceAll('y', '\u0000')
        .replaceAll('z', 'y')
        .replaceAll('\u0000', 'z')
        .replaceAll('-', 'ß');
      expect(analyzeScan(new Wedge().type(mangled).end(), NO_FRAMING).findings).toMatchObject([
        { kind: 'layout', scannerShould: 'de' },
      ]);
    });

    it('finds upper and lower case swapped (Caps Lock)', () => {
      const swapped = Array.from(QR, (c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join(
        '',
      );
      const report = analyzeScan(new Wedge().type(swapped).end(), NO_FRAMING);
      expect(report.code).toBe('qr');
      expect(report.findings.map((f) => f.kind)).toEqual(['caseSwapped']);
    });
  });

  describe('GS1 group separator', () => {
    const [before, after] = GS1.split(GS) as [string, string];

    it('accepts ASCII 29 as it arrives', () => {
      expect(kinds(new Wedge().type(before).insert(GS).type(after).end())).toEqual([]);
    });

    it('finds it lost as Ctrl+] (a key combination that types nothing)', () => {
      const scan = new Wedge().type(before).press('+', 'BracketRight', true).type(after).end();
      const report = analyzeScan(scan, NO_FRAMING);
      expect(report.code).toBe('gs1');
      expect(report.findings).toEqual([{ kind: 'groupSeparatorLost', via: 'ctrl-bracket' }]);
      expect(describeFinding(firstOf(report))).toEqual({
        problem: 'Der Gruppentrenner (GS) kommt als Tastenkombination Strg+] und geht dabei verloren.',
        advice:
          'Im Scanner den Gruppentrenner (GS, ASCII 29) durch ein Ersatzzeichen ersetzen lassen (z. B. <GS>) und es unter Einstellungen bei „Gruppentrenner (GS) kommt als“ eintragen.',
      });
    });

    it('finds it lost as an Unidentified key, or without a trace', () => {
      const unidentified = new Wedge().type(before).press('Unidentified', '').type(after).end();
      expect(analyzeScan(unidentified, NO_FRAMING).findings).toEqual([
        { kind: 'groupSeparatorLost', via: 'unidentified' },
      ]);
      expect(analyzeScan(new Wedge().type(before + after).end(), NO_FRAMING).findings).toEqual([
        { kind: 'groupSeparatorLost', via: 'unknown' },
      ]);
    });

    it('finds it typed as text, and is content once the device setting says so', () => {
      const scan = new Wedge().type(`${before}<GS>${after}`).end();
      expect(analyzeScan(scan, NO_FRAMING).findings).toEqual([{ kind: 'groupSeparatorAs', text: '<GS>' }]);
      expect(describeFinding({ kind: 'groupSeparatorAs', text: '<GS>' }).advice).toBe(
        '„<GS>“ bei „Gruppentrenner (GS) kommt als“ eintragen.',
      );
      expect(kinds(scan, { ...NO_FRAMING, groupSeparatorAs: '<GS>' })).toEqual([]);
      expect(analyzeScan(scan, { ...NO_FRAMING, groupSeparatorAs: '~' }).findings).toEqual([
        { kind: 'groupSeparatorAs', text: '<GS>' },
      ]);
    });
  });

  describe('prefix, suffix and code ids', () => {
    it('finds a prefix and a suffix around the code, and is content once they are in the settings', () => {
      const scan = new Wedge().type(`#${CODE128}$`).end();
      expect(analyzeScan(scan, NO_FRAMING).findings).toEqual([
        { kind: 'prefix', text: '#' },
        { kind: 'suffix', text: '$' },
      ]);
      expect(kinds(scan, { ...NO_FRAMING, prefix: '#', suffix: '$' })).toEqual([]);
      expect(describeFinding({ kind: 'prefix', text: '#' }).advice).toBe(
        'Präfix im Scanner abschalten oder „#“ als Präfix des Scanners eintragen.',
      );
    });

    it('finds a code id before a Code 128 but lets ]C1 before a GS1 code through (the app reads it)', () => {
      expect(analyzeScan(new Wedge().type(`]C0${CODE128}`).end(), NO_FRAMING).findings).toEqual([
        { kind: 'codeId', text: ']C0' },
      ]);
      const [before, after] = GS1.split(GS) as [string, string];
      expect(kinds(new Wedge().type(`]C1${before}`).insert(GS).type(after).end())).toEqual([]);
    });
  });

  describe('lost and doubled characters', () => {
    it('counts characters a scanner dropped from the long code', () => {
      const dropped = QR.slice(0, 40) + QR.slice(41, 120) + QR.slice(123);
      const report = analyzeScan(new Wedge().type(dropped).end(), NO_FRAMING);
      expect(report.code).toBe('qr');
      expect(report.findings).toEqual([{ kind: 'characters', missing: 4, duplicated: 0, other: 0 }]);
      expect(describeFinding(firstOf(report))).toEqual({
        problem: '4 Zeichen fehlen.',
        advice:
          'Im Scanner „Zeichen als Tastaturereignisse senden“ einschalten (Zebra DataWedge: „Send characters as events“) oder eine kleine Zeichenverzögerung (5–10 ms) einstellen.',
      });
    });

    it('counts characters read twice, the first one too (not a prefix)', () => {
      const doubled = `ZZy-1/2_3#44@5"6;7:8'9[0]`;
      expect(analyzeScan(new Wedge().type(doubled).end(), NO_FRAMING).findings).toEqual([
        { kind: 'characters', missing: 0, duplicated: 2, other: 0 },
      ]);
    });

    it('judges a wedge that commits the code as one string by its text', () => {
      const scan = new Wedge()
        .press('Unidentified', '')
        .insert(QR.slice(0, 100) + QR.slice(102))
        .end();
      expect(analyzeScan(scan, NO_FRAMING).findings).toEqual([
        { kind: 'characters', missing: 2, duplicated: 0, other: 0 },
      ]);
    });
  });

  it('sums up: the latest scan of a code counts and each piece of advice comes once', () => {
    const before = [CODE128, QR].map((code) => analyzeScan(new Wedge().type(code).end('tab'), NO_FRAMING));
    const summary = summarize(before);
    expect(summary.pending).toBe(1);
    expect(summary.findings).toEqual([{ kind: 'terminator', got: 'tab' }]);
    const after = [...before, ...[CODE128, QR, GS1].map((code) => analyzeScan(wellSet(code), NO_FRAMING))];
    expect(summarize(after)).toMatchObject({ pending: 0, findings: [] });
  });
});
