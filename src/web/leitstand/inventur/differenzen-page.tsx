import { useState } from 'react';
import {
  type DifferenzRow,
  differenzBuchen,
  differenzen,
  differenzNachzaehlen,
  STALE_DAYS,
  inventurLeitstandTexts as t,
} from '../../../contract/leitstand/inventur.ts';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { dayAndTime, germanNumber } from '../../ui/format.ts';
import { useLeitstandMutation, useLeitstandQuery } from '../api.ts';
import { Outcome, useOutcome } from '../outcome.tsx';
import { QueryState } from '../query-state.tsx';
import { CounterChoice } from './counter-choice.tsx';
import './inventur.css';

/** A difference with its sign: +3, −2, 0. */
const signed = (n: number) => (n > 0 ? `+${germanNumber(n)}` : n < 0 ? `−${germanNumber(-n)}` : '0');
const percent = (p: number | null) =>
  p === null ? '–' : `${p > 0 ? '+' : p < 0 ? '−' : ''}${Math.abs(p).toLocaleString('de-DE')} %`;

type Decision = { kind: 'book' | 'recount'; row: DifferenzRow };

/**
 * Differenzen (issue 42): the recounts above tolerance waiting for a shift lead — per article counted, book
 * stock, difference in pieces and percent and the earlier counts — each posted ('Buchen') or counted once
 * more by somebody else ('Nachzählen'), both after a question; and the stale counts (a booking on the
 * location during the count) with their recount. Live: a count finished on a handheld shows by itself.
 */
export default function DifferenzenPage() {
  const query = useLeitstandQuery(differenzen);
  const outcome = useOutcome();
  const [deciding, setDeciding] = useState<Decision | null>(null);
  const [recounter, setRecounter] = useState('');
  const book = useLeitstandMutation(differenzBuchen);
  const recount = useLeitstandMutation(differenzNachzaehlen);
  const users = query.data?.data.zaehler ?? [];
  return (
    <>
      <h1>{t.differencesTitle}</h1>
      <p className="hint">{t.differencesHint}</p>
      <Outcome {...outcome} />
      <QueryState query={query}>
        {({ data }) => (
          <>
            {data.differenzen.length === 0 ? (
              <p className="hint">{t.noDifferences}</p>
            ) : (
              <div className="leitstand-records">
                {data.differenzen.map((d) => (
                  <Difference
                    key={d.id}
                    row={d}
                    busy={book.isPending || recount.isPending}
                    onDecide={(kind) => {
                      setRecounter('');
                      setDeciding({ kind, row: d });
                    }}
                  />
                ))}
              </div>
            )}
            <section aria-label={t.staleTitle}>
              <h2>{t.staleTitle}</h2>
              <p className="hint">{t.staleHint}</p>
              {data.veraltet.length === 0 && <p className="hint">{t.noStale(STALE_DAYS)}</p>}
              {data.veraltet.length > 0 && (
                <table className="table inventur-table" aria-label={t.staleTitle}>
                  <thead>
                    <tr>
                      <th>{t.lagerplatz}</th>
                      <th>{t.gezaehltVon}</th>
                      <th>{t.recount}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.veraltet.map((v) => (
                      <tr key={v.id}>
                        <td className="code">{v.lagerplatz}</td>
                        <td>
                          {v.gezaehltVon ?? ''} <span className="hint">{dayAndTime(v.gezaehltAm)}</span>
                        </td>
                        <td>
                          {v.nachzaehlung === null
                            ? t.noRecount
                            : t.recountState(t.statuses[v.nachzaehlung.status])}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
            </section>
          </>
        )}
      </QueryState>
      {deciding?.kind === 'book' && (
        <ConfirmDialog
          title={t.bookTitle(deciding.row.lagerplatz)}
          confirmLabel={t.book}
          cancelLabel={t.cancel}
          onConfirm={() => {
            const id = deciding.row.id;
            setDeciding(null);
            outcome.send(book, { params: { id }, body: {} });
          }}
          onCancel={() => setDeciding(null)}
        >
          {t.bookBody}
        </ConfirmDialog>
      )}
      {deciding?.kind === 'recount' && (
        <ConfirmDialog
          title={t.recountTitle(deciding.row.lagerplatz)}
          confirmLabel={t.recount}
          cancelLabel={t.cancel}
          onConfirm={() => {
            const id = deciding.row.id;
            setDeciding(null);
            outcome.send(recount, {
              params: { id },
              body: { benutzerId: recounter === '' ? null : Number(recounter) },
            });
          }}
          onCancel={() => setDeciding(null)}
        >
          <p>{t.recountBody}</p>
          <CounterChoice
            caption={t.zuweisen}
            className="leitstand-fields"
            label={t.zuweisen}
            users={users.filter((u) => !deciding.row.gezaehltVonIds.includes(u.id))}
            value={recounter}
            onChange={setRecounter}
          />
        </ConfirmDialog>
      )}
    </>
  );
}

function Difference({
  row,
  busy,
  onDecide,
}: {
  row: DifferenzRow;
  busy: boolean;
  onDecide: (kind: 'book' | 'recount') => void;
}) {
  return (
    <section className="leitstand-record" aria-label={row.lagerplatz}>
      <h2>{row.lagerplatz}</h2>
      <p className="hint">
        {t.counted(row.gezaehltVon ?? '', dayAndTime(row.gezaehltAm))}
        {row.frueher.length > 0 &&
          ` · ${t.fruehere}: ${row.frueher.map((c) => `${c.gezaehltVon ?? ''} (${dayAndTime(c.gezaehltAm)})`).join(', ')}`}
      </p>
      {row.artikel.length === 0 ? (
        <p>{t.platzLeer}</p>
      ) : (
        <table className="table inventur-table" aria-label={`${t.differenz} ${row.lagerplatz}`}>
          <thead>
            <tr>
              <th>{t.artikel}</th>
              <th className="number">{t.gezaehlt}</th>
              <th className="number">{t.buchbestand}</th>
              <th className="number">{t.differenz}</th>
              <th className="number">%</th>
              <th>{t.fruehere}</th>
            </tr>
          </thead>
          <tbody>
            {row.artikel.map((a) => (
              <tr key={a.artikelId}>
                <td>
                  {a.nummer} <span className="hint">{a.name}</span>
                </td>
                <td className="number">{germanNumber(a.gezaehlt)}</td>
                <td className="number">{germanNumber(a.buchbestand)}</td>
                <td className={a.differenz === 0 ? 'number' : 'number inventur-over'}>
                  {signed(a.differenz)}
                </td>
                <td className="number">{percent(a.prozent)}</td>
                <td>
                  {a.frueher
                    .map((amount, i) => t.earlier(row.frueher[i]?.gezaehltVon ?? '', amount ?? 0))
                    .join(', ')}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <div className="leitstand-actions">
        <button
          type="button"
          className="button button--inline"
          aria-label={t.bookLabel(row.lagerplatz)}
          disabled={busy}
          onClick={() => onDecide('book')}
        >
          {t.book}
        </button>
        <button
          type="button"
          className="button button--inline button--secondary"
          aria-label={t.recountLabel(row.lagerplatz)}
          disabled={busy}
          onClick={() => onDecide('recount')}
        >
          {t.recount}
        </button>
      </div>
    </section>
  );
}
