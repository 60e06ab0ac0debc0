import { forwardRef, useImperativeHandle, useRef } from 'react';
import type { z } from 'zod';
import { AMOUNT_MAX } from '../../contract/limits.ts';
import { SCAN_ATTRIBUTE } from '../scan/router.ts';
import { useScanTarget } from '../scan/use-scan-target.ts';

interface AmountFieldProps {
  id: string;
  /** The label as the worker sees it (names the field in a refusal). */
  label: string;
  value: string;
  onChange: (value: string) => void;
  current: boolean;
  disabled?: boolean;
  invalid?: boolean;
  /** The largest amount it takes (the contract's AMOUNT_MAX unless a screen knows less). */
  max?: number;
}

/**
 * An amount: digits only, at most `max` (a location code or an EAN can never land here — the scan
 * router takes a scanner's burst back out and sends it where it belongs, or refuses it). A pre-filled
 * amount is selected when the field gets the focus, so what the worker types replaces it. `current`: the
 * amount is what the screen expects next (its scan target).
 */
export const AmountField = forwardRef<HTMLInputElement, AmountFieldProps>(function AmountField(
  { id, label, value, onChange, current, disabled, invalid, max = AMOUNT_MAX },
  ref,
) {
  const maxDigits = String(max).length;
  const input = useRef<HTMLInputElement>(null);
  useImperativeHandle(ref, () => input.current as HTMLInputElement, []);
  useScanTarget(current ? { kind: 'field', label, input: () => input.current } : null);
  return (
    <input
      ref={input}
      id={id}
      className="scan-input"
      type="text"
      inputMode="numeric"
      pattern="[0-9]*"
      autoComplete="off"
      enterKeyHint="done"
      maxLength={maxDigits}
      data-max={max}
      {...{ [SCAN_ATTRIBUTE]: 'digits' }}
      disabled={disabled}
      aria-invalid={invalid || undefined}
      value={value}
      // Pasted or soft-keyboard text keeps its digits only.
      onChange={(e) => onChange(e.target.value.replace(/\D/g, '').slice(0, maxDigits))}
      onFocus={(e) => e.currentTarget.select()}
    />
  );
});

/** An `AmountField` with its label above it: a form's amount (Inventur, WMS-Retoure, the Fehlmenge question). */
export const LabelledAmountField = forwardRef<HTMLInputElement, AmountFieldProps>(
  function LabelledAmountField(props, ref) {
    return (
      <div className="field">
        <label htmlFor={props.id}>{props.label}</label>
        <AmountField ref={ref} {...props} />
      </div>
    );
  },
);

/**
 * The typed amount, if the contract's schema for it takes it (`bookInventur.body.shape.amount`: a whole number
 * from 0 to AMOUNT_MAX), else null: a form checks an amount by the rule the server checks it by.
 */
export function parseAmount(text: string, schema: z.ZodType<number>): number | null {
  const trimmed = text.trim();
  const value = trimmed === '' ? Number.NaN : Number(trimmed);
  return schema.safeParse(value).success ? value : null;
}
