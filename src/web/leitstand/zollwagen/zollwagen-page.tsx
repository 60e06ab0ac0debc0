import { useEffect, useState } from 'react';
import {
  zollwagenTexts as t,
  ZOLLWAGEN_DAYS,
  type ZollwagenRow,
  zollwagenAbschliessen,
  zollwagenList,
} from '../../../contract/leitstand/zollwagen.ts';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { dayAndTime } from '../../ui/format.ts';
import { keyOf, useLeitstandMutation, useLeitstandQuery } from '../api.ts';
import { Outcome, useOutcome } from '../outcome.tsx';
import { QueryState } from '../query-state.tsx';
import './zollwagen.css';

/** The time now, renewed every half minute, so an open cart's age moves on without a reload. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/**
 * Customs carts (issue 20.4): the open ones first, with their parcels and how long they have been open, and
 * 'Abschließen' for a cart left open on the floor (after a confirm) — the handheld's closing; then the
 * carts closed in the chosen period. Live: a parcel put on a cart on a handheld shows here by itself.
 */
export default function ZollwagenPage() {
  const [days, setDays] = useState<number>(ZOLLWAGEN_DAYS.standard);
  const query = useLeitstandQuery(zollwagenList, { query: { tage: String(days) } });
  const [asking, setAsking] = useState<ZollwagenRow | null>(null);
  const outcome = useOutcome(keyOf(zollwagenList).slice(0, 1));
  const closing = useLeitstandMutation(zollwagenAbschliessen);
  const now = useNow();

  const close = (cart: ZollwagenRow) => {
    setAsking(null);
    outcome.done(null);
    closing.mutate(
      { params: { id: String(cart.id) }, body: {} },
      outcome.after((answer) => answer.message),
    );
  };

  return (
    <>
      <h1>{t.title}</h1>
      <Outcome {...outcome} />
      <QueryState query={query}>
        {({ data }) => (
          <>
            <section aria-label={t.open}>
              <h2>{t.open}</h2>
              {data.offen.length === 0 ? (
                <p className="hint">{t.noneOpen}</p>
              ) : (
                <CartTable
                  carts={data.offen}
                  open
                  now={now}
                  busy={closing.isPending}
                  onClose={(cart) => setAsking(cart)}
                />
              )}
            </section>
            <section aria-label={t.closed(data.tage)}>
              <div className="zollwagen-closed-head">
                <h2>{t.closed(data.tage)}</h2>
                <label className="zollwagen-period">
                  {t.period}{' '}
                  <select value={days} onChange={(e) => setDays(Number(e.target.value))}>
                    {ZOLLWAGEN_DAYS.choices.map((choice) => (
                      <option key={choice} value={choice}>
                        {t.days(choice)}
                      </option>
                    ))}
                  </select>
                </label>
              </div>
              {data.abgeschlossen.length === 0 ? (
                <p className="hint">{t.noneClosed}</p>
              ) : (
                <CartTable carts={data.abgeschlossen} open={false} now={now} />
              )}
            </section>
          </>
        )}
      </QueryState>
      {asking && (
        <ConfirmDialog
          title={t.confirmTitle(asking.bezeichnung)}
          confirmLabel={t.confirm}
          cancelLabel={t.cancel}
          onConfirm={() => close(asking)}
          onCancel={() => setAsking(null)}
        >
          {t.confirmBody}
        </ConfirmDialog>
      )}
    </>
  );
}

function CartTable({
  carts,
  open,
  now,
  busy = false,
  onClose,
}: {
  carts: ZollwagenRow[];
  open: boolean;
  now: number;
  busy?: boolean;
  onClose?: (cart: ZollwagenRow) => void;
}) {
  return (
    <table className="table zollwagen-table">
      <thead>
        <tr>
          <th>{t.cart}</th>
          <th>{t.parcels}</th>
          <th>{t.openedBy}</th>
          <th className="number">{t.openedAt}</th>
          <th className="number">{open ? t.age : t.closedAt}</th>
          {open && <th>{t.actions}</th>}
        </tr>
      </thead>
      <tbody>
        {carts.map((cart) => (
          <tr key={cart.id}>
            <td className="code">
              <strong>{cart.bezeichnung}</strong>
              <br />
              <span className="sub">{cart.wagennummer}</span>
            </td>
            <td>
              <Parcels cart={cart} />
            </td>
            <td>{cart.geoeffnetVon ?? '–'}</td>
            <td className="number">{dayAndTime(cart.geoeffnetAm)}</td>
            <td className="number">
              {open
                ? cart.geoeffnetAm
                  ? t.ageText(Math.max(0, Math.floor((now - Date.parse(cart.geoeffnetAm)) / 60_000)))
                  : '–'
                : dayAndTime(cart.abgeschlossenAm)}
            </td>
            {open && (
              <td>
                <button
                  type="button"
                  className="button button--inline"
                  aria-label={t.closeLabel(cart.bezeichnung)}
                  disabled={busy}
                  onClick={() => onClose?.(cart)}
                >
                  {t.close}
                </button>
              </td>
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The cart's parcels, folded: the count, and a click shows each note with who put it on and when. */
function Parcels({ cart }: { cart: ZollwagenRow }) {
  if (cart.pakete.length === 0) return <span className="hint">{t.noParcels}</span>;
  return (
    <details className="leitstand-fold">
      <summary>{t.showParcels(cart.pakete.length, cart.bezeichnung)}</summary>
      <table className="table">
        <thead>
          <tr>
            <th>{t.parcelNote}</th>
            <th>{t.parcelBy}</th>
            <th className="number">{t.parcelAt}</th>
          </tr>
        </thead>
        <tbody>
          {cart.pakete.map((p) => (
            <tr key={p.lieferschein}>
              <td className="code">{p.lieferschein}</td>
              <td>{p.von}</td>
              <td className="number">{dayAndTime(p.am)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}
