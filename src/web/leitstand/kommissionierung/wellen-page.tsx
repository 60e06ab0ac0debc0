import { type FormEvent, useState } from 'react';
import {
  kommissionierProfilAendern,
  kommissionierProfilAnlegen,
  kommissionierProfilEntfernen,
  kommissionierProfile,
  type ProfilForm,
  type ProfilRow,
  kommissionierungLeitstandTexts as t,
  welleFreigeben,
} from '../../../contract/leitstand/kommissionierung.ts';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { dayAndTime } from '../../ui/format.ts';
import { useLeitstandMutation, useLeitstandQuery } from '../api.ts';
import { Outcome, useOutcome } from '../outcome.tsx';
import { QueryState } from '../query-state.tsx';
import { Waves } from './waves.tsx';
import './kommissionierung.css';

/** A profile's fields as typed: every field a text, so an empty one can say "any". */
interface Draft {
  name: string;
  versandart: string;
  maxPositionen: string;
  eu: 'beide' | 'eu' | 'nichtEu';
  eingangVor: string;
  proWagen: string;
}

const emptyDraft: Draft = {
  name: '',
  versandart: '',
  maxPositionen: '',
  eu: 'beide',
  eingangVor: '',
  proWagen: '6',
};

function draftOf(p: ProfilRow): Draft {
  return {
    name: p.name,
    versandart: p.versandart ?? '',
    maxPositionen: p.maxPositionen === null ? '' : String(p.maxPositionen),
    eu: p.eu === null ? 'beide' : p.eu ? 'eu' : 'nichtEu',
    eingangVor: p.eingangVor ?? '',
    proWagen: String(p.proWagen),
  };
}

/** An empty number field is "any" (null); anything else goes as a number (NaN is refused by the server). */
const numberOrNull = (text: string) => (text.trim() === '' ? null : Number(text));

function formOf(d: Draft): ProfilForm {
  return {
    name: d.name.trim(),
    versandart: d.versandart.trim() === '' ? null : d.versandart.trim(),
    maxPositionen: numberOrNull(d.maxPositionen),
    eu: d.eu === 'beide' ? null : d.eu === 'eu',
    eingangVor: d.eingangVor === '' ? null : d.eingangVor,
    // An empty field is sent as NaN, so the server says 'Lieferscheine je Wagen fehlt.'
    proWagen: d.proWagen.trim() === '' ? Number.NaN : Number(d.proWagen),
  };
}

/**
 * Wellen (issue 41): the pick profiles — set one up, edit each in place, remove one after a confirm,
 * 'Welle freigeben' from one — and the waves with their progress, live: a pick on any handheld moves the
 * figures by itself (the Leitstand's live stream reloads every query).
 */
export default function WellenPage() {
  const query = useLeitstandQuery(kommissionierProfile);
  const outcome = useOutcome();
  const [removing, setRemoving] = useState<ProfilRow | null>(null);
  const remove = useLeitstandMutation(kommissionierProfilEntfernen);
  return (
    <>
      <h1>{t.title}</h1>
      <Outcome {...outcome} />
      <section aria-label={t.profiles}>
        <h2>{t.profiles}</h2>
        <QueryState query={query}>
          {({ data }) =>
            data.profile.length === 0 ? (
              <p className="hint">{t.noProfiles}</p>
            ) : (
              <div className="leitstand-records">
                {data.profile.map((p) => (
                  // Keyed by the last change too: a profile changed at another desk starts its fields anew.
                  <ProfileCard
                    key={`${p.id}-${p.geaendertAm}`}
                    profile={p}
                    outcome={outcome}
                    onRemove={setRemoving}
                  />
                ))}
              </div>
            )
          }
        </QueryState>
        <AddProfile outcome={outcome} />
      </section>
      <Waves outcome={outcome} />
      {removing && (
        <ConfirmDialog
          title={t.removeTitle(removing.name)}
          confirmLabel={t.remove}
          cancelLabel={t.cancel}
          onConfirm={() => {
            const id = removing.id;
            setRemoving(null);
            outcome.done(null);
            remove.mutate(
              { params: { id }, body: {} },
              outcome.after((a) => a.message),
            );
          }}
          onCancel={() => setRemoving(null)}
        >
          {t.removeBody}
        </ConfirmDialog>
      )}
    </>
  );
}

type PageOutcome = ReturnType<typeof useOutcome>;

function ProfileCard({
  profile,
  outcome,
  onRemove,
}: {
  profile: ProfilRow;
  outcome: PageOutcome;
  onRemove: (p: ProfilRow) => void;
}) {
  const [draft, setDraft] = useState(() => draftOf(profile));
  const save = useLeitstandMutation(kommissionierProfilAendern);
  const release = useLeitstandMutation(welleFreigeben);
  const busy = save.isPending || release.isPending;
  const unchanged = JSON.stringify(draft) === JSON.stringify(draftOf(profile));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    outcome.done(null);
    save.mutate(
      { params: { id: profile.id }, body: formOf(draft) },
      outcome.after((a) => a.message),
    );
  };
  return (
    <section className="leitstand-record" aria-label={profile.name}>
      <form noValidate onSubmit={submit}>
        <ProfileFields draft={draft} setDraft={setDraft} of={profile.name} />
        <div className="leitstand-actions">
          <button
            type="submit"
            className="button button--inline"
            aria-label={t.saveLabel(profile.name)}
            disabled={busy || unchanged}
          >
            {t.save}
          </button>
          <button
            type="button"
            className="button button--inline"
            aria-label={t.releaseLabel(profile.name)}
            disabled={busy || !unchanged}
            onClick={() => {
              outcome.done(null);
              release.mutate(
                { params: { id: profile.id }, body: {} },
                outcome.after((a) => a.message),
              );
            }}
          >
            {t.release}
          </button>
          <button
            type="button"
            className="button button--inline button--secondary"
            aria-label={t.removeLabel(profile.name)}
            disabled={busy}
            onClick={() => onRemove(profile)}
          >
            {t.remove}
          </button>
          <span className="hint">
            {t.changed}: {profile.geaendertVon}, {dayAndTime(profile.geaendertAm)}
          </span>
        </div>
      </form>
    </section>
  );
}

function AddProfile({ outcome }: { outcome: PageOutcome }) {
  const [draft, setDraft] = useState<Draft>(emptyDraft);
  const create = useLeitstandMutation(kommissionierProfilAnlegen);
  return (
    <section className="leitstand-record" aria-label={t.add}>
      <h3>{t.add}</h3>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          outcome.done(null);
          create.mutate(
            { body: formOf(draft) },
            outcome.after((a) => {
              setDraft(emptyDraft);
              return a.message;
            }),
          );
        }}
      >
        <ProfileFields draft={draft} setDraft={setDraft} of={null} />
        <div className="leitstand-actions">
          <button type="submit" className="button button--inline" disabled={create.isPending}>
            {t.addSubmit}
          </button>
        </div>
      </form>
    </section>
  );
}

/** The six fields of a profile; `of` names the profile in each label of an existing one. */
function ProfileFields({
  draft,
  setDraft,
  of,
}: {
  draft: Draft;
  setDraft: (d: Draft) => void;
  of: string | null;
}) {
  const label = (field: string) => (of === null ? field : t.fieldOf(field, of));
  const set = (key: keyof Draft) => (e: { target: { value: string } }) =>
    setDraft({ ...draft, [key]: e.target.value });
  return (
    <div className="leitstand-fields">
      <label>
        {t.name}
        <input aria-label={label(t.name)} value={draft.name} autoComplete="off" onChange={set('name')} />
      </label>
      <label title={t.versandartHint}>
        {t.versandart}
        <input
          aria-label={label(t.versandart)}
          value={draft.versandart}
          placeholder={t.any}
          autoComplete="off"
          onChange={set('versandart')}
        />
      </label>
      <label>
        {t.maxPositionen}
        <input
          aria-label={label(t.maxPositionen)}
          type="number"
          inputMode="numeric"
          min={1}
          step={1}
          placeholder={t.any}
          value={draft.maxPositionen}
          onChange={set('maxPositionen')}
        />
      </label>
      <label>
        {t.eu}
        <select aria-label={label(t.eu)} value={draft.eu} onChange={set('eu')}>
          <option value="beide">{t.euChoices.beide}</option>
          <option value="eu">{t.euChoices.eu}</option>
          <option value="nichtEu">{t.euChoices.nichtEu}</option>
        </select>
      </label>
      <label title={t.eingangVorHint}>
        {t.eingangVor}
        <input
          aria-label={label(t.eingangVor)}
          type="time"
          value={draft.eingangVor}
          onChange={set('eingangVor')}
        />
      </label>
      <label>
        {t.proWagen}
        <input
          aria-label={label(t.proWagen)}
          type="number"
          inputMode="numeric"
          min={1}
          max={99}
          step={1}
          value={draft.proWagen}
          onChange={set('proWagen')}
        />
      </label>
    </div>
  );
}
