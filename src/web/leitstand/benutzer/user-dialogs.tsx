import { useEffect, useState } from 'react';
import { benutzerTexts, setUserPassword, type UserRow } from '../../../contract/leitstand/benutzer.ts';
import { texts } from '../../../contract/texts.ts';
import { messageOf } from '../../api/message.ts';
import { AdminDialog, SecretDialog } from '../admin-dialog.tsx';
import { useLeitstandMutation } from '../api.ts';
import { LabelOutput } from '../label-output.tsx';
import { Refusal } from '../outcome.tsx';
import { TextField } from '../text-field.tsx';

/** Leitstand › Benutzer's dialogs: a new password for a user, and a new card's badge to print once. */

const t = benutzerTexts;

export function PasswordDialog({
  user,
  onClose,
  onDone,
}: {
  user: UserRow;
  onClose: () => void;
  onDone: (endedLogins: number) => void;
}) {
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const change = useLeitstandMutation(setUserPassword);
  return (
    <AdminDialog title={t.password.title(user.name)} onClose={onClose}>
      <form
        className="stack"
        onSubmit={(event) => {
          event.preventDefault();
          change.mutate(
            { params: { id: user.id }, body: { password } },
            {
              onSuccess: (answer) => onDone(answer.endedLogins),
              onError: (error) => setProblem(messageOf(error)),
            },
          );
        }}
      >
        <TextField
          id="set-password"
          label={t.password.label}
          value={password}
          onChange={setPassword}
          type="password"
          autoComplete="new-password"
        />
        {problem && <Refusal>{problem}</Refusal>}
        <div className="dialog-actions">
          <button type="button" className="button button--secondary" onClick={onClose}>
            {t.cancel}
          </button>
          <button type="submit" className="button" disabled={change.isPending}>
            {t.password.submit}
          </button>
        </div>
      </form>
    </AdminDialog>
  );
}

/**
 * The badge to print: the name and the card's text as a QR code (and in letters, small, for typing it); also as
 * a label file or to a label printer (the card text goes in a POST body, never a URL).
 */
export function BadgeDialog({
  name,
  cardText,
  onClose,
}: {
  name: string;
  cardText: string;
  onClose: () => void;
}) {
  const [src, setSrc] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    let open = true;
    import('./badge-code.ts').then(
      ({ badgeSvgDataUrl }) => {
        if (open) setSrc(badgeSvgDataUrl(cardText));
      },
      () => {
        if (open) setProblem(texts.errors.network);
      },
    );
    return () => {
      open = false;
    };
  }, [cardText]);
  return (
    <SecretDialog
      title={t.card.badgeTitle}
      hint={t.card.badgeHint}
      closeLabel={t.card.close}
      action={{ label: t.card.print, run: () => window.print(), disabled: !src }}
      onClose={onClose}
    >
      <figure className="badge" aria-label={t.card.badgeLabel(name)}>
        <p className="badge-name">{name}</p>
        {src ? (
          <img className="badge-code" src={src} alt={t.card.barcodeAlt(name)} />
        ) : (
          <p className="hint">{problem ?? texts.app.loading}</p>
        )}
        <code className="badge-text" data-testid="card-text">
          {cardText}
        </code>
      </figure>
      {/* The badge as a label (issue 21): a PDF or ZPL file, or straight to a label printer. */}
      <LabelOutput id="badge" selection={{ kind: 'ausweis', codes: [cardText] }} />
    </SecretDialog>
  );
}
