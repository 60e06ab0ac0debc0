import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';

/**
 * Reading printed labels back as a scanner would: a PDF rasterised by poppler's `pdftoppm` (Debian package
 * poppler-utils) at 300 dpi, ZPL drawn by zpl-renderer-js (Zebrash in WebAssembly), and every barcode on
 * the picture decoded by zxing — the reader the camera scan uses.
 */
const wasm = path.join(
  path.dirname(createRequire(import.meta.url).resolve('zxing-wasm/reader')),
  '../../reader/zxing_reader.wasm',
);
prepareZXingModule({ overrides: { wasmBinary: fs.readFileSync(wasm).buffer as ArrayBuffer } });

export interface Decoded {
  format: string;
  text: string;
}

/** Every barcode on a PNG, as a scanner types it (zxing's plain text), top to bottom, left to right. */
export async function decodePng(png: Uint8Array): Promise<Decoded[]> {
  const found = await readBarcodes(new Blob([new Uint8Array(png)]), {
    textMode: 'Plain',
    maxNumberOfSymbols: 255,
    formats: ['Code128', 'EAN13', 'QRCode'],
  });
  return (
    found
      .map((f) => ({
        format: f.format,
        text: f.text,
        x: (f.position.topLeft.x + f.position.bottomRight.x) / 2,
        y: (f.position.topLeft.y + f.position.bottomRight.y) / 2,
      }))
      // Reading order of a label sheet: rows (codes of one row of labels lie within 200 px, labels' rows at
      // 300 dpi are 425 px or more apart), then left to right.
      .sort((a, b) => (Math.abs(a.y - b.y) > 200 ? a.y - b.y : a.x - b.x))
      .map(({ format, text }) => ({ format, text }))
  );
}

/** Each page of a PDF as a 300 dpi greyscale PNG. */
export async function pdfPages(pdf: Uint8Array): Promise<Buffer[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'labels-'));
  try {
    fs.writeFileSync(path.join(dir, 'in.pdf'), pdf);
    await promisify(execFile)('pdftoppm', ['-r', '300', '-gray', '-png', 'in.pdf', 'page'], { cwd: dir });
    return fs
      .readdirSync(dir)
      .filter((f) => f.startsWith('page'))
      .sort((a, b) => Number(/(\d+)\.png$/.exec(a)?.[1]) - Number(/(\d+)\.png$/.exec(b)?.[1]))
      .map((f) => fs.readFileSync(path.join(dir, f)));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The text of each page of a PDF as poppler's `pdftotext` reads it (through the fonts' ToUnicode maps, as a
 * viewer's copy and search do), with every word's extent in points: which characters a label really
 * carries, and where.
 */
export async function pdfWords(
  pdf: Uint8Array,
): Promise<{ width: number; height: number; words: { text: string; xMin: number; xMax: number }[] }[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'labels-'));
  try {
    fs.writeFileSync(path.join(dir, 'in.pdf'), pdf);
    await promisify(execFile)('pdftotext', ['-bbox', '-enc', 'UTF-8', 'in.pdf', 'out.html'], { cwd: dir });
    const html = fs.readFileSync(path.join(dir, 'out.html'), 'utf8');
    const fromHtml = (s: string) =>
      s
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&quot;/g, '"')
        .replace(/&amp;/g, '&');
    return [...html.matchAll(/<page width="([\d.]+)" height="([\d.]+)">([\s\S]*?)<\/page>/g)].map((page) => ({
      width: Number(page[1]),
      height: Number(page[2]),
      words: [
        ...(page[3] ?? '').matchAll(
          /<word xMin="([\d.-]+)" yMin="[\d.-]+" xMax="([\d.-]+)" yMax="[\d.-]+">([^<]*)<\/word>/g,
        ),
      ].map((word) => ({
        text: fromHtml(word[3] ?? ''),
        xMin: Number(word[1]),
        xMax: Number(word[2]),
      })),
    }));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Every page's barcodes. */
export async function decodePdf(pdf: Uint8Array): Promise<Decoded[][]> {
  const pages = await pdfPages(pdf);
  return Promise.all(pages.map(decodePng));
}

let zebrash: Promise<{
  zplToBase64Async: (zpl: string, w?: number, h?: number, dpmm?: number) => Promise<string>;
}> | null = null;

/** One ZPL label (^XA…^XZ) drawn as a Zebra printer of that resolution would print it. */
export async function renderZpl(
  zpl: string,
  widthMm: number,
  heightMm: number,
  dpi: 203 | 300,
): Promise<Buffer> {
  zebrash ??= import('zpl-renderer-js').then((m) => m.ready).then((r) => r.api);
  const api = await zebrash;
  return Buffer.from(await api.zplToBase64Async(zpl, widthMm, heightMm, dpi === 203 ? 8 : 12), 'base64');
}

/** The labels of a ZPL file, each ^XA…^XZ. */
export function zplLabels(zpl: string): string[] {
  return zpl.match(/\^XA[\s\S]*?\^XZ/g) ?? [];
}

/** A label's commands that draw something, each with its field data (^FH escapes read back). */
export function zplFields(label: string): { command: string; data: string }[] {
  const fields: { command: string; data: string }[] = [];
  for (const field of label.matchAll(/\^FO\d+,\d+((?:\^(?!FD|FS)[^^]*)*)\^FD([\s\S]*?)\^FS/g)) {
    const commands = field[1] ?? '';
    const command = /\^(BC|BE|BQ|A0)/.exec(commands)?.[1] ?? 'other';
    const raw = field[2] ?? '';
    fields.push({ command, data: commands.includes('^FH_') ? unescapeFh(raw) : raw });
  }
  return fields;
}

function unescapeFh(raw: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < raw.length; i++) {
    if (raw[i] === '_' && /^[0-9A-F]{2}$/i.test(raw.slice(i + 1, i + 3))) {
      bytes.push(Number.parseInt(raw.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(...Buffer.from(raw[i] ?? '', 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}
