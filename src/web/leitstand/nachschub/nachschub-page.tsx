import { type FormEvent, useEffect, useState } from 'react';
import {
  MINIMA_MAX,
  type MinimumRow,
  nachschubMinima,
  nachschubMinimumSetzen,
  nachschubTexts as t,
} from '../../../contract/leitstand/nachschub.ts';
import { AMOUNT_MAX } from '../../../contract/limits.ts';
import type { ReplenishmentRow } from '../../../contract/nachschub.ts';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { type Column, DataTable } from '../../ui/data-table.tsx';
import { keyOf, useLeitstandMutation, useLeitstandQuery } from '../api.ts';
import { Outcome, useOutcome } from '../outcome.tsx';
import { QueryState } from '../query-state.tsx';
import './nachschub.css';

/**
 * The typed minimum as the call takes it. An empty field is NaN, sent as null, so the server answers 'Minimum
 * fehlt.' (Number('') would be 0, which removes a minimum).
 */
const asMinimum = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));

/** The search as typed, passed on once typing paused. */
function useSettled(value: string, ms = 300): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value.trim()), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

type Save = (body: { lagerplatz: string; artikel: string; minimum: number }, done?: () => void) => void;

/**
 * Replenishment minimums (issue 20.5): set one for a location and article; every minimum with the stock
 * there, its minimum edited in place (0, or 'Entfernen' after a confirm, removes it); and 'Unter Minimum', what the handheld's
 * Nachschub list shows now. Live: a booking on a handheld moves the stock figures and the list by itself.
 */
export default function NachschubPage() {
  const [search, setSearch] = useState('');
  const suche = useSettled(search);
  const query = useLeitstandQuery(nachschubMinima, { query: suche === '' ? {} : { suche } });
  const setting = useLeitstandMutation(nachschubMinimumSetzen);
  const outcome = useOutcome(keyOf(nachschubMinima).slice(0, 1));
  const [removing, setRemoving] = useState<MinimumRow | null>(null);

  const save: Save = (body, done) => {
    outcome.done(null);
    setting.mutate(
      { body },
      outcome.after((answer) => {
        done?.();
        return answer.message;
      }),
    );
  };

  return (
    <>
      <h1>{t.title}</h1>
      <Outcome {...outcome} />
      <AddMinimum save={save} busy={setting.isPending} />
      <QueryState query={query}>
        {({ data }) => (
          <>
            <DataTable
              heading={t.below}
              empty={t.noneBelow}
              columns={belowColumns}
              rows={data.unterMinimum}
              rowKey={belowKey}
            />
            <section aria-label={t.minima}>
              <h2>{t.minima}</h2>
              <label className="nachschub-search">
                {t.search}
                <input
                  type="search"
                  value={search}
                  autoComplete="off"
                  onChange={(e) => setSearch(e.target.value)}
                />
              </label>
              {data.minima.length === 0 ? (
                <p className="hint">{suche === '' ? t.noMinima : t.noMatch}</p>
              ) : (
                <table className="table nachschub-table">
                  <thead>
                    <tr>
                      <th>{t.location}</th>
                      <th>{t.article}</th>
                      <th className="number">{t.stock}</th>
                      <th>{t.minimum}</th>
                      <th>{t.actions}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.minima.map((row) => (
                      // Keyed by the minimum too: a changed minimum (here or elsewhere) starts the field anew.
                      <MinimumLine
                        key={`${row.lagerplatzId}-${row.artikelId}-${row.minimum}`}
                        row={row}
                        save={save}
                        onRemove={setRemoving}
                        busy={setting.isPending}
                      />
                    ))}
                  </tbody>
                </table>
              )}
              {data.weitere && <p className="hint">{t.more(MINIMA_MAX)}</p>}
            </section>
          </>
        )}
      </QueryState>
      {removing && (
        <ConfirmDialog
          title={t.removeTitle(removing.nummer, removing.lagerplatz)}
          confirmLabel={t.removeConfirm}
          cancelLabel={t.cancel}
          onConfirm={() => {
            setRemoving(null);
            save({ lagerplatz: removing.lagerplatz, artikel: removing.nummer, minimum: 0 });
          }}
          onCancel={() => setRemoving(null)}
        >
          {t.removeBody}
        </ConfirmDialog>
      )}
    </>
  );
}

function MinimumLine({
  row,
  save,
  onRemove,
  busy,
}: {
  row: MinimumRow;
  save: Save;
  onRemove: (row: MinimumRow) => void;
  busy: boolean;
}) {
  const [draft, setDraft] = useState(String(row.minimum));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save({ lagerplatz: row.lagerplatz, artikel: row.nummer, minimum: asMinimum(draft) });
  };
  return (
    <tr className={row.bestand < row.minimum ? 'nachschub-low' : undefined}>
      <td className="code">{row.lagerplatz}</td>
      <td>
        <span className="code">{row.nummer}</span> {row.name}
      </td>
      <td className="number">{row.bestand}</td>
      <td>
        <form className="nachschub-inline" noValidate onSubmit={submit}>
          <input
            type="number"
            inputMode="numeric"
            min={0}
            max={AMOUNT_MAX}
            step={1}
            aria-label={t.minimumOf(row.nummer, row.lagerplatz)}
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
          />
          <button
            type="submit"
            className="button button--inline"
            aria-label={t.saveLabel(row.nummer, row.lagerplatz)}
            disabled={busy || draft === String(row.minimum)}
          >
            {t.save}
          </button>
        </form>
      </td>
      <td>
        <button
          type="button"
          className="button button--inline button--secondary"
          aria-label={t.removeLabel(row.nummer, row.lagerplatz)}
          disabled={busy}
          onClick={() => onRemove(row)}
        >
          {t.remove}
        </button>
      </td>
    </tr>
  );
}

/** A new minimum (or a changed one) by location code and article as scanned or typed. */
function AddMinimum({ save, busy }: { save: Save; busy: boolean }) {
  const [lagerplatz, setLagerplatz] = useState('');
  const [artikel, setArtikel] = useState('');
  const [minimum, setMinimum] = useState('');
  return (
    <section aria-label={t.add}>
      <h2>{t.add}</h2>
      <form
        className="nachschub-add"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          save(
            { lagerplatz: lagerplatz.trim(), artikel: artikel.trim(), minimum: asMinimum(minimum) },
            () => {
              setLagerplatz('');
              setArtikel('');
              setMinimum('');
            },
          );
        }}
      >
        <label>
          {t.location}
          <input value={lagerplatz} autoComplete="off" onChange={(e) => setLagerplatz(e.target.value)} />
        </label>
        <label>
          {t.article}
          <input value={artikel} autoComplete="off" onChange={(e) => setArtikel(e.target.value)} />
        </label>
        <label>
          {t.minimum}
          <input
            type="number"
            inputMode="numeric"
            min={0}
            max={AMOUNT_MAX}
            step={1}
            value={minimum}
            onChange={(e) => setMinimum(e.target.value)}
          />
        </label>
        <button type="submit" className="button button--inline" disabled={busy}>
          {t.addSubmit}
        </button>
      </form>
      <p className="hint">{t.addHint}</p>
    </section>
  );
}

const belowKey = (row: ReplenishmentRow) => `${row.locationId}-${row.articleId}`;
const belowColumns: Column<ReplenishmentRow>[] = [
  { header: t.location, cell: (r) => r.location, kind: 'code' },
  { header: t.article, cell: (r) => `${r.nummer} ${r.name}` },
  { header: t.stock, cell: (r) => r.amount, kind: 'number' },
  { header: t.minimum, cell: (r) => r.minimum, kind: 'number' },
  { header: t.missing, cell: (r) => r.missing, kind: 'number' },
  {
    header: t.source,
    cell: (r) => (r.source ? `${r.source.location} (${r.source.amount})` : t.noSource),
    kind: 'code',
  },
];
