import type { UseMutationResult } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useState } from 'react';
import { ConfirmDialog } from '../ui/confirm-dialog.tsx';
import type { PageOutcome } from './outcome.tsx';

/**
 * What the set-up pages share (Wellen's pick profiles, Inventur's count plans): a card per record, edited
 * in place, and one for a new record. Styles: `.leitstand-record …` in leitstand.css.
 */

/** The texts of a record's card, from its area's contract; the functions name the record. */
export interface RecordTexts {
  add: string;
  addSubmit: string;
  save: string;
  saveLabel: (name: string) => string;
  remove: string;
  removeLabel: (name: string) => string;
  removeTitle: (name: string) => string;
  cancel: string;
  fieldOf: (field: string, name: string) => string;
}

/** An empty number field is "none" or "any" (null); anything else goes as a number (NaN is refused by the server). */
export const numberOrNull = (text: string) => (text.trim() === '' ? null : Number(text));

/**
 * A stored record's fields as typed (`draftOf`: every field a text), and whether they are still the stored
 * ones. The card is keyed by the record's last change, so a change at another desk starts it anew.
 */
export function useRecordDraft<Row, Draft>(stored: Row, draftOf: (row: Row) => Draft) {
  const [draft, setDraft] = useState(() => draftOf(stored));
  const unchanged = JSON.stringify(draft) === JSON.stringify(draftOf(stored));
  return { draft, setDraft, unchanged };
}

/**
 * A form's fields: `label(field)` names the record in each label of an existing one (`of`; a new one has
 * none), `set(key)` is the change handler of the field that holds `key`.
 */
export function draftFields<Draft>(
  draft: Draft,
  setDraft: (d: Draft) => void,
  of: string | null,
  texts: Pick<RecordTexts, 'fieldOf'>,
) {
  return {
    label: (field: string) => (of === null ? field : texts.fieldOf(field, of)),
    set: (key: keyof Draft) => (e: { target: { value: string } }) =>
      setDraft({ ...draft, [key]: e.target.value }),
  };
}

/**
 * A stored record's card: its fields, 'Speichern' while they differ from the stored ones, the page's
 * `action` while they do not (it runs on what is stored, so an unsaved edit must not look as if it
 * counted), 'Entfernen' (the page asks first) and a `hint` beside them.
 */
export function RecordCard({
  name,
  texts,
  busy,
  unchanged,
  onSave,
  action,
  onRemove,
  hint,
  children,
}: {
  name: string;
  texts: RecordTexts;
  busy: boolean;
  unchanged: boolean;
  onSave: () => void;
  action: { label: string; text: ReactNode; run: () => void };
  onRemove: () => void;
  hint: ReactNode;
  children: ReactNode;
}) {
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSave();
  };
  return (
    <section className="leitstand-record" aria-label={name}>
      <form noValidate onSubmit={submit}>
        {children}
        <div className="leitstand-actions">
          <button
            type="submit"
            className="button button--inline"
            aria-label={texts.saveLabel(name)}
            disabled={busy || unchanged}
          >
            {texts.save}
          </button>
          <button
            type="button"
            className="button button--inline"
            aria-label={action.label}
            disabled={busy || !unchanged}
            onClick={action.run}
          >
            {action.text}
          </button>
          <button
            type="button"
            className="button button--inline button--secondary"
            aria-label={texts.removeLabel(name)}
            disabled={busy}
            onClick={onRemove}
          >
            {texts.remove}
          </button>
          <span className="hint">{hint}</span>
        </div>
      </form>
    </section>
  );
}

/**
 * The card of a new record: its heading (`h2` alone on a page, `h3` in a section), its `fields` as typed
 * (from `empty`) and 'Anlegen', which sends `create` with `inputOf` the fields; created, they are empty again.
 */
export function NewRecordCard<Draft, Input, Answer extends { message: string }>({
  texts,
  Heading,
  empty,
  create,
  inputOf,
  outcome,
  fields,
}: {
  texts: RecordTexts;
  Heading: 'h2' | 'h3';
  empty: Draft;
  create: UseMutationResult<Answer, Error, Input>;
  inputOf: (draft: Draft) => Input;
  outcome: PageOutcome;
  fields: (draft: Draft, setDraft: (d: Draft) => void) => ReactNode;
}) {
  const [draft, setDraft] = useState<Draft>(empty);
  return (
    <section className="leitstand-record" aria-label={texts.add}>
      <Heading>{texts.add}</Heading>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          outcome.done(null);
          create.mutate(
            inputOf(draft),
            outcome.after((a: Answer) => {
              setDraft(empty);
              return a.message;
            }),
          );
        }}
      >
        {fields(draft, setDraft)}
        <div className="leitstand-actions">
          <button type="submit" className="button button--inline" disabled={create.isPending}>
            {texts.addSubmit}
          </button>
        </div>
      </form>
    </section>
  );
}

/** 'Entfernen' asked in the page: `name`'s record goes with `onConfirm` (the dialog closes first). */
export function RemoveRecordDialog({
  texts,
  name,
  onConfirm,
  onClose,
  children,
}: {
  texts: RecordTexts;
  name: string;
  onConfirm: () => void;
  onClose: () => void;
  children: ReactNode;
}) {
  return (
    <ConfirmDialog
      title={texts.removeTitle(name)}
      confirmLabel={texts.remove}
      cancelLabel={texts.cancel}
      onConfirm={() => {
        onClose();
        onConfirm();
      }}
      onCancel={onClose}
    >
      {children}
    </ConfirmDialog>
  );
}
