import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { ZXING_WASM_SHA256 } from 'barcode-detector/ponyfill';
import bwipjs from 'bwip-js/node';
import { afterEach, describe, expect, it } from 'vitest';
import { GROUP_SEPARATOR, parseGs1 } from '../../../contract/gs1.ts';
import { createCodeReader, type ZXingOverrides } from './detect.ts';

/**
 * The camera's decoding path on generated labels: bwip-js draws the code as a PNG, and the same reader the
 * camera overlay runs on each video frame reads it (the polyfill decodes a PNG blob the way it decodes a
 * frame: ZXing in WebAssembly). In Node there is no fetch of the .wasm by URL, so the test hands it the file
 * the build serves.
 */
const wasmPath = createRequire(import.meta.url).resolve('zxing-wasm/reader/zxing_reader.wasm');
const fromDisk: ZXingOverrides = { wasmBinary: fs.readFileSync(wasmPath).buffer as ArrayBuffer };

// The polyfill reports where it found a code as a DOMRectReadOnly, which browsers have and Node 20 lacks.
globalThis.DOMRectReadOnly ??= class {
  constructor(
    readonly x = 0,
    readonly y = 0,
    readonly width = 0,
    readonly height = 0,
  ) {}
} as unknown as typeof DOMRectReadOnly;

async function label(bcid: string, text: string): Promise<Blob> {
  const png = await bwipjs.toBuffer({
    bcid,
    text,
    scale: 3,
    parsefnc: true,
    padding: 10,
    backgroundcolor: 'FFFFFF',
  });
  return new Blob([new Uint8Array(png)], { type: 'image/png' });
}

describe('the camera reader', () => {
  it('reads an EAN-13, a Code 128, a QR code and a GS1 DataMatrix as a scanner types them', async () => {
    const reader = await createCodeReader(fromDisk);
    expect(await reader.read(await label('ean13', '4006381333931'))).toBe('4006381333931');
    expect(await reader.read(await label('code128', 'LS100001'))).toBe('LS100001');
    expect(await reader.read(await label('qrcode', 'A-01-01-01'))).toBe('A-01-01-01');

    // Batch (10) is variable-length: the group separator ends it before the MHD (17).
    const carton = await reader.read(await label('gs1datamatrix', '(01)04006381333931(10)ABC123(17)271231'));
    expect(carton).toBe(`010400638133393110ABC123${GROUP_SEPARATOR}17271231`);
    expect(carton?.charCodeAt(24)).toBe(29); // ASCII 29, as parseGs1 reads it
    const read = parseGs1(carton ?? '');
    expect(read.kind === 'gs1' && read.data).toMatchObject({
      gtin: '04006381333931',
      batch: 'ABC123',
      expiry: '2027-12-31',
    });
  });

  it('keeps the group separator of a GS1-128 label too', async () => {
    const reader = await createCodeReader(fromDisk);
    expect(await reader.read(await label('gs1-128', '(01)04006381333931(10)L42(30)12'))).toBe(
      `010400638133393110L42${GROUP_SEPARATOR}3012`,
    );
  });

  it('ignores codes of other formats', async () => {
    const reader = await createCodeReader(fromDisk);
    expect(await reader.read(await label('code39', 'A-01-01-01'))).toBeNull();
    expect(await reader.read(await label('pdf417', 'A-01-01-01'))).toBeNull();
  });

  it('serves the .wasm that the polyfill’s ZXing glue code is built for', () => {
    // A different zxing-wasm version's file fails at the first frame ("memory access out of bounds").
    const sha256 = createHash('sha256').update(fs.readFileSync(wasmPath)).digest('hex');
    expect(sha256).toBe(ZXING_WASM_SHA256);
  });
});

/**
 * GS1 labels as the camera reads them (issue 18): ZXing hands over the element string with the group
 * separator where the label's FNC1 ends a field, and no symbology identifier; a QR code's Digital Link as
 * printed. Each must read as the same label in its bracket form does.
 */
describe('GS1 labels through the camera reader', () => {
  const today = new Date('2026-11-23T12:00:00Z');
  const GTIN = '04006381000024';
  it.each([
    [
      'gs1datamatrix',
      `(01)${GTIN}(15)271200(10)CH-CAM(30)6(3922)1299`,
      { batch: 'CH-CAM', mhd: '2027-12-31' },
    ],
    ['gs1datamatrix', `(01)${GTIN}(10)L1(17)270630(21)S-1(240)X1`, { batch: 'L1', mhd: '2027-06-30' }],
    [
      'gs1-128',
      '(00)340123450000000017(02)04006381000024(37)12(10)L2(15)270115',
      { sscc: '340123450000000017' },
    ],
    ['gs1-128', `(01)${GTIN}(3103)000250(15)270131(10)L3`, { batch: 'L3', mhd: '2027-01-31' }],
    ['gs1qrcode', `(01)${GTIN}(10)QR-1(16)270301`, { batch: 'QR-1', mhd: '2027-03-01' }],
  ])('%s %s', async (bcid, bracketed, expected) => {
    const reader = await createCodeReader(fromDisk);
    const scanned = (await reader.read(await label(bcid, bracketed))) ?? '';
    expect(scanned.startsWith('(')).toBe(false);
    const read = parseGs1(scanned, today);
    expect(read).toEqual(parseGs1(bracketed, today));
    expect(read).toMatchObject({ kind: 'gs1', data: { ...expected, problems: [] } });
  });

  it('reads a QR code with a GS1 Digital Link as the label has it', async () => {
    const reader = await createCodeReader(fromDisk);
    const link = `https://id.gs1.org/01/${GTIN}/10/CH-QR?17=270630`;
    const scanned = await reader.read(await label('qrcode', link));
    expect(scanned).toBe(link);
    expect(parseGs1(scanned ?? '', today)).toMatchObject({
      kind: 'gs1',
      data: { gtin: GTIN, batch: 'CH-QR', mhd: '2027-06-30', mhdFrom: '17', problems: [] },
    });
  });
});

describe('choosing the detector', () => {
  const withNative = (formats: string[]) => {
    (globalThis as { BarcodeDetector?: unknown }).BarcodeDetector = class {
      static getSupportedFormats = async () => formats;
      detect = async () => [{ rawValue: 'VOM-BROWSER' }];
    };
  };
  afterEach(() => {
    delete (globalThis as { BarcodeDetector?: unknown }).BarcodeDetector;
  });

  it('takes the browser’s own BarcodeDetector when it reads all four formats', async () => {
    withNative(['aztec', 'code_128', 'data_matrix', 'ean_13', 'ean_8', 'qr_code']);
    const reader = await createCodeReader(fromDisk);
    expect(await reader.read(await label('ean13', '4006381333931'))).toBe('VOM-BROWSER');
  });

  it('takes the polyfill when the browser’s own lacks one of them', async () => {
    withNative(['code_128', 'ean_13', 'qr_code']);
    const reader = await createCodeReader(fromDisk);
    expect(await reader.read(await label('ean13', '4006381333931'))).toBe('4006381333931');
  });
});
