import { code128, drawingSVG, gs1_128, qrcode } from 'bwip-js/browser';
import type { TestCode } from './scanner-test.ts';
import { barcodeOptions } from './test-sheet-codes.ts';

/**
 * One code as an SVG data URL, drawn by bwip-js (the named encoders: `toSVG` would pull in every symbology).
 * Loaded by the test sheet when it opens, so bwip-js (≈ 80 KB gzip) is a download of its own, not part of any
 * screen's chunk.
 */
export function svgDataUrl(code: TestCode): string {
  const options = barcodeOptions(code);
  const encoder = code.id === 'qr' ? qrcode : code.id === 'gs1' ? gs1_128 : code128;
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(encoder(options, drawingSVG()))}`;
}
