import {
  wareneingangLeitstandTexts as t,
  type WareneingangRow,
  wareneingangList,
} from '../../../contract/leitstand/wareneingang.ts';
import { dayAndTime } from '../../ui/format.ts';
import { useLeitstandQuery } from '../api.ts';
import { QueryState } from '../query-state.tsx';
import './wareneingang.css';

/** 30.06.2027 from 2027-06-30. */
function day(iso: string | null): string {
  if (!iso) return '';
  const [year, month, date] = iso.split('-');
  return `${date}.${month}.${year}`;
}

/**
 * Wareneingang (issue 22): the open receipts with what has arrived so far, then those closed in the last 30
 * days with their short and over deliveries, line by line. Live: a booking on a handheld shows here by itself.
 */
export default function WareneingangPage() {
  const query = useLeitstandQuery(wareneingangList);
  return (
    <>
      <h1>{t.title}</h1>
      <QueryState query={query}>
        {({ data }) => (
          <>
            <section aria-label={t.open}>
              <h2>{t.open}</h2>
              {data.offen.length === 0 ? (
                <p className="hint">{t.noneOpen}</p>
              ) : (
                <ReceiptTable receipts={data.offen} closed={false} />
              )}
            </section>
            <section aria-label={t.closed(data.tage)}>
              <h2>{t.closed(data.tage)}</h2>
              {data.abgeschlossen.length === 0 ? (
                <p className="hint">{t.noneClosed}</p>
              ) : (
                <ReceiptTable receipts={data.abgeschlossen} closed />
              )}
            </section>
          </>
        )}
      </QueryState>
    </>
  );
}

function ReceiptTable({ receipts, closed }: { receipts: WareneingangRow[]; closed: boolean }) {
  return (
    <table className="table wareneingang-table">
      <thead>
        <tr>
          <th>{t.receipt}</th>
          <th>{t.linesHeading}</th>
          <th>{t.difference}</th>
          <th className="number">{closed ? t.closedAt : t.createdAt}</th>
        </tr>
      </thead>
      <tbody>
        {receipts.map((r) => (
          <tr key={r.nummer}>
            <td className="code">
              <strong>{r.nummer}</strong>
              {r.lieferant && (
                <>
                  <br />
                  <span className="sub">{r.lieferant}</span>
                </>
              )}
            </td>
            <td>
              <Lines receipt={r} />
            </td>
            <td
              className={r.fehlmenge > 0 ? 'wareneingang-short' : r.mehrmenge > 0 ? 'wareneingang-over' : ''}
            >
              {t.summary(r.fehlmenge, r.mehrmenge)}
            </td>
            <td className="number">
              {closed ? dayAndTime(r.abgeschlossenAm) : dayAndTime(r.angelegtAm)}
              {closed && r.abgeschlossenVon && (
                <>
                  <br />
                  <span className="sub">
                    {t.closedBy} {r.abgeschlossenVon}
                  </span>
                </>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A receipt's lines, folded: the count, and a click shows each with expected, received and the difference. */
function Lines({ receipt }: { receipt: WareneingangRow }) {
  return (
    <details className="leitstand-fold">
      <summary>{`${t.lines(receipt.positionen.length)} · ${receipt.nummer}`}</summary>
      <table className="table">
        <thead>
          <tr>
            <th>{t.article}</th>
            <th className="number">{t.expected}</th>
            <th className="number">{t.received}</th>
            <th>{t.difference}</th>
          </tr>
        </thead>
        <tbody>
          {receipt.positionen.map((l) => (
            <tr key={`${l.nummer}|${l.charge ?? ''}|${l.mhd ?? ''}`}>
              <td className="code">
                {l.nummer} {l.name}
                {l.charge && (
                  <>
                    <br />
                    <span className="sub">
                      {t.charge} {l.charge}
                      {l.mhd && ` · ${t.mhd} ${day(l.mhd)}`}
                    </span>
                  </>
                )}
              </td>
              <td className="number">{l.erwartet}</td>
              <td className="number">{l.erhalten}</td>
              <td
                className={
                  l.differenz < 0 ? 'wareneingang-short' : l.differenz > 0 ? 'wareneingang-over' : ''
                }
              >
                {t.differenceText(l.differenz)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}
