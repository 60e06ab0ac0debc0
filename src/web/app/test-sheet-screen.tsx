import { code128, drawingSVG, gs1_128, qrcode } from 'bwip-js/browser';
import { useMemo } from 'react';
import { texts } from '../../contract/texts.ts';
import { TEST_CODES, type TestCode } from '../ui/scanner-test.ts';
import { barcodeOptions } from './test-sheet-codes.ts';

/**
 * The printed test sheet for the scanner self-test: the three codes of `TEST_CODES`, drawn as SVG by bwip-js
 * (only this lazy chunk carries it; the named encoders keep the other hundred symbologies out). Printing
 * hides the app's header.
 */
export default function TestSheetScreen() {
  const images = useMemo(() => TEST_CODES.map((code) => ({ ...code, src: svgDataUrl(code) })), []);
  const t = texts.scannerTest;
  return (
    <article className="stack test-sheet">
      <h2>{t.sheetTitle}</h2>
      <p className="hint">{t.sheetIntro}</p>
      <button type="button" className="button no-print" onClick={() => window.print()}>
        {t.print}
      </button>
      {images.map((code) => (
        <figure key={code.id} className="test-code">
          <figcaption>
            <strong>{t.codes[code.id]}</strong>
            <span className="sub">
              {code.id === 'qr' ? t.checks.qr(code.text.length) : t.checks[code.id]}
            </span>
          </figcaption>
          <img
            src={code.src}
            alt={t.codes[code.id]}
            className={`test-code-image test-code-image--${code.id}`}
          />
          {code.id !== 'qr' && <code className="test-code-text">{code.printed}</code>}
        </figure>
      ))}
    </article>
  );
}

/** One code as an SVG data URL (the named encoders: `toSVG` would pull in every symbology). */
function svgDataUrl(code: TestCode): string {
  const options = barcodeOptions(code);
  const encoder = code.id === 'qr' ? qrcode : code.id === 'gs1' ? gs1_128 : code128;
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(encoder(options, drawingSVG()))}`;
}
