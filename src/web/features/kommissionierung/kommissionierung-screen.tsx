import { useState } from 'react';
import { eanVariants } from '../../../contract/ean.ts';
import {
  type Auftrag,
  type PickLine,
  pickClaim,
  pickNext,
  pickRelease,
  pickShortage,
  pickTake,
  kommissionierungTexts as t,
} from '../../../contract/kommissionierung.ts';
import { type CartSummary, cartStart, type Fahrt } from '../../../contract/kommissionierwagen.ts';
import { CONFIRM_WHOLE_LINE_ABOVE } from '../../../contract/limits.ts';
import { api } from '../../api/api.ts';
import { articleCode } from '../../api/article-lookups.ts';
import { ApiError } from '../../api/client.ts';
import { messageOf } from '../../api/message.ts';
import { useScanTarget } from '../../scan/use-scan-target.ts';
import { useBanner } from '../../ui/banner.tsx';
import { BookingConfirm, useBooking } from '../../ui/booking.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { ScanField } from '../../ui/scan-field.tsx';
import { useCartCodes } from './cart-codes.ts';
import { CartSummaryView } from './cart-parts.tsx';
import { CartTrip, type TripEnd } from './cart-trip.tsx';
import { ShortageDialog } from './shortage-dialog.tsx';
import { NoStockStop, StopScanField } from './stop-parts.tsx';
import './kommissionierung.css';

/**
 * Kommissionierung (issue 22, decision 25): scan a delivery note (or take the next one), then walk its
 * locations in order — scan the location, scan the article, one piece per scan or, above five, the whole
 * amount after a question — and report what is not there as a Fehlmenge. Every answer brings the note anew,
 * so the next stop is always the server's.
 *
 * The note field also takes a pick cart's code (issue 41): the screen knows the site's carts (`cartList`,
 * fetched each time it comes back to the note field) and starts or resumes a trip with that cart instead
 * (cart-trip.tsx); everything else is claimed as a note, as before.
 *
 * Scan targets per state: no note → the note field; a stop → its location field, then its article field; a
 * stop without stock → none (report the Fehlmenge); a question open → none; the Fehlmenge question → its amount.
 * The success flash never takes the target: a scan during it goes to the next step.
 */
export default function KommissionierungScreen() {
  const banner = useBanner();
  const [auftrag, setAuftrag] = useState<Auftrag | null>(null);
  /** The location of the current stop, once scanned. */
  const [atLocation, setAtLocation] = useState<number | null>(null);
  const [noteText, setNoteText] = useState('');
  const [locationText, setLocationText] = useState('');
  const [articleText, setArticleText] = useState('');
  const [shortage, setShortage] = useState<PickLine | null>(null);
  /** 'Abbrechen' was tapped: the question in the page is open. */
  const [askAbandon, setAskAbandon] = useState(false);
  /** What the last note ended with (picked, abandoned), shown above the note field. */
  const [ended, setEnded] = useState<string | null>(null);
  /** The trip with a pick cart under way, and the last one's summary (shown above the note field). */
  const [fahrt, setFahrt] = useState<Fahrt | null>(null);
  const [summary, setSummary] = useState<CartSummary | null>(null);
  // Every answer of a pick or a Fehlmenge brings the note anew; a refusal may mean it was taken over.
  const taking = useBooking(pickTake, {
    done: t.picked,
    onBooked: ({ data }) => show(data),
    onRefused: letGo,
  });
  const reporting = useBooking(pickShortage, {
    done: t.shortageDone,
    onBooked: ({ data }) => show(data),
    onRefused: letGo,
  });

  const open = auftrag ? auftrag.positionen.filter((p) => p.offen > 0) : [];
  const first = open[0];
  const stop = first ? (first.lagerplatz ?? null) : null;
  const stopLines = first ? open.filter((p) => (p.lagerplatz?.id ?? null) === (stop?.id ?? null)) : [];
  const step = !auftrag
    ? 'note'
    : !first
      ? 'note'
      : stop === null
        ? 'noStock'
        : atLocation === stop.id
          ? 'article'
          : 'location';
  const asking = taking.asking !== null || shortage !== null || askAbandon;
  const isCart = useCartCodes(fahrt === null && (!auftrag || step === 'note'));
  useScanTarget(step === 'noStock' && !asking ? { kind: 'none', expects: t.expectsShortage } : null);

  /** A new answer: the note goes on, or it is done. */
  function show(next: Auftrag) {
    if (next.fertig) {
      const short = next.positionen.some((p) => p.fehlmenge > 0);
      setEnded(short ? t.doneShort(next.belegnr) : t.done(next.belegnr));
      setAuftrag(null);
      setAtLocation(null);
      return;
    }
    setAuftrag(next);
  }

  /** A scan in the note field: a cart's code starts (or resumes) a trip with it, anything else is a note. */
  async function claimNote(belegnr: string) {
    setNoteText('');
    try {
      if (await isCart(belegnr)) {
        await startTrip(belegnr);
        return;
      }
      const { data } = await api.call(pickClaim, { body: { belegnr }, on401: 'scan' });
      setEnded(null);
      setSummary(null);
      setAtLocation(null);
      show(data);
    } catch (error) {
      banner.showError(messageOf(error));
    }
  }

  async function startTrip(code: string) {
    try {
      const { data } = await api.call(cartStart, { body: { code }, on401: 'scan' });
      setEnded(null);
      setSummary(null);
      setFahrt(data);
    } catch (error) {
      banner.showError(messageOf(error));
    }
  }

  /** The trip ended: its summary, or what ended it, above the note field. */
  function endTrip(end: TripEnd) {
    setFahrt(null);
    if ('summary' in end) setSummary(end.summary);
    else if ('message' in end) setEnded(end.message);
  }

  async function claimNext() {
    try {
      const { data } = await api.call(pickNext, { body: {}, on401: 'scan' });
      setEnded(null);
      setSummary(null);
      setAtLocation(null);
      show(data);
    } catch (error) {
      banner.showError(messageOf(error));
    }
  }

  /**
   * A booking refused because this handheld does not hold the note any more (another picker, or the same
   * login on another handheld, took it over): the note is let go of, its stale plan gone; scanning it again
   * takes it back. Any other refusal only shows its message (useBooking shows it either way).
   */
  function letGo(error: unknown) {
    if (error instanceof ApiError && error.details?.abgegeben) {
      setEnded(null);
      setAuftrag(null);
      setAtLocation(null);
    }
  }

  async function abandon() {
    setAskAbandon(false);
    if (!auftrag) return;
    try {
      await api.call(pickRelease, { body: { id: auftrag.id }, on401: 'scan' });
      setEnded(t.abandoned(auftrag.belegnr));
      setAuftrag(null);
      setAtLocation(null);
    } catch (error) {
      banner.showError(messageOf(error));
    }
  }

  function scanLocation(text: string) {
    setLocationText('');
    if (!stop) return;
    if (text.trim() !== stop.code) {
      banner.showError(t.wrongLocation(stop.code));
      return;
    }
    setAtLocation(stop.id);
  }

  async function scanArticle(text: string) {
    setArticleText('');
    if (!stop) return;
    const named = articleCode(text); // a GS1 label's GTIN names the article by its EAN
    if (!named.ok) {
      banner.showError(named.message);
      return;
    }
    const code = named.code;
    const eans = eanVariants(code);
    const line = stopLines.find(
      (p) => p.nummer === code || p.herstellernummer === code || (p.ean !== null && eans.includes(p.ean)),
    );
    if (!line) {
      banner.showError(t.articleNotHere(code, stop.code));
      return;
    }
    if (!auftrag || !line.lagerplatz) return;
    // What can be taken here at once: all that is open, or what the location holds if that is less.
    const here = Math.min(line.offen, stop.bestand);
    const body = { id: auftrag.id, positionId: line.id, lagerplatzId: line.lagerplatz.id };
    if (here > CONFIRM_WHOLE_LINE_ABOVE) taking.ask({ ...body, menge: here });
    else await taking.book({ ...body, menge: 1 });
  }

  function reportShortage(line: PickLine, menge: number) {
    if (!auftrag) return;
    // Where it is missing: the stop's location (marked for a count, named in the Klärfall).
    void reporting.book({
      id: auftrag.id,
      positionId: line.id,
      menge,
      ...(line.lagerplatz ? { lagerplatzId: line.lagerplatz.id } : {}),
    });
  }

  const flashView = (
    <>
      {taking.flash}
      {reporting.flash}
    </>
  );

  if (fahrt) return <CartTrip key={fahrt.id} fahrt={fahrt} onFahrt={setFahrt} onEnd={endTrip} />;

  if (!auftrag || step === 'note') {
    return (
      <div className="stack">
        {flashView}
        {ended && (
          <p className="pick-ended" role="status">
            {ended}
          </p>
        )}
        {summary && <CartSummaryView summary={summary} />}
        <ScanField
          current
          label={t.noteLabel}
          field={pickClaim.body.shape.belegnr}
          value={noteText}
          onChange={setNoteText}
          onScan={claimNote}
        />
        <button type="button" className="button" onClick={claimNext}>
          {t.next}
        </button>
      </div>
    );
  }

  const done = auftrag.positionen.length - open.length;
  return (
    <div className="stack">
      {flashView}
      <div className="note-bar">
        <strong>{t.picker(auftrag.belegnr)}</strong>
        <button
          type="button"
          className="button button--secondary button--inline"
          onClick={() => setAskAbandon(true)}
        >
          {t.cancel}
        </button>
      </div>
      <p className="hint">{t.progress(done, auftrag.positionen.length)}</p>
      {stop ? (
        <section className="pick-stop" aria-label={t.goTo}>
          <span className="pick-goto">{t.goTo}</span>
          <span className="pick-location">{stop.code}</span>
          {step === 'article' && <span className="pick-here">✓</span>}
        </section>
      ) : (
        <NoStockStop />
      )}
      <StopScanField
        step={step}
        current={!asking}
        location={{ value: locationText, onChange: setLocationText, onScan: scanLocation }}
        article={{ value: articleText, onChange: setArticleText, onScan: scanArticle }}
      />
      <StopLines lines={stopLines} onShortage={setShortage} />
      <Rest open={open} current={stop?.id ?? null} />
      {askAbandon && (
        <ConfirmDialog
          title={t.abandonTitle(auftrag.belegnr)}
          confirmLabel={t.abandon}
          cancelLabel={t.abandonKeep}
          onConfirm={abandon}
          onCancel={() => setAskAbandon(false)}
        >
          {t.abandonBody}
        </ConfirmDialog>
      )}
      <BookingConfirm booking={taking} title={t.confirmTitle} confirmLabel={t.confirm} cancelLabel={t.cancel}>
        {(asked) => t.confirmBody(asked.menge, numberOf(auftrag, asked.positionId))}
      </BookingConfirm>
      {shortage && (
        <ShortageDialog
          line={shortage}
          onCancel={() => setShortage(null)}
          onReport={(menge) => {
            setShortage(null);
            reportShortage(shortage, menge);
          }}
        />
      )}
    </div>
  );
}

/** The lines to pick at this stop, each with what is open and its 'Fehlmenge' button. */
function StopLines({ lines, onShortage }: { lines: PickLine[]; onShortage: (line: PickLine) => void }) {
  return (
    <ul className="pick-lines" aria-label={t.linesHere}>
      {lines.map((line) => (
        <li key={line.id} className="task">
          <span className="task-title">
            <span className="code">{line.nummer}</span> · {t.openAmount(line.offen)}
          </span>
          <span className="task-detail">{line.name}</span>
          <button
            type="button"
            className="button button--secondary"
            aria-label={t.shortageFor(line.nummer)}
            onClick={() => onShortage(line)}
          >
            {t.shortage}
          </button>
        </li>
      ))}
    </ul>
  );
}

/**
 * What is left of the note (issue 36): all open stops and pieces, the current one included, then the stops
 * after it in walking order, each with its articles and pieces (lines no location holds last), so the picker
 * sees how far the walk still goes.
 */
function Rest({ open, current }: { open: PickLine[]; current: number | null }) {
  const stops: { key: string; code: string | null; lines: PickLine[] }[] = [];
  for (const line of open) {
    const key = line.lagerplatz ? String(line.lagerplatz.id) : 'none';
    const stop = stops.find((s) => s.key === key);
    if (stop) stop.lines.push(line);
    else stops.push({ key, code: line.lagerplatz?.code ?? null, lines: [line] });
  }
  const pieces = open.reduce((sum, line) => sum + line.offen, 0);
  const later = stops.filter((s) => s.key !== String(current ?? 'none'));
  return (
    <section className="pick-rest" aria-label={t.restHeading}>
      <p className="hint">{t.rest(stops.length, pieces)}</p>
      {later.length > 0 && (
        <ol className="pick-rest-stops">
          {later.map((s) => (
            <li key={s.key}>
              <span className="code">{s.code ?? t.restNoStock}</span>{' '}
              {s.lines.map((l) => `${l.nummer} × ${l.offen}`).join(', ')}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

/** The article number of a line of the note, for the question that names it. */
function numberOf(auftrag: Auftrag, positionId: number): string {
  return auftrag.positionen.find((p) => p.id === positionId)?.nummer ?? '';
}
