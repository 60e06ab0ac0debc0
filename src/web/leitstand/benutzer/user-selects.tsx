import type { ReactNode } from 'react';

/** A choice in a user's row (role, language): written as soon as it is changed. */
export function CellSelect<T extends string>({
  label,
  value,
  disabled,
  onChange,
  children,
}: {
  label: string;
  value: T;
  disabled: boolean;
  onChange: (next: T) => void;
  children: ReactNode;
}) {
  return (
    <select
      className="leitstand-input leitstand-input--cell"
      aria-label={label}
      value={value}
      disabled={disabled}
      onChange={(event) => onChange(event.target.value as T)}
    >
      {children}
    </select>
  );
}

/** A choice of the new user's form (role, language). */
export function FieldSelect<T extends string>({
  id,
  label,
  value,
  onChange,
  children,
}: {
  id: string;
  label: string;
  value: T;
  onChange: (next: T) => void;
  children: ReactNode;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        className="leitstand-input"
        value={value}
        onChange={(e) => onChange(e.target.value as T)}
      >
        {children}
      </select>
    </div>
  );
}
