import { useState } from 'react';
import {
  ABC_CLASSES,
  PLAN_KINDS,
  type PlanForm,
  type PlanKind,
  type PlanRow,
  inventurLeitstandTexts as t,
  type Zaehler,
  zaehlauftraegeAnlegen,
  zaehlplaene,
  zaehlplanAendern,
  zaehlplanAnlegen,
  zaehlplanEntfernen,
} from '../../../contract/leitstand/inventur.ts';
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
import { CounterChoice } from './counter-choice.tsx';
import './inventur.css';

/** A plan's fields as typed: every field a text, so an empty one can be sent as "none". */
interface Draft {
  name: string;
  art: PlanKind;
  von: string;
  bis: string;
  tage: string;
  klasse: string;
  faelligInTagen: string;
  benutzerId: string;
}

const emptyDraft: Draft = {
  name: '',
  art: 'bereich',
  von: '',
  bis: '',
  tage: '',
  klasse: '',
  faelligInTagen: '0',
  benutzerId: '',
};

function draftOf(p: PlanRow): Draft {
  return {
    name: p.name,
    art: p.art,
    von: p.von ?? '',
    bis: p.bis ?? '',
    tage: p.tage === null ? '' : String(p.tage),
    klasse: p.klasse ?? '',
    faelligInTagen: String(p.faelligInTagen),
    benutzerId: p.benutzerId === null ? '' : String(p.benutzerId),
  };
}

const textOrNull = (text: string) => (text.trim() === '' ? null : text.trim());

function formOf(d: Draft): PlanForm {
  const usesDays = d.art === 'nicht_gezaehlt' || d.art === 'null_oder_korrigiert';
  return {
    name: d.name.trim(),
    art: d.art,
    von: textOrNull(d.von),
    bis: textOrNull(d.bis),
    tage: usesDays ? numberOrNull(d.tage) : null,
    klasse: d.art === 'abc' && d.klasse !== '' ? (d.klasse as PlanForm['klasse']) : null,
    // An empty field is sent as NaN, so the server says 'Fällig in Tagen fehlt.'
    faelligInTagen: d.faelligInTagen.trim() === '' ? Number.NaN : Number(d.faelligInTagen),
    benutzerId: d.benutzerId === '' ? null : Number(d.benutzerId),
  };
}

/**
 * Zählpläne (issue 42): the count plans — set one up, edit each in place, remove one after a confirm (its
 * tasks stay), and 'Aufträge anlegen' from one: a task per location the plan matches that has none open.
 */
export default function ZaehlplaenePage() {
  const query = useLeitstandQuery(zaehlplaene);
  const outcome = useOutcome();
  const [removing, setRemoving] = useState<PlanRow | null>(null);
  const remove = useLeitstandMutation(zaehlplanEntfernen);
  return (
    <>
      <h1>{t.plansTitle}</h1>
      <Outcome {...outcome} />
      <QueryState query={query}>
        {({ data }) => (
          <>
            {data.plaene.length === 0 ? (
              <p className="hint">{t.noPlans}</p>
            ) : (
              <div className="leitstand-records">
                {data.plaene.map((p) => (
                  // Keyed by the last change too: a plan changed at another desk starts its fields anew.
                  <PlanCard
                    key={`${p.id}-${p.geaendertAm}`}
                    plan={p}
                    users={data.zaehler}
                    outcome={outcome}
                    onRemove={setRemoving}
                  />
                ))}
              </div>
            )}
            <AddPlan users={data.zaehler} outcome={outcome} />
          </>
        )}
      </QueryState>
      {removing && (
        <RemoveRecordDialog
          texts={t}
          name={removing.name}
          onConfirm={() => outcome.send(remove, { params: { id: removing.id }, body: {} })}
          onClose={() => setRemoving(null)}
        >
          {t.removeBody(removing.offen)}
        </RemoveRecordDialog>
      )}
    </>
  );
}

function PlanCard({
  plan,
  users,
  outcome,
  onRemove,
}: {
  plan: PlanRow;
  users: Zaehler[];
  outcome: PageOutcome;
  onRemove: (p: PlanRow) => void;
}) {
  const { draft, setDraft, unchanged } = useRecordDraft(plan, draftOf);
  const save = useLeitstandMutation(zaehlplanAendern);
  const create = useLeitstandMutation(zaehlauftraegeAnlegen);
  return (
    <RecordCard
      name={plan.name}
      texts={t}
      busy={save.isPending || create.isPending}
      unchanged={unchanged}
      onSave={() => outcome.send(save, { params: { id: plan.id }, body: formOf(draft) })}
      action={{
        label: t.createTasksLabel(plan.name),
        text: create.isPending ? '…' : t.createTasks,
        run: () => outcome.send(create, { params: { id: plan.id }, body: {} }),
      }}
      onRemove={() => onRemove(plan)}
      hint={`${t.openTasks(plan.offen)} · ${t.changed(plan.angelegtVon, dayAndTime(plan.geaendertAm))}`}
    >
      <PlanFields draft={draft} setDraft={setDraft} users={users} of={plan.name} />
    </RecordCard>
  );
}

function AddPlan({ users, outcome }: { users: Zaehler[]; outcome: PageOutcome }) {
  const create = useLeitstandMutation(zaehlplanAnlegen);
  return (
    <NewRecordCard
      texts={t}
      Heading="h2"
      empty={emptyDraft}
      create={create}
      inputOf={(draft) => ({ body: formOf(draft) })}
      outcome={outcome}
      fields={(draft, setDraft) => <PlanFields draft={draft} setDraft={setDraft} users={users} of={null} />}
    />
  );
}

/** A plan's fields; those its kind does not use are left out. `of` names the plan in each label of an existing one. */
function PlanFields({
  draft,
  setDraft,
  users,
  of,
}: {
  draft: Draft;
  setDraft: (d: Draft) => void;
  users: Zaehler[];
  of: string | null;
}) {
  const { label, set } = draftFields(draft, setDraft, of, t);
  const usesDays = draft.art === 'nicht_gezaehlt' || draft.art === 'null_oder_korrigiert';
  return (
    <>
      <div className="leitstand-fields">
        <label>
          {t.name}
          <input aria-label={label(t.name)} value={draft.name} autoComplete="off" onChange={set('name')} />
        </label>
        <label>
          {t.art}
          <select aria-label={label(t.art)} value={draft.art} onChange={set('art')}>
            {PLAN_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {t.kinds[kind]}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t.von}
          <input aria-label={label(t.von)} value={draft.von} autoComplete="off" onChange={set('von')} />
        </label>
        <label>
          {t.bis}
          <input aria-label={label(t.bis)} value={draft.bis} autoComplete="off" onChange={set('bis')} />
        </label>
        {usesDays && (
          <label>
            {t.tage}
            <input
              aria-label={label(t.tage)}
              type="number"
              inputMode="numeric"
              min={1}
              step={1}
              value={draft.tage}
              onChange={set('tage')}
            />
          </label>
        )}
        {draft.art === 'abc' && (
          <label>
            {t.klasse}
            <select aria-label={label(t.klasse)} value={draft.klasse} onChange={set('klasse')}>
              <option value="">–</option>
              {ABC_CLASSES.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
          </label>
        )}
        <label>
          {t.faelligInTagen}
          <input
            aria-label={label(t.faelligInTagen)}
            type="number"
            inputMode="numeric"
            min={0}
            max={365}
            step={1}
            value={draft.faelligInTagen}
            onChange={set('faelligInTagen')}
          />
        </label>
        <CounterChoice
          caption={t.zuweisen}
          label={label(t.zuweisen)}
          users={users}
          value={draft.benutzerId}
          onChange={(benutzerId) => setDraft({ ...draft, benutzerId })}
        />
      </div>
      <p className="hint">{t.kindHints[draft.art]}</p>
    </>
  );
}
