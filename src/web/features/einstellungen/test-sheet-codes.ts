import type { RenderOptions } from 'bwip-js/browser';
import type { TestCode } from './scanner-test.ts';

/**
 * How the test sheet draws each code with bwip-js: the GS1 code from its bracket form (bwip-js puts FNC1
 * where the group separator goes), quiet zones in modules (10 beside a linear code, 4 around a QR code),
 * white whatever the screen.
 */
export function barcodeOptions(code: TestCode): RenderOptions {
  const common = { text: code.printed, backgroundcolor: 'FFFFFF' };
  if (code.id === 'qr') return { bcid: 'qrcode', ...common, scale: 3, padding: 4 };
  return {
    bcid: code.id === 'gs1' ? 'gs1-128' : 'code128',
    ...common,
    scale: 2,
    height: 15,
    paddingwidth: 10,
  };
}
