import { PassThrough } from 'node:stream';
import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import {
  decodePdf,
  decodePng,
  pdfWords,
  renderZpl,
  zplFields,
  zplLabels,
} from '../../../../test/support/labels.ts';
import { etikettenTexts, LABEL_SIZES, type LabelSize } from '../../../contract/etiketten.ts';
import { DomainError } from '../../domain/errors.ts';
import { directSteps, type Steps } from '../../http/back-office.ts';
import { checkFits, type Label, validEan13 } from './label.ts';
import { zplStream } from './label-files.ts';
import { writePdf } from './pdf.ts';
import { escapeField, zplLabel } from './zpl.ts';

/** One label of each kind, with the awkward parts: ZPL's own ^ ~ _ in a code, umlauts, a 225-character card. */
const LABELS: Label[] = [
  {
    kind: 'lagerplatz',
    symbol: { type: 'code128', data: 'A-01-01-01' },
    title: 'A-01-01-01',
    lines: ['Regal A'],
    arrow: 'hoch',
  },
  {
    kind: 'lhm',
    symbol: { type: 'code128', data: 'LHM^1~2_3' },
    title: 'LHM^1~2_3',
    lines: ['Ladungsträger'],
    arrow: null,
  },
  {
    kind: 'artikel',
    symbol: { type: 'ean13', data: '4006381333931' },
    title: 'Kugelschreiber blau – Größe M',
    lines: ['4006381333931 · Art.-Nr. 100001'],
    arrow: null,
  },
  {
    kind: 'artikel',
    symbol: { type: 'code128', data: '100002' },
    title: 'Joghurt',
    lines: ['Art.-Nr. 100002'],
    arrow: null,
  },
  {
    kind: 'zollwagen',
    symbol: { type: 'code128', data: 'ZW01' },
    title: 'ZW01',
    lines: ['Zollwagen 1'],
    arrow: null,
  },
  {
    kind: 'ausweis',
    symbol: { type: 'qrcode', data: 'DEMOKARTE'.repeat(25) },
    title: 'Karten Nutzer',
    lines: ['Mitarbeiterausweis'],
    arrow: null,
  },
];
const expected = (labels: Label[]) =>
  labels.map((l) => ({
    format: { code128: 'Code128', ean13: 'EAN13', qrcode: 'QRCode' }[l.symbol.type],
    text: l.symbol.data,
  }));

async function pdfOf(labels: Label[], size: LabelSize): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise((resolve) => out.on('end', resolve));
  await writePdf(
    directSteps,
    (async function* () {
      yield* labels;
    })(),
    size,
    out,
    'Test',
  );
  await done;
  return Buffer.concat(chunks);
}

// Rasterising A4 sheets at 300 dpi and decoding 26 codes a sheet takes ≈ 3 s alone, 20 s beside other test
// files on two busy cores: these reads get a minute.
const READ_BACK_MS = 60_000;

describe('label PDFs, read back by a barcode reader', { timeout: READ_BACK_MS }, () => {
  it.each(['100x50', '57x32'] as const)(
    'a roll of %s mm: one label per page, each code exactly as scanned',
    async (size) => {
      const pdf = await pdfOf(LABELS, size);
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
      const pages = await decodePdf(pdf);
      expect(pages).toEqual(expected(LABELS).map((code) => [code]));
    },
  );

  it.each(['a4-70x36', 'a4-105x48'] as const)(
    'A4 sheets of %s: the grid filled row by row, then a new sheet',
    async (size) => {
      const sheet = LABEL_SIZES[size].sheet;
      const perPage = sheet.columns * sheet.rows;
      const locations: Label[] = Array.from({ length: perPage + 2 }, (_, i) => {
        const code = `B-${String(Math.floor(i / 10)).padStart(2, '0')}-${String(i % 10).padStart(2, '0')}-01`;
        return {
          kind: 'lagerplatz',
          symbol: { type: 'code128', data: code },
          title: code,
          lines: [],
          arrow: null,
        };
      });
      const pages = await decodePdf(await pdfOf([...LABELS, ...locations], size));
      const all = expected([...LABELS, ...locations]);
      expect(pages).toEqual([all.slice(0, perPage), all.slice(perPage, 2 * perPage)]);
    },
  );
});

/**
 * Article names in the crew's languages (issue 39): Polish, Turkish, Romanian, Ukrainian, Greek — and a Chinese
 * one, whose characters the label font lacks.
 */
const WORLD_NAMES = ['Łódź', 'Ş Ğ İ ı', 'Țară și ţară', 'Молоко Їжак ґ', 'Γάλα Ωμέγα', 'Tee 中文茶'];
const worldLabels: Label[] = WORLD_NAMES.map((name, i) => ({
  kind: 'artikel',
  symbol: { type: 'code128', data: `10010${i}` },
  title: name,
  lines: [`Art.-Nr. 10010${i} · ${name}`],
  arrow: null,
}));
/** What a label shows for a name: the same, each character the font lacks as '?' (docs/operating.md). */
const shown = (name: string) => name.replace('中文茶', '???');

describe('label texts in other scripts', { timeout: READ_BACK_MS }, () => {
  it('PDF: each name as written, the characters the font lacks as "?", every word on its label', async () => {
    const pages = await pdfWords(await pdfOf(worldLabels, '57x32'));
    expect(pages.map((page) => page.words.map((w) => w.text).join(' '))).toEqual(
      WORLD_NAMES.map((name, i) => `${shown(name)} Art.-Nr. 10010${i} · ${shown(name)}`),
    );
    for (const page of pages)
      for (const word of page.words)
        expect([word.text, word.xMin >= 0 && word.xMax <= page.width]).toEqual([word.text, true]);
    // Measured as wide as drawn: the name and the line below it centred on the label (a text measured
    // wider than drawn sits left of the middle, and shrinks).
    pages.forEach((page, i) => {
      const titleWords = shown(WORLD_NAMES[i] ?? '').split(' ').length;
      for (const row of [page.words.slice(0, titleWords), page.words.slice(titleWords)]) {
        const middle = ((row[0]?.xMin ?? 0) + (row.at(-1)?.xMax ?? 0)) / 2;
        expect([row.map((w) => w.text).join(' '), Math.abs(middle - page.width / 2) < 1]).toEqual([
          row.map((w) => w.text).join(' '),
          true,
        ]);
      }
    });
  });

  it('ZPL: the same text in UTF-8 (^CI28), the characters the font lacks as "?"', () => {
    for (const label of worldLabels) {
      const fields = zplFields(zplLabel(label, '100x50', 203)).filter((f) => f.command === 'A0');
      expect(fields.map((f) => f.data)).toEqual([shown(label.title), ...label.lines.map(shown)]);
    }
  });
});

describe('label ZPL, parsed and drawn as a Zebra printer draws it', { timeout: READ_BACK_MS }, () => {
  for (const dpi of [203, 300] as const)
    for (const size of ['100x50', '57x32'] as const)
      it(`${size} mm at ${dpi} dpi: each label's barcode field carries the code, and the drawn label scans as it`, async () => {
        const { width, height } = LABEL_SIZES[size];
        for (const label of LABELS) {
          const zpl = zplLabel(label, size, dpi);
          expect(zplLabels(zpl)).toHaveLength(1);
          const dots = (mm: number) => Math.round((mm * dpi) / 25.4);
          expect(zpl).toContain(`^PW${dots(width)}`);
          expect(zpl).toContain(`^LL${dots(height)}`);
          expect(zpl).toContain('^CI28');
          const fields = zplFields(zpl);
          const code = fields.filter((f) => f.command !== 'A0');
          const command = { code128: 'BC', ean13: 'BE', qrcode: 'BQ' }[label.symbol.type];
          const data = {
            code128: label.symbol.data,
            ean13: label.symbol.data.slice(0, 12),
            qrcode: `MA,${label.symbol.data}`,
          }[label.symbol.type];
          expect(code).toEqual([{ command, data }]);
          expect(fields.filter((f) => f.command === 'A0').map((f) => f.data)).toEqual([
            label.title,
            ...label.lines,
          ]);
          const png = await renderZpl(zpl, width, height, dpi);
          expect([label.kind, await decodePng(png)]).toEqual([label.kind, expected([label])]);
        }
      });

  it('a ZPL file is written a few labels at first, then as many a step as fit its time on the thread', async () => {
    const labels: Label[] = Array.from({ length: 600 }, (_, n) => ({
      kind: 'lagerplatz',
      symbol: { type: 'code128', data: `Z-${String(n).padStart(4, '0')}` },
      title: `Z-${n}`,
      lines: [],
      arrow: null,
    }));
    const perStep: number[] = [];
    const steps: Steps = {
      run: async (work) => {
        const done = await directSteps.run(work);
        perStep.push(zplLabels(typeof done === 'string' ? done : (done as { zpl: string }).zpl).length);
        return done;
      },
    };
    const prepared = {
      count: labels.length,
      labels: async function* () {
        yield* labels;
      },
    };
    let zpl = '';
    for await (const chunk of zplStream(steps, prepared, { size: '100x50', dpi: 203 })) zpl += chunk;
    // Every label once, in order; the first step only a few (a fixed 128 held the thread 19 ms a step).
    expect(
      zplFields(zpl)
        .filter((f) => f.command === 'BC')
        .map((f) => f.data),
    ).toEqual(labels.map((l) => l.symbol.data));
    expect(perStep[0]).toBeLessThanOrEqual(4);
    expect(perStep.reduce((a, b) => a + b, 0)).toBe(600);
    expect(Math.max(...perStep)).toBeLessThanOrEqual(256);
  });

  it('escapes ZPL command characters and writes other characters as UTF-8 bytes', () => {
    expect(escapeField('A^B~C_D')).toBe('A_5EB_7EC_5FD');
    expect(escapeField('Größe')).toBe('Gr_C3_B6_C3_9Fe');
    expect(escapeField('A-01-01-01')).toBe('A-01-01-01');
  });
});

describe('what a label refuses', () => {
  const location = (code: string): Label => ({
    kind: 'lagerplatz',
    symbol: { type: 'code128', data: code },
    title: code,
    lines: [],
    arrow: null,
  });
  const refusal = (fn: () => void) => {
    try {
      fn();
    } catch (error) {
      if (error instanceof DomainError) return [error.kind, error.message];
      throw error;
    }
    return null;
  };

  it('a code too long for a scannable barcode on that size, naming it and the size', () => {
    const code = 'REGAL-ZWEI-FACH-DREI';
    expect(refusal(() => checkFits(location(code), '100x50'))).toBeNull();
    expect(refusal(() => checkFits(location(code), '57x32'))).toEqual([
      'invalid',
      etikettenTexts.tooLong(code, '57x32'),
    ]);
  });

  it('a code with characters Code 128 cannot carry as scanners type them', () => {
    expect(refusal(() => checkFits(location('Fach-Ä1'), '100x50'))).toEqual([
      'invalid',
      etikettenTexts.notPrintable('Fach-Ä1'),
    ]);
  });

  it('takes an EAN-13 only with its check digit right', () => {
    expect(validEan13('4006381333931')).toBe(true);
    expect(validEan13('4006381333932')).toBe(false);
    expect(validEan13('400638133393')).toBe(false);
    expect(validEan13(null)).toBe(false);
  });

  it('an empty run is still a valid PDF (one blank page)', async () => {
    const out = new PassThrough();
    const body = text(out);
    await writePdf(directSteps, (async function* () {})(), '57x32', out, 'leer');
    expect((await body).startsWith('%PDF-')).toBe(true);
  });
});
