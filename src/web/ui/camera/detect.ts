import type { prepareZXingModule } from 'barcode-detector/ponyfill';
import zxingWasmUrl from 'zxing-wasm/reader/zxing_reader.wasm?url';

/**
 * The codes on a warehouse's labels: EAN-13 on articles, Code 128 (and GS1-128) on locations, delivery notes
 * and parcels, QR, and (GS1) DataMatrix on cartons.
 */
const CAMERA_FORMATS = ['ean_13', 'code_128', 'qr_code', 'data_matrix'] as const;

/** The part of the Barcode Detection API used here (the browser's own and the polyfill's). */
interface Detector {
  detect(source: ImageBitmapSource): Promise<{ rawValue: string }[]>;
}
type CameraFormat = (typeof CAMERA_FORMATS)[number];
interface DetectorClass {
  new (options: { formats: CameraFormat[] }): Detector;
  getSupportedFormats(): Promise<readonly string[]>;
}

export type ZXingOverrides = NonNullable<Parameters<typeof prepareZXingModule>[0]>['overrides'];

/**
 * zxing-wasm would fetch its .wasm from a CDN; the build serves it from our origin instead (the file of the
 * zxing-wasm version barcode-detector is built against, pinned in package.json). One object, so a second
 * camera scan reuses the module compiled by the first.
 */
const FROM_OUR_ORIGIN: ZXingOverrides = {
  locateFile: (file: string, prefix: string) => (file.endsWith('.wasm') ? zxingWasmUrl : prefix + file),
};

interface CodeReader {
  /** The text of the first code in the picture (a GS1 code keeps its group separators, ASCII 29), or null. */
  read(source: ImageBitmapSource): Promise<string | null>;
}

/**
 * The browser's own BarcodeDetector where it reads all four formats (Chrome on Android), else the
 * barcode-detector polyfill (ZXing in WebAssembly), loaded only now. Rejects when the polyfill cannot load.
 */
export async function createCodeReader(zxing: ZXingOverrides = FROM_OUR_ORIGIN): Promise<CodeReader> {
  const Detector = (await nativeDetector()) ?? (await polyfillDetector(zxing));
  const detector = new Detector({ formats: [...CAMERA_FORMATS] });
  return {
    async read(source) {
      const found = await detector.detect(source);
      return found.find((code) => code.rawValue !== '')?.rawValue ?? null;
    },
  };
}

async function nativeDetector(): Promise<DetectorClass | null> {
  const native = (globalThis as { BarcodeDetector?: DetectorClass }).BarcodeDetector;
  if (!native) return null;
  try {
    const supported = await native.getSupportedFormats();
    return CAMERA_FORMATS.every((format) => supported.includes(format)) ? native : null;
  } catch {
    return null;
  }
}

async function polyfillDetector(overrides: ZXingOverrides): Promise<DetectorClass> {
  const { BarcodeDetector, prepareZXingModule, purgeZXingModule } = await import('barcode-detector/ponyfill');
  try {
    // Fetch and compile the .wasm now: a failure shows when the camera opens, not silently at every frame.
    await prepareZXingModule({ overrides, fireImmediately: true });
  } catch (error) {
    purgeZXingModule(); // it keeps the failed attempt otherwise; the next camera scan tries again
    throw error;
  }
  return BarcodeDetector;
}
