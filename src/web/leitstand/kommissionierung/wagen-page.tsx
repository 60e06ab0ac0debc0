import { Link } from 'react-router';
import {
  kommissionierwagen,
  kommissionierungLeitstandTexts as t,
} from '../../../contract/leitstand/kommissionierung.ts';
import { dayAndTime } from '../../ui/format.ts';
import { useLeitstandQuery } from '../api.ts';
import { QueryState } from '../query-state.tsx';
import './kommissionierung.css';

/**
 * Kommissionierwagen (issue 41): each pick cart with its compartments and the note lying in each now (until
 * it is packed), and who picks with the cart since when. Read-only — carts come by import, their labels from
 * Etiketten. Live, as every Leitstand page.
 */
export default function WagenPage() {
  const query = useLeitstandQuery(kommissionierwagen);
  return (
    <>
      <h1>{t.cartsTitle}</h1>
      <p className="hint">
        {t.cartsHint} <Link to="/leitstand/etiketten">{t.labelsLink}</Link>.
      </p>
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
    </>
  );
}
