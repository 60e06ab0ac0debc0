import { type FormEvent, useEffect, useRef, useState } from 'react';
import { type PickLine, kommissionierungTexts as t } from '../../../contract/kommissionierung.ts';
import { LabelledAmountField } from '../../ui/amount-field.tsx';
import { useBanner } from '../../ui/banner.tsx';

/**
 * The Fehlmenge question in the page: how many are missing (all that is open, unless the worker types less).
 * Its amount field is the scan target: a scanned code is refused there, never taken as an amount.
 */
export function ShortageDialog({
  line,
  onCancel,
  onReport,
}: {
  /** A note's line, or a line on a cart (the cart flow's `CartLine`): what is open of which article. */
  line: Pick<PickLine, 'nummer' | 'offen'>;
  onCancel: () => void;
  onReport: (menge: number) => void;
}) {
  const banner = useBanner();
  const ref = useRef<HTMLDialogElement>(null);
  const [menge, setMenge] = useState(String(line.offen));
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const value = Number(menge);
    if (!Number.isInteger(value) || value < 1 || value > line.offen) {
      banner.showError(t.shortageAmountInvalid(line.offen));
      return;
    }
    onReport(value);
  };
  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby="shortage-title"
      onCancel={(e) => {
        e.preventDefault();
        onCancel();
      }}
    >
      <form onSubmit={submit}>
        <h2 id="shortage-title">{t.shortageTitle(line.nummer)}</h2>
        <div className="dialog-body">
          <p>{t.shortageBody(line.offen)}</p>
          <LabelledAmountField
            id="shortage-amount"
            label={t.shortageAmount}
            value={menge}
            onChange={setMenge}
            max={line.offen}
            current
          />
        </div>
        <div className="dialog-actions">
          <button type="button" className="button button--secondary" onClick={onCancel}>
            {t.cancel}
          </button>
          <button type="submit" className="button">
            {t.shortageConfirm}
          </button>
        </div>
      </form>
    </dialog>
  );
}
