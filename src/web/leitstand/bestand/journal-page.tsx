import { useInfiniteQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useSearchParams } from 'react-router';
import {
  bestandTexts,
  JOURNAL_PAGE,
  type JournalZeile,
  journal,
  MOVEMENT_KINDS,
  type MovementKindName,
} from '../../../contract/leitstand/bestand.ts';
import { texts } from '../../../contract/texts.ts';
import { messageOf } from '../../api/message.ts';
import { type Column, DataTable } from '../../ui/data-table.tsx';
import { bookingTime, germanDate, germanNumber } from '../../ui/format.ts';
import { keyOf, leitstandApi } from '../api.ts';
import { Refusal } from '../outcome.tsx';
import { QueryFailed } from '../query-state.tsx';
import { downloadJournalCsv } from './csv-download.ts';
import './bestand.css';

const t = bestandTexts;
const TEXT_FILTERS = ['artikel', 'lagerplatz', 'benutzer'] as const;
const FILTERS = [...TEXT_FILTERS, 'art', 'von', 'bis'] as const;
type Filters = Partial<Record<(typeof FILTERS)[number], string>>;

/**
 * A code kept whole (a location broken at its hyphens reads as several); a long one (an 18-digit SSCC of a
 * pallet, a long Charge) may break anywhere, or it pushes the table off a tablet upright.
 */
function Code({ text }: { text: string | null }) {
  if (text === null) return '–';
  return <span className={text.length > 12 ? undefined : 'journal-code'}>{text}</span>;
}

const columns: Column<JournalZeile>[] = [
  // Date and time may go on two lines on a tablet upright.
  { header: t.columns.zeit, cell: (r) => bookingTime(r.at) },
  // The document it was booked for (a receipt, a delivery note) under its kind: no eighth column.
  {
    header: `${t.columns.art} / ${t.columns.beleg}`,
    cell: (r) =>
      r.beleg === null ? (
        t.kinds[r.art]
      ) : (
        <>
          {t.kinds[r.art]}
          <br />
          <Code text={r.beleg} />
        </>
      ),
  },
  { header: t.columns.artikel, cell: (r) => `${r.artikel.nummer} ${r.artikel.name}` },
  // Where from and where to, one above the other, as Charge and MHD: seven columns fit a tablet upright.
  {
    header: t.columns.vonNach,
    cell: (r) => (
      <>
        <Code text={r.von} />
        <br />→ <Code text={r.nach} />
      </>
    ),
    kind: 'code',
  },
  { header: t.columns.menge, cell: (r) => germanNumber(r.menge), kind: 'number' },
  {
    header: t.columns.chargeMhd,
    cell: (r) => (
      <>
        <Code text={r.charge} />
        <br />
        {germanDate(r.mhd)}
      </>
    ),
    kind: 'code',
  },
  { header: t.columns.benutzer, cell: (r) => r.benutzer ?? '–' },
];

/** The filters in the address (so the Bestand page can link to an article's or a location's journal). */
function filtersOf(params: URLSearchParams): Filters {
  const filters: Filters = {};
  for (const key of FILTERS) {
    const value = params.get(key)?.trim();
    if (value) filters[key] = value;
  }
  return filters;
}

/**
 * The movement journal (issue 20.3): filtered by article, location, user, kind and days, newest first, 50
 * rows a page read on the server ('Weitere laden' asks for the rows after the last one shown), and the
 * filtered journal as a CSV file. Live: a booking anywhere reloads the pages shown.
 */
export default function JournalPage() {
  const [params, setParams] = useSearchParams();
  const filters = filtersOf(params);
  // A kind typed into the address by hand goes to the server as it is, which refuses it in German.
  const query = { ...filters, art: filters.art as MovementKindName | undefined };
  const pages = useInfiniteQuery({
    queryKey: keyOf(journal, { query }),
    queryFn: ({ pageParam, signal }) =>
      leitstandApi.call(journal, {
        query: { ...query, cursor: pageParam, limit: String(JOURNAL_PAGE) },
        signal,
      }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.weiter ?? undefined,
  });
  const rows = pages.data?.pages.flatMap((page) => page.zeilen) ?? [];

  const apply = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const next = new URLSearchParams();
    for (const key of FILTERS) {
      const value = form.get(key);
      if (typeof value === 'string' && value.trim()) next.set(key, value.trim());
    }
    setParams(next);
  };

  return (
    <>
      <h1>{t.journalTitle}</h1>
      <form
        className="journal-filters"
        aria-label={t.filter.heading}
        onSubmit={apply}
        key={params.toString()}
      >
        {TEXT_FILTERS.map((key) => (
          <div className="field" key={key}>
            <label htmlFor={`journal-${key}`}>{t.filter[key]}</label>
            <input
              id={`journal-${key}`}
              name={key}
              className="scan-input"
              defaultValue={filters[key] ?? ''}
              autoComplete="off"
            />
          </div>
        ))}
        <div className="field">
          <label htmlFor="journal-art">{t.filter.art}</label>
          <select id="journal-art" name="art" className="scan-input" defaultValue={filters.art ?? ''}>
            <option value="">{t.filter.allKinds}</option>
            {MOVEMENT_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {t.kinds[kind]}
              </option>
            ))}
          </select>
        </div>
        {(['von', 'bis'] as const).map((key) => (
          <div className="field" key={key}>
            <label htmlFor={`journal-${key}`}>{t.filter[key]}</label>
            <input
              id={`journal-${key}`}
              name={key}
              type="date"
              className="scan-input"
              defaultValue={filters[key] ?? ''}
            />
          </div>
        ))}
        <div className="journal-actions">
          <button type="submit" className="button">
            {t.filter.apply}
          </button>
          <button
            type="button"
            className="button button--secondary"
            onClick={() => setParams(new URLSearchParams())}
          >
            {t.filter.reset}
          </button>
          <CsvButton filters={filters} />
        </div>
      </form>

      {pages.isError ? (
        <QueryFailed error={pages.error} retry={() => void pages.refetch()} />
      ) : pages.data === undefined ? (
        <p className="hint">{texts.app.loading}</p>
      ) : (
        <>
          <div className="journal-table">
            <DataTable
              heading={t.journal.heading}
              empty={t.journal.empty}
              columns={columns}
              rows={rows}
              rowKey={(r) => String(r.id)}
            />
          </div>
          <div className="journal-more">
            <p role="status">{rows.length > 0 ? t.journal.shown(rows.length) : ''}</p>
            {pages.hasNextPage ? (
              <button
                type="button"
                className="button button--secondary"
                disabled={pages.isFetchingNextPage}
                onClick={() => void pages.fetchNextPage()}
              >
                {pages.isFetchingNextPage ? texts.app.loading : t.journal.more}
              </button>
            ) : (
              rows.length > 0 && <p className="hint">{t.journal.end}</p>
            )}
          </div>
        </>
      )}
    </>
  );
}

/** The filtered journal as a CSV file: every matching row, not only the pages shown. */
function CsvButton({ filters }: { filters: Filters }) {
  const [state, setState] = useState<{ busy: boolean; refusal: string | null }>({
    busy: false,
    refusal: null,
  });
  const download = async () => {
    setState({ busy: true, refusal: null });
    try {
      await downloadJournalCsv(filters);
      setState({ busy: false, refusal: null });
    } catch (error) {
      setState({ busy: false, refusal: messageOf(error) });
    }
  };
  return (
    <>
      <button
        type="button"
        className="button button--secondary"
        disabled={state.busy}
        onClick={() => void download()}
      >
        {state.busy ? texts.app.loading : t.journal.csv}
      </button>
      {state.refusal && <Refusal>{state.refusal}</Refusal>}
    </>
  );
}
