import { type Dpi, LABEL_SIZES, type LabelSize } from '../../../contract/etiketten.ts';
import { labelText } from '../../documents/font.ts';
import { type Box, type Label, layoutFor, MIN_MODULE_MM, modulesOf, moduleWidth } from './label.ts';

/**
 * A small typed builder for ZPL II (Zebra's label language, plain text): one label from ^XA to ^XZ, every
 * position in printer dots. Field data goes through ^FH (hex escapes), so a ^ or ~ in a code or name can
 * never start a command, and ^CI28 makes the printer read the escaped bytes as UTF-8 (umlauts in names).
 */
export class ZplLabel {
  readonly #parts: string[];

  constructor(
    readonly dpi: Dpi,
    widthMm: number,
    heightMm: number,
  ) {
    this.#parts = ['^XA', '^CI28', `^PW${this.dots(widthMm)}`, `^LL${this.dots(heightMm)}`, '^LH0,0'];
  }

  /** Millimetres as printer dots at this resolution (8 or 12 dots per mm). */
  dots(mm: number): number {
    return Math.round((mm * this.dpi) / 25.4);
  }

  /** One line of scalable text (font 0) in a field block of `width` dots, so it is centred or left-aligned. */
  text(x: number, y: number, options: { height: number; width: number; align: 'C' | 'L' }, value: string) {
    const h = Math.max(10, Math.round(options.height));
    this.#parts.push(
      `^FO${x},${y}^A0N,${h},${h}^FB${options.width},1,0,${options.align}^FH_^FD${escapeField(value)}^FS`,
    );
    return this;
  }

  /** Code 128 in the printer's automatic subset mode, without its own text line (the label prints its own). */
  code128(x: number, y: number, options: { module: number; height: number }, data: string) {
    this.#parts.push(
      `^FO${x},${y}^BY${options.module},3,${options.height}^BCN,${options.height},N,N,N,A^FH_^FD${escapeField(data)}^FS`,
    );
    return this;
  }

  /** EAN-13: the printer adds the check digit to the first twelve digits. */
  ean13(x: number, y: number, options: { module: number; height: number }, ean: string) {
    this.#parts.push(
      `^FO${x},${y}^BY${options.module},3,${options.height}^BEN,${options.height},N,N^FD${ean.slice(0, 12)}^FS`,
    );
    return this;
  }

  /** QR code, model 2, error correction M, automatic data mode; `module` dots per module (1–10). */
  qr(x: number, y: number, options: { module: number }, data: string) {
    this.#parts.push(`^FO${x},${y}^BQN,2,${options.module}^FH_^FDMA,${escapeField(data)}^FS`);
    return this;
  }

  /** A filled rectangle. */
  box(x: number, y: number, width: number, height: number) {
    const t = Math.max(1, Math.min(width, height));
    this.#parts.push(`^FO${x},${y}^GB${Math.max(width, 1)},${Math.max(height, 1)},${t},B,0^FS`);
    return this;
  }

  /** A diagonal line: 'R' from bottom left to top right, 'L' from top left to bottom right. */
  diagonal(x: number, y: number, width: number, height: number, thickness: number, lean: 'R' | 'L') {
    this.#parts.push(`^FO${x},${y}^GD${width},${height},${thickness},B,${lean}^FS`);
    return this;
  }

  toString(): string {
    return `${this.#parts.join('\n')}\n^PQ1\n^XZ\n`;
  }
}

/**
 * ^FH's escapes: `_` followed by two hex digits is a byte. Printable ASCII other than ^ ~ _ stays as it is;
 * everything else becomes its UTF-8 bytes.
 */
export function escapeField(value: string): string {
  let out = '';
  for (const char of value) {
    const code = char.codePointAt(0) ?? 0;
    if (code >= 0x20 && code <= 0x7e && char !== '^' && char !== '~' && char !== '_') out += char;
    else
      for (const byte of Buffer.from(char, 'utf8'))
        out += `_${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** One label as ZPL, laid out as its PDF (layoutFor), at the printer's resolution. */
export function zplLabel(label: Label, size: LabelSize, dpi: Dpi): string {
  const { width, height } = LABEL_SIZES[size];
  const zpl = new ZplLabel(dpi, width, height);
  const layout = layoutFor(label, size);
  const d = (mm: number) => zpl.dots(mm);
  const dotMm = 25.4 / dpi;
  const text = (value: string, box: Box, align: 'C' | 'L') => {
    // As the PDF prints it: characters the label font lacks (CJK, say) as '?' (font.ts), which a Zebra's
    // resident font 0 lacks too. Latin, Greek and Cyrillic go as UTF-8 (^CI28): whether they print depends
    // on the printer's font 0 (docs/operating.md, Labels).
    const shown = labelText(value);
    // Font 0's characters are about 0.6 of their height wide: as large as the box, narrower for a long text.
    const byWidth = d(box.width) / (Math.max([...shown].length, 1) * 0.6);
    const h = Math.min(d(box.height), byWidth);
    zpl.text(
      d(box.x),
      d(box.y + box.height) - Math.round(h),
      { height: h, width: d(box.width), align },
      shown,
    );
  };
  text(label.title, layout.title, label.symbol.type === 'qrcode' ? 'L' : 'C');
  if (layout.arrow && label.arrow) arrow(zpl, layout.arrow, label.arrow);

  const modules = modulesOf(label.symbol);
  const moduleMm = moduleWidth(modules, layout.code, size, label.symbol.data);
  // Whole dots per module, never below the scannable minimum (checked in mm by moduleWidth).
  const module = Math.max(Math.ceil(MIN_MODULE_MM / dotMm - 0.05), Math.floor(moduleMm / dotMm));
  const box = layout.code;
  if (modules.kind === 'linear') {
    const codeWidth = modules.total * module;
    const x = d(box.x) + Math.max(0, Math.round((d(box.width) - codeWidth) / 2));
    if (label.symbol.type === 'ean13')
      zpl.ean13(x, d(box.y), { module, height: d(box.height) }, label.symbol.data);
    else zpl.code128(x, d(box.y), { module, height: d(box.height) }, label.symbol.data);
  } else {
    const m = Math.min(10, module);
    const side = modules.size * m;
    // ^BQ draws its code a few dots below ^FO; centre it as the PDF does.
    zpl.qr(
      d(box.x) + Math.round((d(box.width) - side) / 2),
      d(box.y) + Math.round((d(box.height) - side) / 2) - 10,
      { module: m },
      label.symbol.data,
    );
  }
  layout.lines.forEach((lineBox, i) => {
    const line = label.lines[i];
    if (line) text(line, lineBox, label.symbol.type === 'qrcode' ? 'L' : 'C');
  });
  return zpl.toString();
}

function arrow(zpl: ZplLabel, box: Box, direction: 'hoch' | 'runter') {
  const d = (mm: number) => zpl.dots(mm);
  const x = d(box.x);
  const y = d(box.y);
  const w = d(box.width);
  const h = d(box.height);
  const shaft = Math.max(2, Math.round(w * 0.3));
  const head = Math.round(h * 0.45);
  const t = Math.max(3, Math.round(w * 0.12));
  const half = Math.round(w / 2);
  if (direction === 'hoch') {
    zpl.box(x + half - Math.round(shaft / 2), y + Math.round(head / 2), shaft, h - Math.round(head / 2));
    zpl.diagonal(x, y, half, head, t, 'R');
    zpl.diagonal(x + half, y, w - half, head, t, 'L');
  } else {
    zpl.box(x + half - Math.round(shaft / 2), y, shaft, h - Math.round(head / 2));
    zpl.diagonal(x, y + h - head, half, head, t, 'L');
    zpl.diagonal(x + half, y + h - head, w - half, head, t, 'R');
  }
}
