import { forwardRef, type KeyboardEvent, useId, useState } from 'react';

interface ScanFieldProps {
  label: string;
  /** Called with the trimmed text when the scanner (or a person) presses Enter. Empty input is ignored. */
  onScan: (text: string) => void;
  placeholder?: string;
  invalid?: boolean;
  disabled?: boolean;
  inputMode?: 'text' | 'numeric';
}

/**
 * The field a barcode scanner types into. It stays enabled while a lookup runs (a disabled field would
 * drop the next scan's keystrokes) and submits on Enter; the text is kept until the caller clears it.
 */
export const ScanField = forwardRef<
  HTMLInputElement,
  ScanFieldProps & { value?: string; onChange?: (v: string) => void }
>(function ScanField(
  { label, onScan, placeholder, invalid, disabled, inputMode = 'text', value, onChange },
  ref,
) {
  const id = useId();
  const [ownValue, setOwnValue] = useState('');
  const text = value ?? ownValue;
  const setText = onChange ?? setOwnValue;
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    const trimmed = event.currentTarget.value.trim();
    if (trimmed !== '') onScan(trimmed);
  };
  return (
    <div className={`field${invalid ? ' field--invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      <input
        ref={ref}
        id={id}
        className="scan-input"
        type="text"
        value={text}
        placeholder={placeholder}
        autoComplete="off"
        autoCorrect="off"
        autoCapitalize="off"
        spellCheck={false}
        enterKeyHint="enter"
        inputMode={inputMode}
        aria-invalid={invalid || undefined}
        disabled={disabled}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
      />
    </div>
  );
});

/** A looked-up value, locked, with an X to clear it (SPEC §4, rebooking form; the same in Inventur). */
export function LockedValue({
  label,
  value,
  onClear,
}: {
  label: string;
  value: string;
  onClear: () => void;
}) {
  return (
    <div className="field">
      <span className="field-label">{label}</span>
      <div className="locked">
        <span className="locked-value">{value}</span>
        <button type="button" className="icon-button" aria-label={`${label} leeren`} onClick={onClear}>
          ✕
        </button>
      </div>
    </div>
  );
}
