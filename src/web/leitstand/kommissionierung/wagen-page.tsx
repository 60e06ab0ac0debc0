import { useState } from 'react';
import { Link } from 'react-router';
import {
  fachLeeren,
  fahrtBeenden,
  kommissionierwagen,
  kommissionierungLeitstandTexts as t,
  type WagenRow,
} from '../../../contract/leitstand/kommissionierung.ts';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { dayAndTime } from '../../ui/format.ts';
import { useLeitstandMutation, useLeitstandQuery } from '../api.ts';
import { Outcome, useOutcome } from '../outcome.tsx';
import { QueryState } from '../query-state.tsx';
import './kommissionierung.css';

type Question =
  | { kind: 'trip'; cart: string; trip: NonNullable<WagenRow['fahrt']> }
  | { kind: 'compartment'; id: number; code: string; noteId: number; belegnr: string };

/**
 * Kommissionierwagen (issue 41): each pick cart with its compartments and the note lying in each now (until
 * it is packed), and who picks with the cart since when. Carts come by import, their labels from Etiketten.
 * The lead's ways out, each asked first: 'Fahrt beenden' for a trip nobody will finish, 'Fach leeren' for a
 * compartment whose goods were taken out by hand (once its trip ended). Live, as every Leitstand page.
 */
export default function WagenPage() {
  const query = useLeitstandQuery(kommissionierwagen);
  const outcome = useOutcome();
  const [question, setQuestion] = useState<Question | null>(null);
  const endTrip = useLeitstandMutation(fahrtBeenden);
  const empty = useLeitstandMutation(fachLeeren);
  const busy = endTrip.isPending || empty.isPending;
  const answer = (q: Question) => {
    setQuestion(null);
    outcome.done(null);
    if (q.kind === 'trip')
      endTrip.mutate(
        { params: { id: q.trip.id }, body: {} },
        outcome.after((a) => a.message),
      );
    else
      empty.mutate(
        { params: { id: q.id }, body: { lieferscheinId: q.noteId } },
        outcome.after((a) => a.message),
      );
  };
  return (
    <>
      <h1>{t.cartsTitle}</h1>
      <p className="hint">
        {t.cartsHint} <Link to="/leitstand/etiketten">{t.labelsLink}</Link>.
      </p>
      <Outcome {...outcome} />
      <QueryState query={query}>
        {({ data }) =>
          data.wagen.length === 0 ? (
            <p className="hint">{t.noCarts}</p>
          ) : (
            <div className="leitstand-cards">
              {data.wagen.map((cart) => (
                <section key={cart.id} className="wellen-cart" aria-label={cart.code}>
                  <h2 className="code">{cart.code}</h2>
                  <p className={cart.fahrt ? 'wellen-trip' : 'hint'}>
                    {cart.fahrt ? t.trip(cart.fahrt.kommissionierer, dayAndTime(cart.fahrt.seit)) : t.noTrip}
                    {cart.fahrt && !cart.fahrt.angemeldet && (
                      <>
                        {' '}
                        <span className="wellen-short">{t.loggedOut}</span>
                      </>
                    )}
                    {cart.fahrt && (
                      <>
                        {' '}
                        <button
                          type="button"
                          className="button button--inline button--secondary"
                          aria-label={t.endTripLabel(cart.code)}
                          disabled={busy}
                          onClick={() => {
                            const trip = cart.fahrt;
                            if (trip) setQuestion({ kind: 'trip', cart: cart.code, trip });
                          }}
                        >
                          {t.endTrip}
                        </button>
                      </>
                    )}
                  </p>
                  <table className="table">
                    <thead>
                      <tr>
                        <th>{t.compartment}</th>
                        <th>{t.content}</th>
                      </tr>
                    </thead>
                    <tbody>
                      {cart.faecher.map((f) => (
                        <tr key={f.code}>
                          <td className="code">{f.code}</td>
                          <td>
                            {f.lieferschein ? (
                              <>
                                <span className="code">{f.lieferschein.belegnr}</span> ·{' '}
                                {t.compartmentStates[f.lieferschein.zustand]}
                                {!f.lieferschein.fahrtOffen && (
                                  <>
                                    {' '}
                                    <button
                                      type="button"
                                      className="button button--inline button--secondary"
                                      aria-label={t.emptyCompartmentLabel(f.code)}
                                      disabled={busy}
                                      onClick={() => {
                                        const note = f.lieferschein;
                                        if (note)
                                          setQuestion({
                                            kind: 'compartment',
                                            id: f.id,
                                            code: f.code,
                                            noteId: note.id,
                                            belegnr: note.belegnr,
                                          });
                                      }}
                                    >
                                      {t.emptyCompartmentAction}
                                    </button>
                                  </>
                                )}
                              </>
                            ) : (
                              <span className="hint">{t.emptyCompartment}</span>
                            )}
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </section>
              ))}
            </div>
          )
        }
      </QueryState>
      {question && (
        <ConfirmDialog
          title={
            question.kind === 'trip'
              ? t.endTripTitle(question.cart, question.trip.kommissionierer)
              : t.emptyCompartmentTitle(question.code, question.belegnr)
          }
          confirmLabel={question.kind === 'trip' ? t.endTrip : t.emptyCompartmentAction}
          cancelLabel={t.cancel}
          onConfirm={() => answer(question)}
          onCancel={() => setQuestion(null)}
        >
          {question.kind === 'trip' ? t.endTripBody : t.emptyCompartmentBody}
        </ConfirmDialog>
      )}
    </>
  );
}
