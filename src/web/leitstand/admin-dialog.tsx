import { type ReactNode, useEffect, useId, useRef } from 'react';

/**
 * A modal window of the admin pages (a new password, a badge, a token shown once): the browser's own
 * <dialog>, so the focus stays inside and Escape closes it.
 */
export function AdminDialog({
  title,
  children,
  onClose,
}: {
  title: string;
  children: ReactNode;
  onClose: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);
  return (
    <dialog
      ref={ref}
      className="dialog leitstand-dialog"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <h2 id={titleId}>{title}</h2>
      {children}
    </dialog>
  );
}

/**
 * A secret the server answers once (a new card's text, a new token): its title and hint, the secret as the
 * caller shows it, and two buttons — close, and what to do with it now (print, copy).
 */
export function SecretDialog({
  title,
  hint,
  children,
  closeLabel,
  action,
  onClose,
}: {
  title: string;
  hint: string;
  children: ReactNode;
  closeLabel: string;
  action: { label: string; run: () => void; disabled?: boolean };
  onClose: () => void;
}) {
  return (
    <AdminDialog title={title} onClose={onClose}>
      <p className="hint">{hint}</p>
      {children}
      <div className="dialog-actions">
        <button type="button" className="button button--secondary" onClick={onClose}>
          {closeLabel}
        </button>
        <button type="button" className="button" onClick={action.run} disabled={action.disabled}>
          {action.label}
        </button>
      </div>
    </AdminDialog>
  );
}

/** A button in a table row: short text, and an accessible name that says whose row ('Karte: Karla'). */
export function RowAction({
  label,
  name,
  onClick,
  primary = false,
  disabled = false,
}: {
  label: string;
  name: string;
  onClick: () => void;
  primary?: boolean;
  disabled?: boolean;
}) {
  return (
    <button
      type="button"
      className={primary ? 'button button--small' : 'button button--secondary button--small'}
      aria-label={name}
      disabled={disabled}
      onClick={onClick}
    >
      {label}
    </button>
  );
}
