import { useState } from 'react';
import {
  TASK_STATUSES,
  TASKS_PAGE,
  type TaskRow,
  inventurLeitstandTexts as t,
  type Zaehler,
  zaehlauftraege,
  zaehlauftragVerwerfen,
  zaehlauftragZuweisen,
  zaehlplaene,
} from '../../../contract/leitstand/inventur.ts';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { germanDate } from '../../ui/format.ts';
import { useLeitstandMutation, useLeitstandQuery } from '../api.ts';
import { Outcome, type PageOutcome, useOutcome } from '../outcome.tsx';
import { QueryState } from '../query-state.tsx';
import { CounterChoice } from './counter-choice.tsx';
import './inventur.css';

interface Filter {
  status: string;
  plan: string;
  platz: string;
  faelligBis: string;
}

/** The list's query: only the filters set (an empty one is no filter). */
function queryOf(filter: Filter, page: number): Record<string, string> {
  const query: Record<string, string> = {};
  if (filter.status !== '') query.status = filter.status;
  if (filter.plan !== '') query.plan = filter.plan;
  if (filter.platz.trim() !== '') query.platz = filter.platz.trim();
  if (filter.faelligBis !== '') query.faelligBis = filter.faelligBis;
  if (page > 1) query.seite = String(page);
  return query;
}

/**
 * Zählaufträge (issue 42): every count task, filtered by status, plan, the start of the location code (an
 * aisle) and due day, a page at a time; an open one can be given to a user ('Zuweisen') or discarded
 * ('Verwerfen'). Live: a count on a handheld moves a task's status by itself.
 */
export default function ZaehlauftraegePage() {
  const [filter, setFilter] = useState<Filter>({ status: 'aktiv', plan: '', platz: '', faelligBis: '' });
  const [page, setPage] = useState(1);
  const plans = useLeitstandQuery(zaehlplaene);
  const query = useLeitstandQuery(zaehlauftraege, { query: queryOf(filter, page) });
  const outcome = useOutcome();
  const [discarding, setDiscarding] = useState<TaskRow | null>(null);
  const discard = useLeitstandMutation(zaehlauftragVerwerfen);
  const set = (key: keyof Filter) => (e: { target: { value: string } }) => {
    setFilter({ ...filter, [key]: e.target.value });
    setPage(1);
  };
  const users = plans.data?.data.zaehler ?? [];
  return (
    <>
      <h1>{t.tasksTitle}</h1>
      <Outcome {...outcome} />
      <search className="leitstand-fields">
        <label>
          {t.status}
          <select aria-label={t.status} value={filter.status} onChange={set('status')}>
            <option value="aktiv">{t.openStatus}</option>
            <option value="">{t.anyStatus}</option>
            {TASK_STATUSES.map((s) => (
              <option key={s} value={s}>
                {t.statuses[s]}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t.plan}
          <select aria-label={t.plan} value={filter.plan} onChange={set('plan')}>
            <option value="">{t.anyPlan}</option>
            {(plans.data?.data.plaene ?? []).map((p) => (
              <option key={p.id} value={String(p.id)}>
                {p.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t.platz}
          <input aria-label={t.platz} value={filter.platz} autoComplete="off" onChange={set('platz')} />
        </label>
        <label>
          {t.faelligBis}
          <input
            aria-label={t.faelligBis}
            type="date"
            value={filter.faelligBis}
            onChange={set('faelligBis')}
          />
        </label>
      </search>
      <QueryState query={query}>
        {({ data }) => {
          const pages = Math.max(1, Math.ceil(data.gesamt / TASKS_PAGE));
          return data.auftraege.length === 0 ? (
            <p className="hint">{t.noTasks}</p>
          ) : (
            <>
              <p className="hint">{t.tasksCount(data.gesamt)}</p>
              <table className="table inventur-table" aria-label={t.tasksTitle}>
                <thead>
                  <tr>
                    <th>{t.lagerplatz}</th>
                    <th>{t.grund}</th>
                    <th>{t.faellig}</th>
                    <th>{t.status}</th>
                    <th>{t.zugewiesen}</th>
                    <th>{t.gezaehltVon}</th>
                    <th>{t.actions}</th>
                  </tr>
                </thead>
                <tbody>
                  {data.auftraege.map((task) => (
                    <TaskLine
                      key={`${task.id}-${task.zugewiesen?.id ?? 0}-${task.status}`}
                      task={task}
                      users={users}
                      outcome={outcome}
                      onDiscard={setDiscarding}
                    />
                  ))}
                </tbody>
              </table>
              {pages > 1 && (
                <div className="inventur-pages">
                  <button
                    type="button"
                    className="button button--inline button--secondary"
                    disabled={data.seite <= 1}
                    onClick={() => setPage(data.seite - 1)}
                  >
                    {t.previous}
                  </button>
                  <span>{t.page(data.seite, pages)}</span>
                  <button
                    type="button"
                    className="button button--inline button--secondary"
                    disabled={data.seite >= pages}
                    onClick={() => setPage(data.seite + 1)}
                  >
                    {t.next}
                  </button>
                </div>
              )}
            </>
          );
        }}
      </QueryState>
      {discarding && (
        <ConfirmDialog
          title={t.discardTitle(discarding.lagerplatz)}
          confirmLabel={t.discard}
          cancelLabel={t.cancel}
          onConfirm={() => {
            const id = discarding.id;
            setDiscarding(null);
            outcome.send(discard, { params: { id }, body: {} });
          }}
          onCancel={() => setDiscarding(null)}
        >
          {t.discardBody}
        </ConfirmDialog>
      )}
    </>
  );
}

function TaskLine({
  task,
  users,
  outcome,
  onDiscard,
}: {
  task: TaskRow;
  users: Zaehler[];
  outcome: PageOutcome;
  onDiscard: (task: TaskRow) => void;
}) {
  const [assignee, setAssignee] = useState(task.zugewiesen === null ? '' : String(task.zugewiesen.id));
  const assign = useLeitstandMutation(zaehlauftragZuweisen);
  const open = task.status === 'offen';
  return (
    <tr>
      <td className="code">{task.lagerplatz}</td>
      <td>
        {t.reasons[task.grund]}
        {task.plan && <div className="hint">{task.plan}</div>}
      </td>
      <td>{germanDate(task.faellig)}</td>
      <td>{t.statuses[task.status]}</td>
      <td>{task.zugewiesen?.name ?? t.nobody}</td>
      <td>{task.gezaehltVon ?? ''}</td>
      <td>
        {open && (
          <div className="inventur-row-actions">
            <CounterChoice
              label={t.assignTo(task.lagerplatz)}
              users={users.filter((u) => u.id !== task.nichtBenutzerId)}
              value={assignee}
              onChange={setAssignee}
            />
            <button
              type="button"
              className="button button--inline"
              aria-label={t.assignLabel(task.lagerplatz)}
              disabled={assign.isPending}
              onClick={() =>
                outcome.send(assign, {
                  params: { id: task.id },
                  body: { benutzerId: assignee === '' ? null : Number(assignee) },
                })
              }
            >
              {t.assign}
            </button>
            <button
              type="button"
              className="button button--inline button--secondary"
              aria-label={t.discardLabel(task.lagerplatz)}
              onClick={() => onDiscard(task)}
            >
              {t.discard}
            </button>
          </div>
        )}
      </td>
    </tr>
  );
}
