import { type FormEvent, useState } from 'react';
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
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { dayAndTime } from '../../ui/format.ts';
import { useLeitstandMutation, useLeitstandQuery } from '../api.ts';
import { Outcome, useOutcome } from '../outcome.tsx';
import { QueryState } from '../query-state.tsx';
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
/** An empty number field is "none" (null); anything else goes as a number (NaN is refused by the server). */
const numberOrNull = (text: string) => (text.trim() === '' ? null : Number(text));

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

type PageOutcome = ReturnType<typeof useOutcome>;

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
          {t.removeBody(removing.offen)}
        </ConfirmDialog>
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
  const [draft, setDraft] = useState(() => draftOf(plan));
  const save = useLeitstandMutation(zaehlplanAendern);
  const create = useLeitstandMutation(zaehlauftraegeAnlegen);
  const busy = save.isPending || create.isPending;
  const unchanged = JSON.stringify(draft) === JSON.stringify(draftOf(plan));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    outcome.done(null);
    save.mutate(
      { params: { id: plan.id }, body: formOf(draft) },
      outcome.after((a) => a.message),
    );
  };
  return (
    <section className="leitstand-record" aria-label={plan.name}>
      <form noValidate onSubmit={submit}>
        <PlanFields draft={draft} setDraft={setDraft} users={users} of={plan.name} />
        <div className="leitstand-actions">
          <button
            type="submit"
            className="button button--inline"
            aria-label={t.saveLabel(plan.name)}
            disabled={busy || unchanged}
          >
            {t.save}
          </button>
          <button
            type="button"
            className="button button--inline"
            aria-label={t.createTasksLabel(plan.name)}
            disabled={busy || !unchanged}
            onClick={() => {
              outcome.done(null);
              create.mutate(
                { params: { id: plan.id }, body: {} },
                outcome.after((a) => a.message),
              );
            }}
          >
            {create.isPending ? '…' : t.createTasks}
          </button>
          <button
            type="button"
            className="button button--inline button--secondary"
            aria-label={t.removeLabel(plan.name)}
            disabled={busy}
            onClick={() => onRemove(plan)}
          >
            {t.remove}
          </button>
          <span className="hint">
            {t.openTasks(plan.offen)} · {t.changed(plan.angelegtVon, dayAndTime(plan.geaendertAm))}
          </span>
        </div>
      </form>
    </section>
  );
}

function AddPlan({ users, outcome }: { users: Zaehler[]; outcome: PageOutcome }) {
  const [draft, setDraft] = useState<Draft>(emptyDraft);
  const create = useLeitstandMutation(zaehlplanAnlegen);
  return (
    <section className="leitstand-record" aria-label={t.add}>
      <h2>{t.add}</h2>
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
        <PlanFields draft={draft} setDraft={setDraft} users={users} of={null} />
        <div className="leitstand-actions">
          <button type="submit" className="button button--inline" disabled={create.isPending}>
            {t.addSubmit}
          </button>
        </div>
      </form>
    </section>
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
  const label = (field: string) => (of === null ? field : t.fieldOf(field, of));
  const set = (key: keyof Draft) => (e: { target: { value: string } }) =>
    setDraft({ ...draft, [key]: e.target.value });
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
        <label>
          {t.zuweisen}
          <select aria-label={label(t.zuweisen)} value={draft.benutzerId} onChange={set('benutzerId')}>
            <option value="">{t.nobody}</option>
            {users.map((u) => (
              <option key={u.id} value={String(u.id)}>
                {u.name}
              </option>
            ))}
          </select>
        </label>
      </div>
      <p className="hint">{t.kindHints[draft.art]}</p>
    </>
  );
}
