import { inventurLeitstandTexts as t, type Zaehler } from '../../../contract/leitstand/inventur.ts';

/**
 * Whom a count goes to: one of `users` (by id, as text) or nobody (''), whoever asks next on a handheld.
 * With a `caption` the choice is labelled above, as a form's field; in a table's row it stands alone.
 */
export function CounterChoice({
  caption,
  className,
  label,
  users,
  value,
  onChange,
}: {
  caption?: string;
  className?: string;
  label: string;
  users: Zaehler[];
  value: string;
  onChange: (value: string) => void;
}) {
  const select = (e: { target: { value: string } }) => onChange(e.target.value);
  const options = (
    <>
      <option value="">{t.nobody}</option>
      {users.map((u) => (
        <option key={u.id} value={String(u.id)}>
          {u.name}
        </option>
      ))}
    </>
  );
  if (caption === undefined)
    return (
      <select aria-label={label} value={value} onChange={select}>
        {options}
      </select>
    );
  return (
    <label className={className}>
      {caption}
      <select aria-label={label} value={value} onChange={select}>
        {options}
      </select>
    </label>
  );
}
