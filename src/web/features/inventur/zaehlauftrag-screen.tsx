import { useEffect, useRef, useState } from 'react';
import { coreTexts } from '../../../contract/texts-core.ts';
import {
  type Zaehlauftrag,
  zaehlauftragTexts as z,
  zaehlauftragAbbrechen,
  zaehlauftragAktuell,
  zaehlauftragFertig,
  zaehlauftragLeer,
  zaehlauftragNaechster,
  zaehlauftragPlatz,
  zaehlauftragZaehlung,
} from '../../../contract/zaehlauftrag.ts';
import { api } from '../../api/api.ts';
import { type FoundArticle, lookUpArticle } from '../../api/article-lookups.ts';
import { ApiError } from '../../api/client.ts';
import { messageOf } from '../../api/message.ts';
import { holdKeysUntil } from '../../scan/router.ts';
import { useScanTarget } from '../../scan/use-scan-target.ts';
import { afterNextPaint } from '../../ui/after-paint.ts';
import { LabelledAmountField, parseAmount } from '../../ui/amount-field.tsx';
import { useBanner } from '../../ui/banner.tsx';
import { BookingConfirm, useBooking } from '../../ui/booking.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { calendarDate } from '../../ui/format.ts';
import { LookupField, useLookup } from '../../ui/lookup-field.tsx';
import { ScanField } from '../../ui/scan-field.tsx';
import './zaehlauftrag.css';

/** What the screen shows above 'Nächster Zählauftrag' when no task is in work: how the last one ended. */
type Ended = { text: string; ergebnis: 'gebucht' | 'anders' | 'keiner' };

/**
 * Zählauftrag (issue 42, decision 34): the permanent inventory's count tasks, one location each. 'Nächster
 * Zählauftrag' claims the next one; the worker goes to the location the screen names, scans it (another one
 * is refused at once), then every article found there with the amount typed — a **blind count**: the screen
 * never knows, let alone shows, what the books expect, only what this worker counted. 'Fertig' ends it ('Platz
 * leer' when nothing is there), and the server's sentence says what became of the count (posted, recounted by
 * someone else, waiting for the shift lead, or stale because something was booked there meanwhile).
 * 'Abbrechen' gives the task back. A reload resumes the task in work ('aktuell').
 *
 * Scan targets per state: loading or no task → none ('Nächster Zählauftrag' is tapped); a task → the location
 * field; at the location → the article field, then the amount; a question open → none. Every call's answer
 * holds the scans that come meanwhile for the state it leads to, and the success view never takes the target.
 */
export function ZaehlauftragScreen() {
  const banner = useBanner();
  const [task, setTask] = useState<Zaehlauftrag | null>(null);
  const [loading, setLoading] = useState(true);
  const [ended, setEnded] = useState<Ended | null>(null);
  const [locationText, setLocationText] = useState('');
  const article = useLookup<FoundArticle>();
  const [amount, setAmount] = useState('');
  const amountRef = useRef<HTMLInputElement>(null);
  /** 'Fertig' with nothing counted: 'Platz leer?' is asked in the page. */
  const [askEmpty, setAskEmpty] = useState(false);

  // The task in work after a reload (or another tab's claim of this login): its count goes on where it was.
  useEffect(() => {
    const loaded = api.call(zaehlauftragAktuell, { on401: 'scan' }).then(
      ({ data }) => setTask(data),
      (error: unknown) => banner.showError(messageOf(error)),
    );
    holdKeysUntil(
      loaded.finally(() => setLoading(false)),
      afterNextPaint,
    );
  }, [banner]);

  /** A refusal that says the task is no longer this worker's (done, given back, taken over): asked anew. */
  const resync = (error: unknown) => {
    if (!(error instanceof ApiError) || (error.status !== 404 && error.status !== 409)) return;
    api.call(zaehlauftragAktuell, { on401: 'scan' }).then(
      ({ data }) => {
        if (data?.id !== task?.id) forget();
        if (data) setTask(data);
      },
      () => {}, // the refusal is in the banner already; the screen stays as it is
    );
  };
  const next = { onBooked: ({ data }: { data: Zaehlauftrag }) => setTask(data), onRefused: resync };

  const claiming = useBooking(zaehlauftragNaechster, {
    onBooked: ({ data }) => {
      forget();
      setTask(data);
      if (!data) setEnded({ text: z.noTask, ergebnis: 'keiner' });
    },
  });
  const atLocation = useBooking(zaehlauftragPlatz, { params: () => ({ id: task?.id ?? 0 }), ...next });
  const counting = useBooking(zaehlauftragZaehlung, {
    done: z.counted,
    params: () => ({ id: task?.id ?? 0 }),
    onBooked: ({ data }) => {
      article.clear();
      setAmount('');
      setTask(data);
    },
    onRefused: resync,
  });
  const endWith = (answer: { data: { ergebnis: string; meldung: string } }) => {
    forget();
    setEnded({
      text: answer.data.meldung,
      ergebnis: answer.data.ergebnis === 'gebucht' ? 'gebucht' : 'anders',
    });
  };
  const emptying = useBooking(zaehlauftragLeer, {
    params: () => ({ id: task?.id ?? 0 }),
    onBooked: endWith,
    onRefused: resync,
  });
  const finishing = useBooking(zaehlauftragFertig, {
    params: () => ({ id: task?.id ?? 0 }),
    onBooked: endWith,
    onRefused: resync,
  });
  const abandoning = useBooking(zaehlauftragAbbrechen, {
    params: () => ({ id: task?.id ?? 0 }),
    onBooked: () => {
      forget();
      setEnded({ text: z.abandoned, ergebnis: 'anders' });
    },
    onRefused: resync,
  });

  /** The task is over for this screen: nothing of it stays (its count, a question about it). */
  function forget() {
    setTask(null);
    setEnded(null);
    setLocationText('');
    article.clear();
    setAmount('');
    setAskEmpty(false);
  }

  const step = loading
    ? 'loading'
    : !task
      ? 'start'
      : !task.platzGescannt
        ? 'location'
        : article.value
          ? 'amount'
          : 'article';
  const asking = askEmpty || abandoning.asking !== null;
  useScanTarget(step === 'start' && !asking ? { kind: 'none', expects: z.expectsNext } : null);

  function scanLocation(text: string) {
    setLocationText('');
    if (!task) return;
    if (text !== task.lagerplatz.code) {
      banner.showError(z.wrongLocation(task.lagerplatz.code));
      return;
    }
    return atLocation.book({ lagerplatz: text });
  }

  function count() {
    if (counting.busy || !article.value) return;
    const menge = parseAmount(amount, zaehlauftragZaehlung.body.shape.menge);
    if (menge === null) {
      banner.showError(z.amountInvalid);
      amountRef.current?.focus();
      return;
    }
    void counting.book({ artikelId: article.value.id, menge });
  }

  const flash = (
    <>
      {claiming.flash}
      {counting.flash}
    </>
  );

  if (step === 'loading') return <p className="hint">{coreTexts.app.loading}</p>;

  if (!task) {
    return (
      <div className="stack">
        {flash}
        <h2 className="count-title">{z.heading}</h2>
        {ended && (
          <p className={`count-ended count-ended--${ended.ergebnis}`} role="status">
            {ended.text}
          </p>
        )}
        <button
          type="button"
          className="button"
          disabled={claiming.busy}
          onClick={() => void claiming.book({})}
        >
          {z.next}
        </button>
      </div>
    );
  }

  const counted = task.positionen;
  return (
    <div className="stack">
      {flash}
      <div className="note-bar">
        <strong>{z.heading}</strong>
        <button
          type="button"
          className="button button--secondary button--inline"
          onClick={() => abandoning.ask({})}
        >
          {z.abandon}
        </button>
      </div>
      <section className="count-stop" aria-label={z.goTo}>
        <span className="count-goto">
          {z.goTo} {task.platzGescannt && <span className="count-here">✓</span>}
        </span>
        <span className="count-location">{task.lagerplatz.code}</span>
        <span className="hint">
          {z.reason[task.grund]} · {z.due(calendarDate(task.faellig))}
        </span>
      </section>
      {step === 'location' && (
        <ScanField
          current={!asking}
          label={z.location}
          field={zaehlauftragPlatz.body.shape.lagerplatz}
          value={locationText}
          onChange={setLocationText}
          onScan={scanLocation}
        />
      )}
      {task.platzGescannt && (
        <>
          <LookupField
            lookup={article}
            label={z.article}
            show={(a) => `${a.nummer} ${a.name}`}
            onScan={async (code: string) => article.take(await lookUpArticle(code))}
            current={step === 'article' && !asking}
          />
          {article.value && (
            <form
              className="stack"
              onSubmit={(e) => {
                e.preventDefault();
                count();
              }}
            >
              <LabelledAmountField
                ref={amountRef}
                id="zaehlauftrag-amount"
                label={z.amount}
                value={amount}
                onChange={setAmount}
                current={step === 'amount' && !asking}
              />
              <button type="submit" className="button" disabled={counting.busy}>
                {z.count}
              </button>
            </form>
          )}
          <section aria-label={z.countedHeading}>
            <h2 className="count-heading">{z.countedHeading}</h2>
            {counted.length === 0 ? (
              <p className="hint">{z.nothingCounted}</p>
            ) : (
              <ul className="count-lines">
                {counted.map((line) => (
                  <li key={line.artikelId}>
                    <span className="code">{z.countedEntry(line.gezaehlt, line.nummer)}</span>{' '}
                    <span className="hint">{line.name}</span>
                  </li>
                ))}
              </ul>
            )}
          </section>
          <div className="count-actions">
            {counted.length === 0 && (
              <button
                type="button"
                className="button button--secondary"
                disabled={emptying.busy}
                onClick={() => void emptying.book({})}
              >
                {z.empty}
              </button>
            )}
            <button
              type="button"
              className="button"
              disabled={finishing.busy}
              onClick={() => (counted.length === 0 ? setAskEmpty(true) : void finishing.book({}))}
            >
              {z.finish}
            </button>
          </div>
        </>
      )}
      {askEmpty && (
        <ConfirmDialog
          title={z.emptyTitle}
          confirmLabel={z.empty}
          cancelLabel={z.emptyKeep}
          onConfirm={() => {
            setAskEmpty(false);
            void emptying.book({});
          }}
          onCancel={() => setAskEmpty(false)}
        >
          {z.emptyBody(task.lagerplatz.code)}
        </ConfirmDialog>
      )}
      <BookingConfirm
        booking={abandoning}
        title={z.abandonTitle(task.lagerplatz.code)}
        confirmLabel={z.abandon}
        cancelLabel={z.abandonKeep}
      >
        {() => z.abandonBody}
      </BookingConfirm>
    </div>
  );
}
