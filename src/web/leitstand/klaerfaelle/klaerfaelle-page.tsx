import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import {
  type KlaerfallRow,
  klaerfaelleList,
  klaerfaelleTexts,
  klaerfallErledigt,
  klaerfallZurueck,
} from '../../../contract/leitstand/klaerfaelle.ts';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { type Column, DataTable } from '../../ui/data-table.tsx';
import { dayAndTime } from '../../ui/format.ts';
import { keyOf, useLeitstandMutation, useLeitstandQuery } from '../api.ts';
import { Refusal } from '../outcome.tsx';
import { QueryState } from '../query-state.tsx';
import './klaerfaelle.css';

const t = klaerfaelleTexts;

/** What was missing when it was reported, short: "100005 (2), 100007 (1)"; a line wraps only between articles. */
function missing(row: KlaerfallRow): string {
  const short = row.positionen.filter((l) => l.fehlt > 0).map((l) => `${l.nummer}\u00a0(${l.fehlt})`);
  return short.length > 0 ? short.join(', ') : '–';
}

/** Who reported it when, and whether a picker's Fehlmenge raised it. */
function reported(k: KlaerfallRow): string {
  const by = t.reportedBy(k.gemeldetVon, dayAndTime(k.gemeldetAm));
  return k.quelle === 'kommissionierung' ? `${by} · ${t.fromPicking}` : by;
}

const closedColumns: Column<KlaerfallRow>[] = [
  { header: t.belegnr, cell: (k) => k.belegnr, kind: 'code' },
  { header: t.reported, cell: reported },
  { header: t.missing, cell: missing },
  { header: t.outcome, cell: (k) => (k.abschluss ? t.outcomes[k.abschluss.art] : '') },
  {
    header: t.closedAt,
    cell: (k) => (k.abschluss ? t.closedBy(k.abschluss.von, dayAndTime(k.abschluss.am)) : ''),
  },
  { header: t.comment, cell: (k) => k.abschluss?.kommentar ?? '' },
];

/**
 * Klärfälle (issue 20.2, decision 20): the notes packers reported at the packing station, oldest first, each
 * with its lines short and the two ways to close it — 'Erledigt' with a comment (the note is not packed) and
 * 'Zurück ins Packen' after a question (counters to 0, packable again). Closed ones of the last days below.
 * Live: a report on any handheld appears by itself (the shell's stream reloads the list).
 */
export default function KlaerfaellePage() {
  const query = useLeitstandQuery(klaerfaelleList);
  const [done, setDone] = useState('');
  return (
    <>
      <h1>{t.heading}</h1>
      <p className="klaerfall-done" aria-live="polite">
        {done}
      </p>
      <QueryState query={query}>
        {({ data }) => (
          <>
            <section aria-labelledby="klaerfaelle-open">
              <h2 id="klaerfaelle-open">{t.open}</h2>
              {data.offen.length === 0 ? (
                <p className="hint">{t.noneOpen}</p>
              ) : (
                <div className="leitstand-cards">
                  {data.offen.map((k) => (
                    <OpenKlaerfall key={k.id} klaerfall={k} onDone={setDone} />
                  ))}
                </div>
              )}
            </section>
            <DataTable
              heading={t.closed(data.tage)}
              empty={t.noneClosed}
              columns={closedColumns}
              rows={data.abgeschlossen}
              rowKey={(k) => String(k.id)}
            />
          </>
        )}
      </QueryState>
    </>
  );
}

/** One open Klärfall: who reported it when, its lines, and the two ways to close it. */
function OpenKlaerfall({
  klaerfall: k,
  onDone,
}: {
  klaerfall: KlaerfallRow;
  onDone: (text: string) => void;
}) {
  const id = useId();
  const queryClient = useQueryClient();
  const [step, setStep] = useState<'actions' | 'comment' | 'confirm'>('actions');
  const [kommentar, setKommentar] = useState('');
  // The list is reloaded at once, not only when the live stream announces the write.
  const reload = () => void queryClient.invalidateQueries({ queryKey: keyOf(klaerfaelleList) });
  const erledigt = useLeitstandMutation(klaerfallErledigt, {
    onSuccess: () => {
      onDone(t.doneErledigt(k.belegnr));
      reload();
    },
  });
  const zurueck = useLeitstandMutation(klaerfallZurueck, {
    onSuccess: () => {
      onDone(t.doneZurueck(k.belegnr));
      reload();
    },
  });
  const params = { klaerfallId: String(k.id) };
  /** A picker's Fehlmenge names where it was missing (issue 36): one more column. */
  const picked = k.positionen.some((line) => line.lagerplatz);
  const refusal = erledigt.error ?? zurueck.error;
  const busy = erledigt.isPending || zurueck.isPending;

  return (
    <article className="klaerfall" aria-labelledby={`${id}-note`}>
      <h3 id={`${id}-note`}>{k.belegnr}</h3>
      <p className="klaerfall-reported">
        {t.reported}: {reported(k)}
      </p>
      <table className="table" aria-label={`${t.lines} ${k.belegnr}`}>
        <thead>
          <tr>
            <th>{t.nummer}</th>
            <th>{t.name}</th>
            <th className="number">{t.lsmenge}</th>
            <th className="number">{t.pemenge}</th>
            <th className="number">{t.missing}</th>
            {picked && <th>{t.location}</th>}
          </tr>
        </thead>
        <tbody>
          {k.positionen.map((line, index) => (
            // A note may name an article twice; the position is the key.
            // biome-ignore lint/suspicious/noArrayIndexKey: the lines never move within a Klärfall
            <tr key={index} className={line.fehlt > 0 ? 'klaerfall-missing' : undefined}>
              <td className="code">{line.nummer}</td>
              <td>{line.name}</td>
              <td className="number">{line.lsmenge}</td>
              <td className="number">{line.pemenge}</td>
              <td className="number">{line.fehlt}</td>
              {picked && (
                <td>
                  {line.lagerplatz && (
                    <>
                      <span className="code">
                        {t.locationStock(line.lagerplatz.code, line.lagerplatz.bestand)}
                      </span>
                      {line.lagerplatz.zaehlen && <div className="klaerfall-count">{t.countMarked}</div>}
                    </>
                  )}
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
      {refusal && <Refusal>{refusal.message}</Refusal>}
      {step === 'comment' ? (
        <form
          className="klaerfall-comment"
          onSubmit={(event) => {
            event.preventDefault();
            erledigt.mutate({ params, body: { kommentar } });
          }}
        >
          <label htmlFor={`${id}-comment`}>{t.comment}</label>
          <p className="hint" id={`${id}-comment-hint`}>
            {t.erledigtBody}
          </p>
          <textarea
            id={`${id}-comment`}
            aria-describedby={`${id}-comment-hint`}
            value={kommentar}
            onChange={(event) => setKommentar(event.target.value)}
            maxLength={1000}
            rows={3}
            // biome-ignore lint/a11y/noAutofocus: the lead just asked to write the comment
            autoFocus
          />
          <div className="inline">
            <button
              type="button"
              className="button button--secondary"
              onClick={() => {
                erledigt.reset();
                setStep('actions');
              }}
            >
              {t.cancel}
            </button>
            <button type="submit" className="button" disabled={busy}>
              {t.erledigtConfirm}
            </button>
          </div>
        </form>
      ) : (
        <div className="inline">
          <button type="button" className="button" disabled={busy} onClick={() => setStep('comment')}>
            {t.erledigt}
          </button>
          <button
            type="button"
            className="button button--secondary"
            disabled={busy}
            onClick={() => setStep('confirm')}
          >
            {t.zurueck}
          </button>
        </div>
      )}
      {step === 'confirm' && (
        <ConfirmDialog
          title={t.zurueckTitle(k.belegnr)}
          confirmLabel={t.zurueckConfirm}
          cancelLabel={t.cancel}
          onConfirm={() => {
            setStep('actions');
            zurueck.mutate({ params, body: {} });
          }}
          onCancel={() => setStep('actions')}
        >
          {t.zurueckBody}
        </ConfirmDialog>
      )}
    </article>
  );
}
