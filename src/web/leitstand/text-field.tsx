/**
 * A labelled text input of a Leitstand form (a name, a password, a token's name): typed by a person at a
 * desk, so no scan handling; `describedBy` names the hint below it.
 */
export function TextField({
  id,
  label,
  value,
  onChange,
  type = 'text',
  autoComplete = 'off',
  describedBy,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  type?: 'text' | 'password';
  autoComplete?: string;
  describedBy?: string;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type={type}
        className="leitstand-input"
        autoComplete={autoComplete}
        aria-describedby={describedBy}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </div>
  );
}
