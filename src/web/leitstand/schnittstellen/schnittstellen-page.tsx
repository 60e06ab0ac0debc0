import { type FormEvent, useMemo, useState } from 'react';
import {
  createIntegrationToken,
  integrationTokens,
  revokeIntegrationToken,
  schnittstellenTexts,
  type TokenRow,
} from '../../../contract/leitstand/schnittstellen.ts';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { type Column, DataTable } from '../../ui/data-table.tsx';
import { dateAndTime } from '../../ui/format.ts';
import { RowAction, SecretDialog } from '../admin-dialog.tsx';
import { useLeitstandMutation, useLeitstandQuery } from '../api.ts';
import { Outcome, useOutcome } from '../outcome.tsx';
import { QueryState } from '../query-state.tsx';
import { TextField } from '../text-field.tsx';
import '../admin.css';

const t = schnittstellenTexts;

/**
 * Leitstand › Schnittstellen (admin): the integration tokens other systems use at the export API. A new
 * token is shown once; a revoked one stops working at once.
 */
export default function SchnittstellenPage() {
  const query = useLeitstandQuery(integrationTokens);
  const outcome = useOutcome();
  const [shown, setShown] = useState<{ name: string; token: string } | null>(null);
  const [revoking, setRevoking] = useState<string | null>(null);
  const [name, setName] = useState('');
  const create = useLeitstandMutation(createIntegrationToken);
  const revoke = useLeitstandMutation(revokeIntegrationToken);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      { body: { name } },
      {
        ...outcome.after(() => null),
        onSuccess: (answer) => {
          setName('');
          outcome.done(null);
          // A repeat of the call whose answer was lost has no token to show.
          if (answer.token) setShown({ name: answer.name, token: answer.token });
          else outcome.failed(new Error(t.shown.lost));
        },
      },
    );
  };

  const columns = useMemo<Column<TokenRow>[]>(
    () => [
      { header: t.columns.name, cell: (row) => row.name, kind: 'code' },
      { header: t.columns.createdAt, cell: (row) => dateAndTime(row.createdAt) },
      { header: t.columns.lastUsedAt, cell: (row) => dateAndTime(row.lastUsedAt, t.never) },
      {
        header: t.columns.state,
        cell: (row) => (row.revokedAt ? t.revoked(dateAndTime(row.revokedAt)) : t.live),
      },
      {
        header: t.columns.actions,
        cell: (row) =>
          row.revokedAt ? null : (
            <RowAction
              label={t.revoke.button}
              name={`${t.revoke.button}: ${row.name}`}
              onClick={() => setRevoking(row.name)}
            />
          ),
      },
    ],
    [],
  );

  return (
    <>
      <h1>{t.title}</h1>
      <p className="hint">{t.intro}</p>
      <Outcome {...outcome} />
      <section aria-labelledby="new-token">
        <h2 id="new-token">{t.create.title}</h2>
        <form className="leitstand-form" onSubmit={submit}>
          <TextField
            id="new-token-name"
            label={t.create.name}
            value={name}
            onChange={setName}
            describedBy="new-token-hint"
          />
          <button type="submit" className="button" disabled={create.isPending}>
            {t.create.submit}
          </button>
          <p id="new-token-hint" className="hint">
            {t.create.nameHint}
          </p>
        </form>
      </section>
      <QueryState query={query}>
        {(data) => (
          <DataTable
            heading={t.listTitle}
            empty={t.none}
            columns={columns}
            rows={data.tokens}
            rowKey={(row) => `${row.name}-${row.createdAt}`}
          />
        )}
      </QueryState>

      {revoking && (
        <ConfirmDialog
          title={t.revoke.button}
          confirmLabel={t.revoke.button}
          cancelLabel={t.cancel}
          onCancel={() => setRevoking(null)}
          onConfirm={() => {
            const tokenName = revoking;
            setRevoking(null);
            revoke.mutate(
              { body: { name: tokenName } },
              outcome.after(() => t.revoke.done(tokenName)),
            );
          }}
        >
          <p>{t.revoke.confirm(revoking)}</p>
        </ConfirmDialog>
      )}
      {shown && <TokenDialog {...shown} onClose={() => setShown(null)} />}
    </>
  );
}

/** The new token, once: to copy into the other system. */
function TokenDialog({ name, token, onClose }: { name: string; token: string; onClose: () => void }) {
  const [copied, setCopied] = useState(false);
  const copy = () =>
    navigator.clipboard.writeText(token).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  return (
    <SecretDialog
      title={t.shown.title(name)}
      hint={t.shown.hint}
      closeLabel={t.shown.close}
      action={{ label: t.shown.copy, run: copy }}
      onClose={onClose}
    >
      <code className="leitstand-secret" data-testid="new-token">
        {token}
      </code>
      <p role="status" className="leitstand-notice">
        {copied ? t.shown.copied : null}
      </p>
    </SecretDialog>
  );
}
