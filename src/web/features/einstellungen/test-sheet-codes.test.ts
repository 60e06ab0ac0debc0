import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import bwipjs from 'bwip-js/node';
import { describe, expect, it } from 'vitest';
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';
import { TEST_CODES } from './scanner-test.ts';
import { barcodeOptions } from './test-sheet-codes.ts';

// zxing-wasm fetches its .wasm from a CDN unless given the file: read it from the package.
const wasm = path.join(
  path.dirname(createRequire(import.meta.url).resolve('zxing-wasm/reader')),
  '../../reader/zxing_reader.wasm',
);
prepareZXingModule({ overrides: { wasmBinary: fs.readFileSync(wasm).buffer as ArrayBuffer } });

describe('the printed test sheet', () => {
  it.each(TEST_CODES.map((code) => [code.id, code] as const))(
    'carries exactly what the self-test expects a scanner to type (%s)',
    async (_, code) => {
      // The same options the sheet draws with, as a PNG, read back by a barcode reader as a scanner would.
      const png = await bwipjs.toBuffer(barcodeOptions(code));
      const [read, ...more] = await readBarcodes(new Blob([new Uint8Array(png)]), { textMode: 'Plain' });
      expect(more).toEqual([]);
      expect(read?.text).toBe(code.text);
      expect(read?.symbologyIdentifier).toBe({ code128: ']C0', gs1: ']C1', qr: ']Q1' }[code.id]);
    },
  );
});
