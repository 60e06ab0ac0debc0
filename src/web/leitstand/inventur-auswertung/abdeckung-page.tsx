import { useState } from 'react';
import {
  type AbdeckungZahlen,
  abdeckung,
  inventurlisteCsv,
  inventurlistePdf,
  rangeRefusal,
  inventurAuswertungTexts as t,
} from '../../../contract/leitstand/inventur-auswertung.ts';
import { buildPath } from '../../../contract/path.ts';
import { readSession } from '../../api/session.ts';
import { useLeitstandQuery } from '../api.ts';
import { saveDownload } from '../download.ts';
import { Outcome, useOutcome } from '../outcome.tsx';
import { QueryState } from '../query-state.tsx';
import './inventur-auswertung.css';

/** Today in the desk's time zone, as the date fields take it. */
const today = () => new Intl.DateTimeFormat('sv-SE').format(new Date());

/**
 * Abdeckung (issue 42): which share of the locations and stock positions was counted in a year, and how many
 * counts matched the book stock — overall and per aisle; and the Inventurliste of a date range for the
 * auditor, as CSV or PDF.
 */
export default function AbdeckungPage() {
  const [jahr, setJahr] = useState(() => today().slice(0, 4));
  const query = useLeitstandQuery(abdeckung, { query: { jahr } });
  const outcome = useOutcome();
  return (
    <>
      <h1>{t.coverageTitle}</h1>
      <Outcome {...outcome} />
      <p className="hint auswertung-rule">{t.coverageIntro}</p>
      <form className="auswertung-form" onSubmit={(e) => e.preventDefault()}>
        <label>
          {t.jahr}
          <input
            type="number"
            inputMode="numeric"
            min={2000}
            max={2999}
            value={jahr}
            onChange={(e) => /^[0-9]{4}$/.test(e.target.value) && setJahr(e.target.value)}
          />
        </label>
      </form>
      <QueryState query={query}>
        {({ data }) => (
          <>
            <div className="auswertung-scroll">
              <table className="table">
                <thead>
                  <tr>
                    <th>{t.gang}</th>
                    <th className="number">{t.lagerplaetze}</th>
                    <th className="number">{t.gezaehlt}</th>
                    <th className="number" title={t.bestandspositionenHint}>
                      {t.bestandspositionen}
                    </th>
                    <th className="number">{t.gezaehlt}</th>
                    <th className="number" title={t.zaehlpositionenHint}>
                      {t.zaehlpositionen}
                    </th>
                    <th className="number">{t.ohneDifferenz}</th>
                  </tr>
                </thead>
                <tbody>
                  <CoverageLine name={t.gesamt} figures={data.gesamt} strong />
                  {data.gaenge.map((g) => (
                    <CoverageLine key={g.gang} name={g.gang} figures={g} />
                  ))}
                </tbody>
              </table>
            </div>
            <p className="hint">
              {t.artikelMitBestand}: {data.gesamt.artikel.toLocaleString('de-DE')}, {t.gezaehlt}{' '}
              {data.gesamt.artikelGezaehlt.toLocaleString('de-DE')} (
              {t.percent(data.gesamt.artikelGezaehlt, data.gesamt.artikel)})
            </p>
          </>
        )}
      </QueryState>
      <AuditList outcome={outcome} />
    </>
  );
}

/** A figure with its share: '1.234 (61,7 %)'. */
const share = (part: number, whole: number) => `${part.toLocaleString('de-DE')} (${t.percent(part, whole)})`;

function CoverageLine({
  name,
  figures: f,
  strong,
}: {
  name: string;
  figures: AbdeckungZahlen;
  strong?: boolean;
}) {
  const Cell = strong ? 'th' : 'td';
  return (
    <tr>
      <th scope="row">{name}</th>
      <Cell className="number">{f.lagerplaetze.toLocaleString('de-DE')}</Cell>
      <Cell className="number">{share(f.lagerplaetzeGezaehlt, f.lagerplaetze)}</Cell>
      <Cell className="number">{f.bestandspositionen.toLocaleString('de-DE')}</Cell>
      <Cell className="number">{share(f.bestandspositionenGezaehlt, f.bestandspositionen)}</Cell>
      <Cell className="number">{f.zaehlpositionen.toLocaleString('de-DE')}</Cell>
      <Cell className="number">{share(f.zaehlpositionenOhneDifferenz, f.zaehlpositionen)}</Cell>
    </tr>
  );
}

/**
 * The Inventurliste as a download: fetched with the login's token (never in the address) and handed to the
 * browser; a refusal shows the server's German message.
 */
function AuditList({ outcome }: { outcome: ReturnType<typeof useOutcome> }) {
  const [von, setVon] = useState(() => `${today().slice(0, 4)}-01-01`);
  const [bis, setBis] = useState(today);
  const [busy, setBusy] = useState(false);
  const download = async (format: 'csv' | 'pdf') => {
    outcome.done(null);
    const refusal = rangeRefusal(von, bis);
    if (refusal) return outcome.failed(new Error(refusal));
    const endpoint = format === 'csv' ? inventurlisteCsv : inventurlistePdf;
    const base = (import.meta.env.VITE_API_BASE as string | undefined) ?? '';
    const search = new URLSearchParams({ von, bis }).toString();
    setBusy(true);
    try {
      const name = await saveDownload(
        fetch(`${base}${buildPath(endpoint.path, {})}?${search}`, {
          headers: { authorization: `Bearer ${readSession()?.token ?? ''}` },
        }),
        format === 'csv' ? t.csvFile : t.pdfFile,
      );
      outcome.done(t.downloaded(name));
    } catch (error) {
      outcome.failed(error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section aria-label={t.listTitle}>
      <h2>{t.listTitle}</h2>
      <p className="hint auswertung-rule">{t.listIntro}</p>
      <form className="auswertung-form" noValidate onSubmit={(e) => e.preventDefault()}>
        <label>
          {t.von}
          <input type="date" value={von} onChange={(e) => setVon(e.target.value)} />
        </label>
        <label>
          {t.bis}
          <input type="date" value={bis} onChange={(e) => setBis(e.target.value)} />
        </label>
        <button
          type="button"
          className="button button--inline"
          disabled={busy}
          onClick={() => void download('csv')}
        >
          {t.csv}
        </button>
        <button
          type="button"
          className="button button--inline"
          disabled={busy}
          onClick={() => void download('pdf')}
        >
          {t.pdf}
        </button>
      </form>
    </section>
  );
}
