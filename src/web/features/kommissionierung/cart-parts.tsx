import { kommissionierungTexts as t } from '../../../contract/kommissionierung.ts';
import {
  type CartCompartment,
  type CartLine,
  type CartPut,
  type CartSummary,
  type Fahrt,
  kommissionierwagenTexts as w,
} from '../../../contract/kommissionierwagen.ts';

/**
 * The parts of a cart trip's screen that only show what the trip is (cart-trip.tsx holds its states): the
 * lines at a stop, what is left per compartment, the puts that can be reversed, the summary at the end.
 */

/** The open lines at this stop, each with its compartment, what goes in, and its 'Fehlmenge' button. */
export function CartStopLines({
  lines,
  onShortage,
}: {
  lines: CartLine[];
  onShortage: (line: CartLine) => void;
}) {
  return (
    <ul className="pick-lines" aria-label={t.linesHere}>
      {lines.map((line) => (
        <li key={line.positionId} className="task cart-line">
          <span className="cart-line-text">
            <span className="task-title">
              <span className="code">{line.nummer}</span> · {w.put(line.fach.nummer, line.offen)}
            </span>
            <span className="task-detail">{line.name}</span>
          </span>
          <button
            type="button"
            className="button button--secondary button--inline"
            aria-label={w.shortageFor(line.nummer, line.fach.nummer)}
            onClick={() => onShortage(line)}
          >
            {t.shortage}
          </button>
        </li>
      ))}
    </ul>
  );
}

/** What is left of the whole cart (stops and pieces), then each compartment: its note and how far it is. */
export function CartRest({ fahrt }: { fahrt: Fahrt }) {
  const stops = fahrt.route.length + (fahrt.ohneBestand.length > 0 ? 1 : 0);
  const pieces = [...fahrt.route.flatMap((s) => s.positionen), ...fahrt.ohneBestand].reduce(
    (sum, line) => sum + line.offen,
    0,
  );
  return (
    <section className="pick-rest" aria-label={t.restHeading}>
      <p className="hint">{w.rest(stops, pieces)}</p>
      <h2 className="cart-heading">{w.compartmentsHeading}</h2>
      <ul className="cart-compartments" aria-label={w.compartmentsHeading}>
        {fahrt.faecher.map((fach) => (
          <li key={fach.id}>
            <span className="cart-compartment-number">{w.compartment(fach.nummer)}</span>{' '}
            <span className="code">{fach.auftrag?.belegnr ?? ''}</span> <CompartmentState fach={fach} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function CompartmentState({ fach }: { fach: CartCompartment }) {
  const note = fach.auftrag;
  if (!note) return <span className="hint">{w.compartmentEmpty}</span>;
  if (note.fertig && note.fehlmenge) return <span className="cart-short">{w.compartmentShort}</span>;
  if (note.fertig) return <span className="cart-complete">{w.compartmentComplete}</span>;
  return <span>{w.compartmentRest(note.offenStueck)}</span>;
}

/** The puts of this trip, newest first, each with 'Rückgängig' (asked in the page before it is reversed). */
export function CartPuts({
  puts,
  onUndo,
  disabled,
}: {
  puts: CartPut[];
  onUndo: (put: CartPut) => void;
  disabled: boolean;
}) {
  if (puts.length === 0) return null;
  return (
    <section aria-label={w.putsHeading}>
      <h2 className="cart-heading">{w.putsHeading}</h2>
      <ul className="cart-puts">
        {puts.map((put) => (
          <li key={put.bewegungId}>
            <span className="cart-put-text">
              {w.putEntry(put.menge, put.nummer, put.fach.nummer)}
              <span className="hint"> · {put.belegnr}</span>
            </span>
            <button
              type="button"
              className="button button--secondary button--inline"
              aria-label={w.undoFor(put.menge, put.nummer, put.fach.nummer)}
              disabled={disabled}
              onClick={() => onUndo(put)}
            >
              {w.undo}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The finished cart: one row per compartment that held a note, complete or short. */
export function CartSummaryView({ summary }: { summary: CartSummary }) {
  return (
    <section className="cart-summary" aria-label={w.finishedTitle(summary.wagen.code)}>
      <h2 className="cart-heading">{w.finishedTitle(summary.wagen.code)}</h2>
      <ul className="cart-compartments">
        {summary.faecher.map((fach) => (
          <li key={fach.code}>
            <span className="cart-compartment-number">{w.compartment(fach.nummer)}</span>{' '}
            <span className="code">{fach.belegnr}</span>{' '}
            {fach.status === 'komplett' ? (
              <span className="cart-complete">{w.compartmentComplete}</span>
            ) : (
              <span className="cart-short">{w.compartmentShort}</span>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
