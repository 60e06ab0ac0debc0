import { type RefObject, useRef } from 'react';
import { texts } from '../../contract/texts.ts';
import { moveArticle } from '../../contract/umbuchung.ts';
import { AmountField, parseAmount } from './amount-field.tsx';
import { useBanner } from './banner.tsx';
import { LockedValue } from './scan-field.tsx';

/**
 * An amount of at most `max` (what the source holds), confirmed with 'Setzen' and then locked like a scanned
 * value: the rebooking screens' step between the source and the target. A key that would go above `max` is
 * refused at once ('Menge: höchstens 12.'); 'Setzen' (or Enter) refuses anything but 1 … max — what the article rebooking takes (`moveArticle`), and at most `max` — with 'Bitte
 * eine Menge von 1 bis … eingeben.'
 */
export function SetAmountField({
  id,
  label,
  max,
  amount,
  onChange,
  isSet,
  onSet,
  onClear,
  current,
  disabled,
  invalid,
  inputRef,
}: {
  id: string;
  label: string;
  /** The most that can be taken (shown beside the label); null while unknown. */
  max: number | null;
  amount: string;
  onChange: (amount: string) => void;
  isSet: boolean;
  onSet: () => void;
  onClear: () => void;
  current: boolean;
  disabled: boolean;
  invalid?: boolean;
  inputRef?: RefObject<HTMLInputElement | null>;
}) {
  const banner = useBanner();
  const ownRef = useRef<HTMLInputElement>(null);
  const ref = inputRef ?? ownRef;
  if (isSet) return <LockedValue label={label} value={amount} onClear={onClear} />;

  function set() {
    const bound = max ?? 0;
    const value = parseAmount(amount, moveArticle.body.shape.amount);
    if (value === null || value > bound) {
      banner.showError(texts.umlagern.amountRange(bound));
      ref.current?.focus();
      return;
    }
    onSet();
  }

  return (
    <form
      noValidate
      className={`field${invalid ? ' field--invalid' : ''}`}
      onSubmit={(e) => {
        e.preventDefault();
        set();
      }}
    >
      <label htmlFor={id}>
        {label}
        {max !== null ? ` (${texts.umlagern.maxAmount(max)})` : ''}
      </label>
      <div className="inline">
        <AmountField
          ref={ref}
          id={id}
          label={label}
          current={current}
          max={max ?? undefined}
          disabled={disabled}
          invalid={invalid}
          value={amount}
          onChange={onChange}
        />
        <button type="submit" className="button button--inline" disabled={disabled}>
          {texts.umlagern.setAmount}
        </button>
      </div>
    </form>
  );
}
