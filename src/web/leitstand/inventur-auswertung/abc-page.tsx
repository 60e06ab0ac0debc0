import { type FormEvent, useState } from 'react';
import {
  type AbcClass,
  abcBerechnen,
  abcKlassen,
  type KlasseRow,
  klasseAendern,
  inventurAuswertungTexts as t,
} from '../../../contract/leitstand/inventur-auswertung.ts';
import { dateAndTime } from '../../ui/format.ts';
import { keyOf, useLeitstandMutation, useLeitstandQuery } from '../api.ts';
import { Outcome, useOutcome } from '../outcome.tsx';
import { QueryState } from '../query-state.tsx';
import './inventur-auswertung.css';

type Outcomes = ReturnType<typeof useOutcome>;

/** A typed figure as the call takes it: an empty field is NaN, which the server refuses in German. */
const figure = (text: string) => (text.trim() === '' ? Number.NaN : Number(text.replace(',', '.')));

/**
 * ABC-Klassen (issue 42): 'ABC-Klassen berechnen' and, per class, its locations and articles, how often its
 * locations are counted and the tolerance of a difference — edited in place, in the Protokoll.
 */
export default function AbcPage() {
  const query = useLeitstandQuery(abcKlassen);
  const compute = useLeitstandMutation(abcBerechnen);
  const outcome = useOutcome(keyOf(abcKlassen).slice(0, 1));
  return (
    <>
      <h1>{t.classesTitle}</h1>
      <Outcome {...outcome} />
      <p className="hint auswertung-rule">{t.classesIntro}</p>
      <QueryState query={query}>
        {({ data }) => (
          <>
            <p>
              {data.berechnet
                ? t.computedAt(dateAndTime(data.berechnet.am), data.berechnet.von)
                : t.neverComputed}{' '}
              <button
                type="button"
                className="button button--inline"
                disabled={compute.isPending}
                onClick={() => {
                  outcome.done(null);
                  compute.mutate(
                    { body: {} },
                    outcome.after((a) => a.message),
                  );
                }}
              >
                {compute.isPending ? t.computing : t.compute}
              </button>
            </p>
            <div className="auswertung-scroll">
              <table className="table">
                <thead>
                  <tr>
                    <th>{t.klasse}</th>
                    <th className="number">{t.lagerplaetze}</th>
                    <th className="number">{t.artikel}</th>
                    <th>{t.frequenz}</th>
                    <th>{t.toleranzStueck}</th>
                    <th>{t.toleranzProzent}</th>
                    <th>{t.actions}</th>
                  </tr>
                </thead>
                <tbody>
                  {data.klassen.map((row) => (
                    // Keyed by the stored values: a change (here or at another desk) starts the fields anew.
                    <ClassLine key={JSON.stringify(row)} row={row} outcome={outcome} />
                  ))}
                </tbody>
              </table>
            </div>
            <p className="hint auswertung-rule">{t.toleranceRule}</p>
          </>
        )}
      </QueryState>
    </>
  );
}

function ClassLine({ row, outcome }: { row: KlasseRow; outcome: Outcomes }) {
  const name = t.klassen[row.klasse as AbcClass];
  const stored = {
    frequenz: String(row.frequenzTage),
    stueck: String(row.toleranzStueck),
    prozent: String(row.toleranzProzent).replace('.', ','),
  };
  const [draft, setDraft] = useState(stored);
  const save = useLeitstandMutation(klasseAendern);
  const unchanged = JSON.stringify(draft) === JSON.stringify(stored);
  const formId = `klasse-${row.klasse === '-' ? 'ohne' : row.klasse}`;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    outcome.done(null);
    save.mutate(
      {
        body: {
          klasse: row.klasse,
          frequenzTage: figure(draft.frequenz),
          toleranzStueck: figure(draft.stueck),
          toleranzProzent: figure(draft.prozent),
        },
      },
      outcome.after((a) => a.message),
    );
  };
  const field = (key: keyof typeof draft, label: string, decimals = false) => (
    <input
      form={formId}
      type="text"
      inputMode={decimals ? 'decimal' : 'numeric'}
      aria-label={t.fieldOf(label, name)}
      value={draft[key]}
      onChange={(e) => setDraft({ ...draft, [key]: e.target.value })}
    />
  );
  return (
    <tr>
      <th scope="row">{name}</th>
      <td className="number">{row.lagerplaetze.toLocaleString('de-DE')}</td>
      <td className="number">{row.artikel === null ? '–' : row.artikel.toLocaleString('de-DE')}</td>
      <td className="auswertung-inline">{field('frequenz', t.frequenz)}</td>
      <td className="auswertung-inline">{field('stueck', t.toleranzStueck)}</td>
      <td className="auswertung-inline">{field('prozent', t.toleranzProzent, true)}</td>
      <td>
        <form id={formId} noValidate onSubmit={submit}>
          <button
            type="submit"
            className="button button--inline"
            aria-label={t.saveLabel(name)}
            disabled={save.isPending || unchanged}
          >
            {t.save}
          </button>
        </form>
      </td>
    </tr>
  );
}
