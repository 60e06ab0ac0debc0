import { texts } from '../../contract/texts.ts';

/** Plus/minus counter with big buttons; never below 0 (cartons, SPEC §2). */
export function Counter({
  label,
  value,
  onChange,
}: {
  label: string;
  value: number;
  onChange: (next: number) => void;
}) {
  return (
    <fieldset className="counter" aria-label={label}>
      <button
        type="button"
        className="icon-button"
        aria-label={texts.app.less(label)}
        onClick={() => onChange(Math.max(0, value - 1))}
      >
        −
      </button>
      <span className="counter-value" aria-live="polite">
        {value}
      </span>
      <button
        type="button"
        className="icon-button"
        aria-label={texts.app.more(label)}
        onClick={() => onChange(value + 1)}
      >
        +
      </button>
    </fieldset>
  );
}
