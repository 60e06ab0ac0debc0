import { type FormEvent, useState } from 'react';
import { type Language, languages } from '../../../contract/i18n/languages.ts';
import {
  benutzerTexts,
  createUser,
  MIN_PASSWORD_LENGTH,
  newUserCard,
  roleLabels,
  setUserActive,
  setUserLanguage,
  setUserRole,
  type UserRow,
  users,
} from '../../../contract/leitstand/benutzer.ts';
import { ROLES, type Role } from '../../../contract/roles.ts';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { type Column, DataTable } from '../../ui/data-table.tsx';
import { dateAndTime } from '../../ui/format.ts';
import { RowAction } from '../admin-dialog.tsx';
import { useLeitstandMutation, useLeitstandQuery } from '../api.ts';
import { Outcome, useOutcome } from '../outcome.tsx';
import { QueryState } from '../query-state.tsx';
import { TextField } from '../text-field.tsx';
import { BadgeDialog, PasswordDialog } from './user-dialogs.tsx';
import { CellSelect, FieldSelect } from './user-selects.tsx';
import '../admin.css';

const t = benutzerTexts;

/** How the page names a user: the name, and the username (or #id for a card-only one). */
const labelOf = (user: UserRow) => user.name;
const usernameOf = (user: UserRow) => user.username ?? t.noUsername(user.id);

/** Each language by its own name, as the worker it is for looks for it (the Leitstand stays German). */
const languageName = (code: Language) => languages.find((l) => l.code === code)?.name ?? code;
const languageOptions = languages.map((l) => (
  <option key={l.code} value={l.code}>
    {l.name}
  </option>
));

const roleOptions = ROLES.map((r) => (
  <option key={r} value={r}>
    {roleLabels[r]}
  </option>
));

type Ask = { kind: 'password' | 'card' | 'deactivate'; user: UserRow } | null;

/**
 * Leitstand › Benutzer (admin): who may log in, with which role, by password or card. A new card's text is
 * shown once, on a badge to print (name + QR code); afterwards only a new card helps.
 */
export default function BenutzerPage() {
  const query = useLeitstandQuery(users);
  const outcome = useOutcome();
  const [badge, setBadge] = useState<{ name: string; cardText: string } | null>(null);
  const [ask, setAsk] = useState<Ask>(null);

  /** A new card's text, or — on a repeat of the call whose answer was lost — why there is none. */
  const showCard = (name: string, cardText: string | null) => {
    if (cardText) setBadge({ name, cardText });
    else outcome.failed(new Error(t.card.lost));
  };

  const role = useLeitstandMutation(setUserRole);
  const language = useLeitstandMutation(setUserLanguage);
  const active = useLeitstandMutation(setUserActive);
  const card = useLeitstandMutation(newUserCard);
  const setActive = (user: UserRow, to: boolean) =>
    active.mutate(
      { params: { id: user.id }, body: { active: to } },
      outcome.after(() => (to ? t.active.activated(user.name) : t.active.deactivated(user.name))),
    );

  /** The row actions that ask first: the question, and the write once it is answered yes. */
  const confirmations = {
    card: {
      title: t.card.title,
      question: t.card.confirm,
      run: (user: UserRow) =>
        card.mutate(
          { params: { id: user.id }, body: {} },
          {
            ...outcome.after(() => t.card.badgeLabel(user.name)),
            onSuccess: (answer) => {
              outcome.done(t.card.badgeLabel(user.name));
              showCard(user.name, answer.cardText);
            },
          },
        ),
    },
    deactivate: {
      title: t.active.deactivate,
      question: t.active.confirmDeactivate,
      run: (user: UserRow) => setActive(user, false),
    },
  };
  const asked = ask && ask.kind !== 'password' ? { ...confirmations[ask.kind], user: ask.user } : null;

  // Built at each render: its cells hold this page's handlers (a list of users, not a scanner's hot path).
  const columns: Column<UserRow>[] = [
    { header: t.columns.username, cell: usernameOf, kind: 'code' },
    { header: t.columns.name, cell: labelOf },
    {
      // Role and language in one cell, one above the other: the list fits a tablet without scrolling.
      header: t.columns.roleAndLanguage,
      cell: (user) => (
        <div className="leitstand-cell-stack">
          <CellSelect
            label={t.role.label(user.name)}
            value={user.role}
            disabled={role.isPending}
            onChange={(next: Role) =>
              role.mutate(
                { params: { id: user.id }, body: { role: next } },
                outcome.after(() => t.role.changed(user.name, roleLabels[next])),
              )
            }
          >
            {roleOptions}
          </CellSelect>
          <CellSelect
            label={t.language.label(user.name)}
            value={user.language}
            disabled={language.isPending}
            onChange={(next: Language) =>
              language.mutate(
                { params: { id: user.id }, body: { language: next } },
                outcome.after(() => t.language.changed(user.name, languageName(next))),
              )
            }
          >
            {languageOptions}
          </CellSelect>
        </div>
      ),
    },
    {
      header: t.columns.access,
      cell: (user) => (
        <>
          {t.state(user.active)}
          <br />
          {t.ways(user.hasPassword, user.hasCard)}
        </>
      ),
    },
    {
      header: t.columns.seen,
      cell: (user) => (
        <>
          {t.liveSessions(user.liveSessions)}
          <br />
          {dateAndTime(user.lastSeenAt, t.never)}
        </>
      ),
    },
    {
      header: t.columns.actions,
      cell: (user) => (
        <div className="leitstand-actions">
          <RowAction
            label={t.password.button}
            name={t.password.action(user.name)}
            onClick={() => setAsk({ kind: 'password', user })}
          />
          <RowAction
            label={t.card.button}
            name={t.card.action(user.name)}
            onClick={() => setAsk({ kind: 'card', user })}
          />
          {user.active ? (
            <RowAction
              label={t.active.deactivate}
              name={t.active.action(t.active.deactivate, user.name)}
              onClick={() => setAsk({ kind: 'deactivate', user })}
            />
          ) : (
            <RowAction
              primary
              label={t.active.activate}
              name={t.active.action(t.active.activate, user.name)}
              disabled={active.isPending}
              onClick={() => setActive(user, true)}
            />
          )}
        </div>
      ),
    },
  ];

  return (
    <>
      <h1>{t.title}</h1>
      <p className="hint">{t.intro}</p>
      <Outcome {...outcome} />
      <CreateUserForm
        onCreated={(user, cardText, newCard) => {
          outcome.done(t.create.created(user.name));
          outcome.refresh();
          if (newCard) showCard(user.name, cardText);
        }}
        onRefused={outcome.failed}
      />
      <QueryState query={query}>
        {(data) => (
          <div className="leitstand-wide">
            <DataTable
              heading={t.listTitle}
              empty={t.never}
              columns={columns}
              rows={data.users}
              rowKey={(user) => String(user.id)}
            />
          </div>
        )}
      </QueryState>

      {ask?.kind === 'password' && (
        <PasswordDialog
          user={ask.user}
          onClose={() => setAsk(null)}
          onDone={(endedLogins) => {
            setAsk(null);
            outcome.done(t.password.done(ask.user.name, endedLogins));
            outcome.refresh();
          }}
        />
      )}
      {asked && (
        <ConfirmDialog
          title={asked.title}
          confirmLabel={asked.title}
          cancelLabel={t.cancel}
          onCancel={() => setAsk(null)}
          onConfirm={() => {
            setAsk(null);
            asked.run(asked.user);
          }}
        >
          <p>{asked.question(asked.user.name)}</p>
        </ConfirmDialog>
      )}
      {badge && <BadgeDialog {...badge} onClose={() => setBadge(null)} />}
    </>
  );
}

function CreateUserForm({
  onCreated,
  onRefused,
}: {
  onCreated: (user: UserRow, cardText: string | null, newCard: boolean) => void;
  onRefused: (error: unknown) => void;
}) {
  const [username, setUsername] = useState('');
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('mitarbeiter');
  const [language, setLanguage] = useState<Language>('de');
  const [password, setPassword] = useState('');
  const [newCard, setNewCard] = useState(false);
  const create = useLeitstandMutation(createUser);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      { body: { username, name, role, language, password: password === '' ? null : password, newCard } },
      {
        onSuccess: (answer) => {
          setUsername('');
          setName('');
          setRole('mitarbeiter');
          setLanguage('de');
          setPassword('');
          setNewCard(false);
          onCreated(answer.user, answer.cardText, newCard);
        },
        onError: onRefused,
      },
    );
  };
  return (
    <section aria-labelledby="new-user">
      <h2 id="new-user">{t.create.title}</h2>
      <form className="leitstand-form" onSubmit={submit}>
        <TextField id="new-user-username" label={t.create.username} value={username} onChange={setUsername} />
        <TextField id="new-user-name" label={t.create.name} value={name} onChange={setName} />
        <FieldSelect id="new-user-role" label={t.create.role} value={role} onChange={setRole}>
          {roleOptions}
        </FieldSelect>
        <FieldSelect id="new-user-language" label={t.create.language} value={language} onChange={setLanguage}>
          {languageOptions}
        </FieldSelect>
        <TextField
          id="new-user-password"
          label={t.create.password}
          value={password}
          onChange={setPassword}
          type="password"
          autoComplete="new-password"
          describedBy="new-user-password-hint"
        />
        <div className="field field--check">
          <input
            id="new-user-card"
            type="checkbox"
            checked={newCard}
            onChange={(e) => setNewCard(e.target.checked)}
          />
          <label htmlFor="new-user-card">{t.create.newCard}</label>
        </div>
        <button type="submit" className="button" disabled={create.isPending}>
          {t.create.submit}
        </button>
        <p id="new-user-password-hint" className="hint">
          {t.create.passwordHint(MIN_PASSWORD_LENGTH)}
        </p>
      </form>
    </section>
  );
}
