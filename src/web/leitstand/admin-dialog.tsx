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

/** What the last action did, or why it was refused: one line under the page's title. */
export function Outcome({ notice, problem }: { notice: string | null; problem: string | null }) {
  return (
    <>
      <p role="status" className="leitstand-notice">
        {notice}
      </p>
      {problem && (
        <p role="alert" className="leitstand-refusal">
          {problem}
        </p>
      )}
    </>
  );
}

/** A time as the admin pages show it: 24.11.2026, 14:05. */
export function dateTime(iso: string | null, none = '–'): string {
  if (!iso) return none;
  return new Date(iso).toLocaleString('de-DE', {
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });
}

/** The message of a refused or failed call (the client's errors carry the server's German text). */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
