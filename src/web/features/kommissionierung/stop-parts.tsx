import { kommissionierungTexts as t } from '../../../contract/kommissionierung.ts';
import { ScanField } from '../../ui/scan-field.tsx';

/**
 * What the single note's screen and a cart trip show alike at a stop: the stop where no location holds
 * what is left, and the field of the step (the location, then the article).
 */

/** No location holds what is left: said where the next location would stand. */
export function NoStockStop() {
  return (
    <section className="pick-stop pick-stop--empty" aria-label={t.noStock}>
      <span className="pick-location">{t.noStock}</span>
      <span className="hint">{t.noStockHint}</span>
    </section>
  );
}

interface Field {
  value: string;
  onChange: (value: string) => void;
  onScan: (text: string) => unknown;
}

/**
 * The location's field, then the article's; neither at another step. Each its own element, so the next
 * step's field starts empty. `current`: the scan goes here (not while a question is asked).
 */
export function StopScanField({
  step,
  current,
  location,
  article,
}: {
  step: string;
  current: boolean;
  location: Field;
  article: Field;
}) {
  return (
    <>
      {step === 'location' && <ScanField current={current} label={t.locationLabel} {...location} />}
      {step === 'article' && <ScanField current={current} label={t.articleLabel} {...article} />}
    </>
  );
}
