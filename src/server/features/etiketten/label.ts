import { createRequire } from 'node:module';
import type bwipjs from 'bwip-js/node';
import { etikettenTexts, LABEL_SIZES, type LabelKind, type LabelSize } from '../../../contract/etiketten.ts';
import { invalid } from '../../domain/errors.ts';

/**
 * One label's content, whatever the format: the code (and which barcode carries it), a large text, small
 * lines, and for a location an arrow to its shelf. PDF (pdf.ts) and ZPL (zpl.ts) draw it with the same
 * layout (layoutFor), so a download and a printed label look alike.
 */
export interface Label {
  kind: LabelKind;
  symbol: Barcode;
  /** The large text: the code itself, or an article's or employee's name. */
  title: string;
  /** Up to two small lines under the barcode (name, number). */
  lines: string[];
  arrow: 'hoch' | 'runter' | null;
}

export interface Barcode {
  type: 'code128' | 'ean13' | 'qrcode';
  /** Exactly what a scanner types when it reads the code. */
  data: string;
}

/** The barcode as modules: a linear code's bar/space widths (first a bar), or a 2D code's square matrix. */
export type Modules =
  | { kind: 'linear'; widths: number[]; total: number; quiet: [number, number] }
  | { kind: 'matrix'; size: number; dark: (x: number, y: number) => boolean; quiet: number };

/**
 * Code 128 as every scanner reads it without configuration: printable ASCII. Other characters (umlauts, control
 * characters) would need FNC4 or a code page that scanners type differently, so such a code is refused.
 */
export const printableAscii = (code: string) => /^[\x20-\x7e]+$/.test(code);

/**
 * bwip-js, loaded at the first label rather than at the server's start: a server that prints none should not
 * carry it (with pdfkit ≈ 30 MB RSS at idle, measured by the bench).
 */
let barcodeWriter: typeof bwipjs | null = null;
const barcodes = () => {
  barcodeWriter ??= createRequire(import.meta.url)('bwip-js/node') as typeof bwipjs;
  return barcodeWriter;
};

export function modulesOf(symbol: Barcode): Modules {
  if (symbol.type === 'qrcode') {
    const [qr] = barcodes().raw('qrcode', symbol.data, 'eclevel=M') as {
      pixs: number[];
      pixx: number;
    }[];
    if (!qr) throw new Error('bwip-js drew no QR code');
    const { pixs, pixx } = qr;
    return { kind: 'matrix', size: pixx, dark: (x, y) => pixs[y * pixx + x] === 1, quiet: 4 };
  }
  const [linear] = barcodes().raw(symbol.type, symbol.data, {}) as { sbs: number[] }[];
  if (!linear) throw new Error(`bwip-js drew no ${symbol.type}`);
  const total = linear.sbs.reduce((sum, width) => sum + width, 0);
  // Quiet zones: Code 128 ten modules each side; EAN-13 eleven left, seven right (GS1 General Specifications).
  return { kind: 'linear', widths: linear.sbs, total, quiet: symbol.type === 'ean13' ? [11, 7] : [10, 10] };
}

/** An EAN-13 with a correct check digit (GS1 mod 10). */
export function validEan13(ean: string | null): ean is string {
  if (!ean || !/^\d{13}$/.test(ean)) return false;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(ean[i]) * (i % 2 === 0 ? 1 : 3);
  return (10 - (sum % 10)) % 10 === Number(ean[12]);
}

/** A rectangle in millimetres from the label's top left corner. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Layout {
  width: number;
  height: number;
  title: Box;
  arrow: Box | null;
  /** Where the barcode goes (it is centred in it at its own module width). */
  code: Box;
  lines: Box[];
}

/** Narrowest module a hand scanner reads reliably from a label (mm); a code that would need less is refused. */
export const MIN_MODULE_MM = 0.25;
/** Widest module worth printing (mm): wider only makes the code longer to aim at. */
export const MAX_MODULE_MM = 0.5;

/**
 * Where each part of a label sits (mm). Linear codes: the large text on top (with the arrow left of it), the
 * barcode in the middle, the small lines below. A QR code (badge): the code as a square on the left, the texts
 * to its right.
 */
export function layoutFor(label: Label, size: LabelSize): Layout {
  const { width, height } = LABEL_SIZES[size];
  const margin = Math.max(2, Math.round(height * 0.06 * 10) / 10);
  const innerW = width - 2 * margin;
  const innerH = height - 2 * margin;
  if (label.symbol.type === 'qrcode') {
    const side = Math.min(innerH, innerW * 0.5);
    const textX = margin + side + 2;
    const textW = width - margin - textX;
    return {
      width,
      height,
      code: { x: margin, y: margin + (innerH - side) / 2, width: side, height: side },
      title: { x: textX, y: margin + innerH * 0.2, width: textW, height: innerH * 0.25 },
      arrow: null,
      lines: [{ x: textX, y: margin + innerH * 0.55, width: textW, height: innerH * 0.14 }],
    };
  }
  const lineCount = Math.min(label.lines.length, 2);
  const titleH = innerH * (lineCount === 0 ? 0.36 : 0.3);
  const lineH = innerH * 0.13;
  const gap = innerH * 0.04;
  const codeH = innerH - titleH - gap - lineCount * lineH - (lineCount > 0 ? gap : 0);
  const arrowW = label.arrow ? titleH : 0;
  return {
    width,
    height,
    arrow: label.arrow ? { x: margin, y: margin, width: arrowW, height: titleH } : null,
    title: {
      x: margin + (arrowW ? arrowW + 1 : 0),
      y: margin,
      width: innerW - (arrowW ? arrowW + 1 : 0),
      height: titleH,
    },
    code: { x: margin, y: margin + titleH + gap, width: innerW, height: codeH },
    lines: Array.from({ length: lineCount }, (_, i) => ({
      x: margin,
      y: margin + titleH + gap + codeH + gap + i * lineH,
      width: innerW,
      height: lineH,
    })),
  };
}

/**
 * The module width (mm) for this code in this box: as wide as fits with its quiet zones, at most
 * MAX_MODULE_MM; a code that fits only narrower than MIN_MODULE_MM is refused in German (naming the code).
 */
export function moduleWidth(modules: Modules, box: Box, size: LabelSize, code: string): number {
  const span =
    modules.kind === 'linear'
      ? box.width / (modules.total + modules.quiet[0] + modules.quiet[1])
      : Math.min(box.width, box.height) / (modules.size + 2 * modules.quiet);
  // A QR code keeps its quiet zone inside the box; narrower than the minimum cannot be scanned reliably.
  if (span < MIN_MODULE_MM) throw invalid(etikettenTexts.tooLong(code, size));
  return Math.min(span, MAX_MODULE_MM);
}

/** Checks that a label can be printed at this size before the first byte goes out (a 400, not a broken file). */
export function checkFits(label: Label, size: LabelSize): void {
  const box = layoutFor(label, size).code;
  if (label.symbol.type === 'code128') {
    if (!printableAscii(label.symbol.data)) throw invalid(etikettenTexts.notPrintable(label.symbol.data));
    // Printable ASCII in Code 128 takes at most 11 modules a character (code set B) plus start, check and stop
    // (3 × 11) and the final bar (2): a code within that bound fits without drawing it (20,000 of a range).
    const worst = 11 * (label.symbol.data.length + 3) + 2 + 20;
    if (worst * MIN_MODULE_MM <= box.width) return;
  }
  moduleWidth(modulesOf(label.symbol), box, size, label.symbol.data);
}
