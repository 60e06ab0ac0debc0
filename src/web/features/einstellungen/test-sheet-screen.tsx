import { useEffect, useState } from 'react';
import { texts } from '../../../contract/texts.ts';
import { scannerTestTexts } from '../../../contract/texts-scanner-test.ts';
import { useBanner } from '../../ui/banner.tsx';
import { TEST_CODES, type TestCode } from './scanner-test.ts';

/**
 * The printed test sheet for the scanner self-test: the three codes of `TEST_CODES`, drawn as SVG by bwip-js
 * (loaded when the sheet opens, see test-sheet-images.ts). Printing hides the app's header.
 */
export default function TestSheetScreen() {
  const [images, setImages] = useState<(TestCode & { src: string })[] | null>(null);
  const banner = useBanner();
  useEffect(() => {
    let open = true;
    import('./test-sheet-images.ts').then(
      ({ svgDataUrl }) => {
        if (open) setImages(TEST_CODES.map((code) => ({ ...code, src: svgDataUrl(code) })));
      },
      () => {
        if (open) banner.showError(texts.errors.network);
      },
    );
    return () => {
      open = false;
    };
  }, [banner]);
  const t = scannerTestTexts;
  return (
    <article className="stack test-sheet">
      <h2>{texts.settings.testSheetTitle}</h2>
      <p className="hint">{t.sheetIntro}</p>
      <button type="button" className="button no-print" onClick={() => window.print()}>
        {t.print}
      </button>
      {images === null && <p className="hint">{texts.app.loading}</p>}
      {images?.map((code) => (
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
