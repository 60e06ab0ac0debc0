import { type FormEvent, useMemo } from 'react';
import { Link, useSearchParams } from 'react-router';
import {
  type ArtikelTreffer,
  bestandArtikel,
  bestandLagerplatz,
  bestandTexts,
} from '../../../contract/leitstand/bestand.ts';
import { type Column, DataTable } from '../../ui/data-table.tsx';
import { dayAndTime, germanDate, germanNumber } from '../../ui/format.ts';
import { useLeitstandQuery } from '../api.ts';
import { QueryState } from '../query-state.tsx';
import './bestand.css';

const t = bestandTexts;
type StockRow = ArtikelTreffer['bestand'][number];
type ContentRow = { nummer: string; name: string; menge: number; charge: string | null; mhd: string | null };

/** The journal page filtered by one article or location. */
const journalLink = (filter: Record<string, string>) =>
  `/leitstand/journal?${new URLSearchParams(filter).toString()}`;

const contentColumns: Column<ContentRow>[] = [
  { header: t.columns.nummer, cell: (r) => r.nummer, kind: 'code' },
  { header: t.columns.name, cell: (r) => r.name },
  { header: t.columns.menge, cell: (r) => germanNumber(r.menge), kind: 'number' },
  { header: t.columns.charge, cell: (r) => r.charge ?? '–', kind: 'code' },
  { header: t.columns.mhd, cell: (r) => germanDate(r.mhd), kind: 'number' },
];

/**
 * Bestand (issue 20.3): find an article by any of its codes or a part of its name and see where it lies,
 * with amounts, Charge and MHD; see what lies on a location. Both searches live in the address (`?q=`,
 * `?lp=`), so a result can be linked and the browser's back button goes back to the last one.
 */
export default function BestandPage() {
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const lp = params.get('lp') ?? '';
  const show = (key: 'q' | 'lp', value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    setParams(next);
  };
  return (
    <>
      <h1>{t.title}</h1>
      <div className="bestand-forms">
        <SearchForm
          id="bestand-q"
          label={t.search.label}
          hint={t.search.hint}
          submit={t.search.submit}
          value={q}
          onSubmit={(value) => show('q', value)}
        />
        <SearchForm
          id="bestand-lp"
          label={t.location.label}
          submit={t.location.submit}
          value={lp}
          onSubmit={(value) => show('lp', value)}
        />
      </div>
      {lp && <LocationContent code={lp} />}
      {q && <SearchResults q={q} />}
    </>
  );
}

function SearchForm({
  id,
  label,
  hint,
  submit,
  value,
  onSubmit,
}: {
  id: string;
  label: string;
  hint?: string;
  submit: string;
  value: string;
  onSubmit: (value: string) => void;
}) {
  const send = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const typed = new FormData(event.currentTarget).get('value');
    onSubmit(typeof typed === 'string' ? typed.trim() : '');
  };
  return (
    <form className="bestand-form" onSubmit={send}>
      <div className="field">
        <label htmlFor={id}>{label}</label>
        <div className="scan-row">
          <input
            // A new search in the address (a link, the back button) shows in the field.
            key={value}
            id={id}
            name="value"
            className="scan-input"
            defaultValue={value}
            autoComplete="off"
            aria-describedby={hint ? `${id}-hint` : undefined}
          />
          <button type="submit" className="button bestand-submit">
            {submit}
          </button>
        </div>
        {hint && (
          <span id={`${id}-hint`} className="hint">
            {hint}
          </span>
        )}
      </div>
    </form>
  );
}

function SearchResults({ q }: { q: string }) {
  const query = useLeitstandQuery(bestandArtikel, { query: { q } });
  // The location cells link to the location's content, keeping the search.
  const stockColumns = useMemo<Column<StockRow>[]>(
    () => [
      {
        header: t.columns.lagerplatz,
        cell: (r) => (
          <Link to={{ search: new URLSearchParams({ q, lp: r.lagerplatz }).toString() }}>{r.lagerplatz}</Link>
        ),
        kind: 'code',
      },
      { header: t.columns.lagertyp, cell: (r) => r.lagertyp },
      { header: t.columns.menge, cell: (r) => germanNumber(r.menge), kind: 'number' },
      { header: t.columns.charge, cell: (r) => r.charge ?? '–', kind: 'code' },
      { header: t.columns.mhd, cell: (r) => germanDate(r.mhd), kind: 'number' },
    ],
    [q],
  );
  return (
    <QueryState query={query}>
      {({ artikel, mehr }) => (
        <div className="bestand-results">
          <p role="status">{t.search.results(artikel.length, mehr)}</p>
          {artikel.map((a) => (
            <article key={a.id} className="bestand-article">
              <DataTable
                heading={`${a.nummer} ${a.name}`}
                empty={t.search.noStock}
                columns={stockColumns}
                rows={a.bestand}
                rowKey={(r, i) => `${r.lagerplatz}-${i}`}
              />
              {(a.bestandWeitere ?? 0) > 0 && (
                <p className="hint">{t.search.moreStock(a.bestandWeitere ?? 0)}</p>
              )}
              <p className="bestand-meta">
                <span>
                  {t.columns.ean}: {a.ean ?? '–'}
                </span>
                <span>
                  {t.columns.herstellernummer}: {a.herstellernummer ?? '–'}
                </span>
                <span>
                  {t.columns.treffer}: {t.treffer[a.treffer]}
                </span>
                <span>
                  {t.search.total}: {germanNumber(a.gesamt)}
                </span>
                <Link to={journalLink({ artikel: a.nummer })}>{t.search.journal}</Link>
              </p>
            </article>
          ))}
        </div>
      )}
    </QueryState>
  );
}

function LocationContent({ code }: { code: string }) {
  const query = useLeitstandQuery(bestandLagerplatz, { params: { code } });
  return (
    <QueryState query={query}>
      {({ lagerplatz, inhalt }) => (
        <div className="bestand-location">
          {lagerplatz.zaehlenSeit && (
            <p className="bestand-count-mark" role="status">
              {t.location.countMarked(dayAndTime(lagerplatz.zaehlenSeit))}
            </p>
          )}
          <DataTable
            heading={t.location.heading(lagerplatz.code)}
            empty={t.location.empty}
            columns={contentColumns}
            rows={inhalt}
            rowKey={(r, i) => `${r.nummer}-${i}`}
          />
          <p className="bestand-meta">
            <span>{lagerplatz.name}</span>
            <span>
              {t.columns.lagertyp}: {lagerplatz.lhm ? t.location.lhm : lagerplatz.lagertyp || '–'}
            </span>
            <Link to={journalLink({ lagerplatz: lagerplatz.code })}>{t.location.journal}</Link>
          </p>
        </div>
      )}
    </QueryState>
  );
}
