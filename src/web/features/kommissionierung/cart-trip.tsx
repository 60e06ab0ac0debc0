import { useState } from 'react';
import { eanVariants } from '../../../contract/ean.ts';
import { kommissionierungTexts as t } from '../../../contract/kommissionierung.ts';
import {
  type CartLine,
  type CartSummary,
  cartDefer,
  cartFinish,
  cartPutAway,
  cartRelease,
  cartShortage,
  cartUndo,
  type Fahrt,
  kommissionierwagenTexts as w,
} from '../../../contract/kommissionierwagen.ts';
import { CONFIRM_WHOLE_LINE_ABOVE } from '../../../contract/limits.ts';
import { articleCode } from '../../api/article-lookups.ts';
import { ApiError } from '../../api/client.ts';
import { refocusTarget } from '../../scan/router.ts';
import { useScanTarget } from '../../scan/use-scan-target.ts';
import { useBanner } from '../../ui/banner.tsx';
import { BookingConfirm, useBooking } from '../../ui/booking.tsx';
import { ScanField } from '../../ui/scan-field.tsx';
import { CartPuts, CartRest, CartStopLines } from './cart-parts.tsx';
import { ShortageDialog } from './shortage-dialog.tsx';
import { NoStockStop, StopScanField } from './stop-parts.tsx';

/** How a trip ended for the screen: finished (its summary), abandoned, or over on the server. */
export type TripEnd = { summary: CartSummary } | { message: string } | { over: true };

/**
 * A trip with a pick cart (issue 41, decision 33): the route's stops in walking order — scan the location, scan
 * the article, then the compartment the screen names ('Fach 3: 2 Stück'); its barcode books the put, another
 * compartment's is refused at once and nothing is booked. Several notes' lines of one article at a stop are put
 * one compartment after the other, the article scanned once. Every answer brings the trip anew (`fahrt`).
 *
 * Scan targets per state: a stop → its location field, then its article field, then the compartment field;
 * only lines no location holds → none (report the Fehlmenge); every line done → none (tap 'Wagen fertig'); a
 * question open → none; the Fehlmenge question → its amount.
 */
export function CartTrip({
  fahrt,
  onFahrt,
  onEnd,
}: {
  fahrt: Fahrt;
  onFahrt: (next: Fahrt) => void;
  onEnd: (end: TripEnd) => void;
}) {
  const banner = useBanner();
  /** The current stop's location, once scanned. */
  const [atLocation, setAtLocation] = useState<number | null>(null);
  /** The article scanned at that location: its lines are put, compartment by compartment. */
  const [chosen, setChosen] = useState<{ locationId: number; articleId: number } | null>(null);
  const [locationText, setLocationText] = useState('');
  const [articleText, setArticleText] = useState('');
  const [compartmentText, setCompartmentText] = useState('');
  const [shortage, setShortage] = useState<CartLine | null>(null);
  const code = fahrt.wagen.code;

  /** A refusal that says the trip is over (finished, abandoned, its login gone) ends it here too. */
  const onRefused = (error: unknown) => {
    if (error instanceof ApiError && error.status === 409 && error.details?.fahrtVorbei === code)
      onEnd({ over: true });
  };
  const next = { onBooked: ({ data }: { data: Fahrt }) => onFahrt(data), onRefused };
  const putting = useBooking(cartPutAway, { done: t.picked, ...next });
  const reporting = useBooking(cartShortage, { done: t.shortageDone, ...next });
  const deferring = useBooking(cartDefer, {
    onBooked: ({ data }) => {
      onFahrt(data);
      refocusTarget(); // from the tapped button back to the field, even when it stays the target
    },
    onRefused,
  });
  const undoing = useBooking(cartUndo, {
    done: w.undone,
    // The worker took the pieces back to their location: the route goes on from a location scanned anew.
    onBooked: ({ data }) => {
      setAtLocation(null);
      onFahrt(data);
    },
    onRefused,
  });
  const finishing = useBooking(cartFinish, { onBooked: ({ data }) => onEnd({ summary: data }), onRefused });
  const releasing = useBooking(cartRelease, {
    onBooked: () => onEnd({ message: w.abandoned(code) }),
    onRefused,
  });

  const stop = fahrt.route[0] ?? null;
  const here = stop && atLocation === stop.lagerplatz.id ? stop : null;
  const line =
    here && chosen?.locationId === here.lagerplatz.id
      ? (here.positionen.find((p) => p.artikelId === chosen.articleId && p.offen > 0) ?? null)
      : null;
  // What goes into the compartment from here at once: all that is open, or what the line's article has on this
  // location if that is less (the rest is picked elsewhere, as the single note's flow takes it).
  const amount = line ? Math.max(1, Math.min(line.offen, line.bestand)) : 0;
  const step = fahrt.fertig
    ? 'finish'
    : !stop
      ? 'noStock'
      : !here
        ? 'location'
        : line
          ? 'compartment'
          : 'article';
  const asking =
    putting.asking !== null || undoing.asking !== null || releasing.asking !== null || shortage !== null;
  useScanTarget(
    asking
      ? null
      : step === 'noStock'
        ? { kind: 'none', expects: t.expectsShortage }
        : step === 'finish'
          ? { kind: 'none', expects: w.expectsFinish }
          : null,
  );

  function scanLocation(text: string) {
    setLocationText('');
    if (!stop) return;
    if (text !== stop.lagerplatz.code) {
      banner.showError(t.wrongLocation(stop.lagerplatz.code));
      return;
    }
    setAtLocation(stop.lagerplatz.id);
    setChosen(null);
  }

  /** The open line at this stop of the article a scan names (a GS1 label's GTIN by its EAN), or a refusal. */
  function lineNamed(text: string): CartLine | string {
    const named = articleCode(text);
    if (!named.ok) return named.message;
    const eans = eanVariants(named.code);
    const found = here?.positionen.find(
      (p) =>
        p.offen > 0 &&
        (p.nummer === named.code ||
          p.herstellernummer === named.code ||
          (p.ean !== null && eans.includes(p.ean))),
    );
    return found ?? t.articleNotHere(named.code, here?.lagerplatz.code ?? '');
  }

  function scanArticle(text: string) {
    setArticleText('');
    if (!here) return;
    const found = lineNamed(text);
    if (typeof found === 'string') banner.showError(found);
    else setChosen({ locationId: here.lagerplatz.id, articleId: found.artikelId });
  }

  async function scanCompartment(text: string) {
    setCompartmentText('');
    if (!here || !line) return;
    if (text !== line.fach.code) {
      // Another article of this stop scanned instead: the worker chose that one. Anything else is a wrong
      // compartment, refused at once — nothing is booked.
      const other = fahrt.faecher.some((f) => f.code === text) ? null : lineNamed(text);
      if (other !== null && typeof other !== 'string') {
        setChosen({ locationId: here.lagerplatz.id, articleId: other.artikelId });
        return;
      }
      banner.showError(w.wrongCompartment(line.fach.code));
      return;
    }
    const body = {
      fahrtId: fahrt.id,
      positionId: line.positionId,
      lagerplatzId: here.lagerplatz.id,
      fach: text,
      menge: amount,
    };
    if (amount > CONFIRM_WHOLE_LINE_ABOVE) putting.ask(body);
    else await putting.book(body);
  }

  function reportShortage(missing: CartLine, menge: number) {
    // Where it is missing: the stop's location (marked for a count, named in the Klärfall); none for a line
    // no location holds.
    const at = fahrt.route.find((s) => s.positionen.some((p) => p.positionId === missing.positionId));
    void reporting.book({
      fahrtId: fahrt.id,
      positionId: missing.positionId,
      menge,
      ...(at ? { lagerplatzId: at.lagerplatz.id } : {}),
    });
  }

  const stopLines = stop ? stop.positionen.filter((p) => p.offen > 0) : fahrt.ohneBestand;
  const undoAsked = undoing.asking
    ? fahrt.entnahmen.find((p) => p.bewegungId === undoing.asking?.bewegungId)
    : undefined;
  return (
    <div className="stack">
      {putting.flash}
      {reporting.flash}
      {undoing.flash}
      <div className="note-bar">
        <strong>{w.cart(code)}</strong>
        <button
          type="button"
          className="button button--secondary button--inline"
          onClick={() => releasing.ask({ fahrtId: fahrt.id })}
        >
          {t.cancel}
        </button>
      </div>
      {step === 'finish' ? (
        <>
          <p className="pick-ended" role="status">
            {w.allDone}
          </p>
          <button
            type="button"
            className="button"
            disabled={finishing.busy}
            onClick={() => void finishing.book({ fahrtId: fahrt.id })}
          >
            {w.finish}
          </button>
        </>
      ) : stop ? (
        <section className="pick-stop cart-stop" aria-label={t.goTo}>
          <span className="cart-stop-where">
            <span className="pick-goto">
              {t.goTo} {here && <span className="pick-here">✓</span>}
            </span>
            <span className="pick-location">{stop.lagerplatz.code}</span>
          </span>
          <button
            type="button"
            className="button button--secondary button--inline cart-defer"
            disabled={deferring.busy}
            onClick={() => void deferring.book({ fahrtId: fahrt.id, lagerplatzId: stop.lagerplatz.id })}
          >
            {w.defer}
          </button>
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
      {step === 'compartment' && line && (
        <>
          <p className="cart-put" aria-live="polite">
            <span className="cart-put-where">{w.put(line.fach.nummer, amount)}</span>
            <span className="hint">
              {line.nummer} · {line.name}
            </span>
          </p>
          <ScanField
            current={!asking}
            label={w.compartmentLabel}
            value={compartmentText}
            onChange={setCompartmentText}
            onScan={scanCompartment}
          />
        </>
      )}
      {step !== 'finish' && <CartStopLines lines={stopLines} onShortage={setShortage} />}
      <CartRest fahrt={fahrt} />
      <CartPuts
        puts={fahrt.entnahmen}
        disabled={undoing.busy}
        onUndo={(put) => undoing.ask({ fahrtId: fahrt.id, bewegungId: put.bewegungId })}
      />
      <BookingConfirm
        booking={putting}
        title={t.confirmTitle}
        confirmLabel={t.confirm}
        cancelLabel={t.cancel}
      >
        {(asked) => <PutQuestion line={lineOf(fahrt, asked.positionId)} menge={asked.menge} />}
      </BookingConfirm>
      <BookingConfirm
        booking={undoing}
        title={undoAsked ? w.undoTitle(undoAsked.menge, undoAsked.nummer, undoAsked.fach.nummer) : w.undo}
        confirmLabel={w.undoConfirm}
        cancelLabel={t.cancel}
      >
        {() => (undoAsked ? w.undoBody(undoAsked.lagerplatz) : null)}
      </BookingConfirm>
      <BookingConfirm
        booking={releasing}
        title={w.abandonTitle(code)}
        confirmLabel={w.abandonConfirm}
        cancelLabel={w.abandonKeep}
      >
        {() => w.abandonBody}
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

/** The question before a put above five: how many of which article, and into which compartment. */
function PutQuestion({ line, menge }: { line: CartLine | undefined; menge: number }) {
  if (!line) return null;
  return (
    <>
      <p>{t.confirmBody(menge, line.nummer)}</p>
      <p className="cart-put-where">{w.put(line.fach.nummer, menge)}</p>
    </>
  );
}

/** A line of the trip by its id, wherever it is (a stop, or no location holds it). */
function lineOf(fahrt: Fahrt, positionId: number): CartLine | undefined {
  return [...fahrt.route.flatMap((s) => s.positionen), ...fahrt.ohneBestand].find(
    (p) => p.positionId === positionId,
  );
}
