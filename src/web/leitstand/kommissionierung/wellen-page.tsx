import { useState } from 'react';
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
import { dayAndTime } from '../../ui/format.ts';
import { useLeitstandMutation, useLeitstandQuery } from '../api.ts';
import { Outcome, type PageOutcome, useOutcome } from '../outcome.tsx';
import { QueryState } from '../query-state.tsx';
import {
  draftFields,
  NewRecordCard,
  numberOrNull,
  RecordCard,
  RemoveRecordDialog,
  useRecordDraft,
} from '../record-card.tsx';
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
        <RemoveRecordDialog
          texts={t}
          name={removing.name}
          onConfirm={() => outcome.send(remove, { params: { id: removing.id }, body: {} })}
          onClose={() => setRemoving(null)}
        >
          {t.removeBody}
        </RemoveRecordDialog>
      )}
    </>
  );
}

function ProfileCard({
  profile,
  outcome,
  onRemove,
}: {
  profile: ProfilRow;
  outcome: PageOutcome;
  onRemove: (p: ProfilRow) => void;
}) {
  const { draft, setDraft, unchanged } = useRecordDraft(profile, draftOf);
  const save = useLeitstandMutation(kommissionierProfilAendern);
  const release = useLeitstandMutation(welleFreigeben);
  return (
    <RecordCard
      name={profile.name}
      texts={t}
      busy={save.isPending || release.isPending}
      unchanged={unchanged}
      onSave={() => outcome.send(save, { params: { id: profile.id }, body: formOf(draft) })}
      action={{
        label: t.releaseLabel(profile.name),
        text: t.release,
        run: () => outcome.send(release, { params: { id: profile.id }, body: {} }),
      }}
      onRemove={() => onRemove(profile)}
      hint={`${t.changed}: ${profile.geaendertVon}, ${dayAndTime(profile.geaendertAm)}`}
    >
      <ProfileFields draft={draft} setDraft={setDraft} of={profile.name} />
    </RecordCard>
  );
}

function AddProfile({ outcome }: { outcome: PageOutcome }) {
  const create = useLeitstandMutation(kommissionierProfilAnlegen);
  return (
    <NewRecordCard
      texts={t}
      Heading="h3"
      empty={emptyDraft}
      create={create}
      inputOf={(draft) => ({ body: formOf(draft) })}
      outcome={outcome}
      fields={(draft, setDraft) => <ProfileFields draft={draft} setDraft={setDraft} of={null} />}
    />
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
  const { label, set } = draftFields(draft, setDraft, of, t);
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
