import { type RefObject, useMemo, useRef, useState } from 'react';
import type { LookupResult } from '../api/lookups.ts';
import { useBanner } from './banner.tsx';
import { LockedValue, ScanField } from './scan-field.tsx';

/**
 * One thing a screen finds by a scan and then holds — a location, an article, a load carrier: while open, a
 * scan field with what is typed and its red mark; once chosen, the locked value with ✕. Every rebooking,
 * counting and returns screen is built from these (`useLookup` + `LookupField`), so the rules are the same
 * everywhere: typing clears the red mark, a refused scan empties the field for the next one, ✕ reopens it.
 */
interface Lookup<T> {
  /** The chosen value, or null while the field is open. */
  readonly value: T | null;
  readonly text: string;
  /** Marked red: the worker tried to go on without it. */
  readonly missing: boolean;
  readonly ref: RefObject<HTMLInputElement | null>;
  /** Locks the found value. */
  choose(value: T): void;
  /** Says why the scan was not taken (the banner) and empties the field for the next one. */
  refuse(message: string): void;
  /** A lookup's answer: the value locked, or refused with its message. */
  take(result: LookupResult<T>): void;
  /** The field as it was: open and empty. */
  clear(): void;
  /** What the worker typed (clears the red mark). */
  setText(text: string): void;
  /** Marks the field red if nothing is chosen; says whether it did. */
  flagIfMissing(): boolean;
}

interface LookupState<T> {
  value: T | null;
  text: string;
  missing: boolean;
}

export function useLookup<T>(): Lookup<T> {
  const [state, setState] = useState<LookupState<T>>({ value: null, text: '', missing: false });
  const ref = useRef<HTMLInputElement>(null);
  const banner = useBanner();
  // The setters never change; the state they read comes from the render (`value`, `text`, `missing`).
  const actions = useMemo(
    () => ({
      choose: (value: T) => setState({ value, text: '', missing: false }),
      clear: () => setState({ value: null, text: '', missing: false }),
      refuse: (message: string) => {
        banner.showError(message);
        setState((s) => ({ ...s, text: '' }));
      },
      setText: (text: string) => setState((s) => ({ ...s, text, missing: false })),
      flagMissing: () => setState((s) => (s.value === null ? { ...s, missing: true } : s)),
    }),
    [banner],
  );
  return {
    ...state,
    ref,
    choose: actions.choose,
    clear: actions.clear,
    refuse: actions.refuse,
    take: (result) => (result.ok ? actions.choose(result.value) : actions.refuse(result.message)),
    setText: actions.setText,
    flagIfMissing: () => {
      if (state.value !== null) return false;
      actions.flagMissing();
      return true;
    },
  };
}

/**
 * The lookup's field: `ScanField` while open (`onScan` looks the code up and calls `lookup.choose`, or shows
 * why not and calls `lookup.clear`), `LockedValue` once chosen. `onClear`: what else ✕ undoes (a bound
 * that came with the value, say).
 */
export function LookupField<T>({
  lookup,
  label,
  show,
  onScan,
  current,
  disabled,
  onClear,
}: {
  lookup: Lookup<T>;
  label: string;
  /** The chosen value as the locked field shows it. */
  show: (value: T) => string;
  onScan: (text: string) => unknown;
  current: boolean;
  disabled?: boolean;
  onClear?: () => void;
}) {
  if (lookup.value !== null)
    return (
      <LockedValue
        label={label}
        value={show(lookup.value)}
        onClear={() => {
          lookup.clear();
          onClear?.();
        }}
      />
    );
  return (
    <ScanField
      ref={lookup.ref}
      label={label}
      value={lookup.text}
      onChange={lookup.setText}
      onScan={onScan}
      current={current}
      invalid={lookup.missing}
      disabled={disabled}
    />
  );
}
