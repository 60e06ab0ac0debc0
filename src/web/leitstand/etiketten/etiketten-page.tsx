import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import {
  adminDrucker,
  type DruckerZeile,
  druckerAendern,
  druckerAnlegen,
  druckerEntfernen,
  druckerListe,
  ROLL_SIZES,
  etikettenTexts as t,
} from '../../../contract/etiketten.ts';
import { bestandArtikel } from '../../../contract/leitstand/bestand.ts';
import { hasRole } from '../../../contract/roles.ts';
import { messageOf } from '../../api/message.ts';
import { readSession } from '../../api/session.ts';
import { keyOf, useLeitstandMutation, useLeitstandQuery } from '../api.ts';
import { LabelOutput } from '../label-output.tsx';
import { Refusal } from '../outcome.tsx';
import { QueryState } from '../query-state.tsx';
import { TextField } from '../text-field.tsx';
import './etiketten.css';

/**
 * Labels (issue 21): locations and LHM by a range of codes, articles by search and selection, all customs
 * carts, all pick carts and their compartments (issue 41) — each as a PDF or ZPL file or straight to a network printer; the admin also keeps the printer list.
 * Badges are printed from the Benutzer page, where a card's text is shown once.
 */
export default function EtikettenPage() {
  const admin = hasRole(readSession()?.role ?? 'mitarbeiter', 'admin');
  return (
    <div className="etiketten-page">
      <h1>{t.title}</h1>
      <p className="hint">{t.intro}</p>
      <Locations />
      <Articles />
      <section aria-labelledby="etiketten-carts">
        <h2 id="etiketten-carts">{t.cartsHeading}</h2>
        <p className="hint">{t.cartsHint}</p>
        <LabelOutput id="carts" selection={{ kind: 'zollwagen' }} />
      </section>
      <section aria-labelledby="etiketten-pick-carts">
        <h2 id="etiketten-pick-carts">{t.pickCartsHeading}</h2>
        <p className="hint">{t.pickCartsHint}</p>
        <h3>{t.pickCartsLabels}</h3>
        <LabelOutput id="pick-carts" selection={{ kind: 'kommissionierwagen' }} />
        <h3>{t.compartmentLabels}</h3>
        <LabelOutput id="compartments" selection={{ kind: 'fach' }} />
      </section>
      {admin && <Printers />}
    </div>
  );
}

function Locations() {
  const [kind, setKind] = useState<'lagerplatz' | 'lhm'>('lagerplatz');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [arrow, setArrow] = useState<'keiner' | 'hoch' | 'runter'>('keiner');
  // One code alone is one label: 'Von' (or 'Bis') without the other is a range of one.
  const first = from.trim() || to.trim();
  const last = to.trim() || from.trim();
  return (
    <section aria-labelledby="etiketten-locations">
      <h2 id="etiketten-locations">{t.locationsHeading}</h2>
      <div className="etiketten-row">
        <div className="field">
          <label htmlFor="locations-kind">{t.locationKind}</label>
          <select
            id="locations-kind"
            value={kind}
            onChange={(e) => setKind(e.target.value === 'lhm' ? 'lhm' : 'lagerplatz')}
          >
            <option value="lagerplatz">{t.kinds.lagerplatz}</option>
            <option value="lhm">{t.kinds.lhm}</option>
          </select>
        </div>
        <TextField id="locations-from" label={t.rangeFrom} value={from} onChange={setFrom} />
        <TextField id="locations-to" label={t.rangeTo} value={to} onChange={setTo} />
        {kind === 'lagerplatz' && (
          <div className="field">
            <label htmlFor="locations-arrow">{t.arrow}</label>
            <select
              id="locations-arrow"
              value={arrow}
              onChange={(e) => setArrow(e.target.value as typeof arrow)}
            >
              {(['keiner', 'hoch', 'runter'] as const).map((a) => (
                <option key={a} value={a}>
                  {t.arrows[a]}
                </option>
              ))}
            </select>
          </div>
        )}
      </div>
      <LabelOutput
        id="locations"
        selection={
          first
            ? {
                kind,
                from: first,
                to: last,
                ...(kind === 'lagerplatz' && arrow !== 'keiner' ? { pfeil: arrow } : {}),
              }
            : null
        }
        waiting={t.needsLocation}
      />
    </section>
  );
}

function Articles() {
  const [input, setInput] = useState('');
  const [search, setSearch] = useState('');
  const [chosen, setChosen] = useState<{ nummer: string; name: string }[]>([]);
  const found = useLeitstandQuery(bestandArtikel, { query: { q: search } }, { enabled: search !== '' });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSearch(input.trim());
  };
  const toggle = (article: { nummer: string; name: string }) =>
    setChosen((list) =>
      list.some((a) => a.nummer === article.nummer)
        ? list.filter((a) => a.nummer !== article.nummer)
        : [...list, article],
    );
  return (
    <section aria-labelledby="etiketten-articles">
      <h2 id="etiketten-articles">{t.articlesHeading}</h2>
      <form className="etiketten-row" onSubmit={submit}>
        <TextField id="articles-search" label={t.articleSearch} value={input} onChange={setInput} />
        <button type="submit" className="button button--secondary" disabled={input.trim() === ''}>
          {t.search}
        </button>
      </form>
      {search !== '' && (
        <QueryState query={found}>
          {(data) =>
            data.artikel.length === 0 ? (
              <p className="hint">{t.noArticles}</p>
            ) : (
              <ul className="etiketten-articles">
                {data.artikel.map((a) => (
                  <li key={a.id}>
                    <label>
                      <input
                        type="checkbox"
                        checked={chosen.some((c) => c.nummer === a.nummer)}
                        onChange={() => toggle(a)}
                        aria-label={t.select(a.nummer)}
                      />{' '}
                      {a.nummer} – {a.name}
                      {a.ean ? ` (${a.ean})` : ''}
                    </label>
                  </li>
                ))}
                {data.mehr && <li className="hint">{t.moreArticles}</li>}
              </ul>
            )
          }
        </QueryState>
      )}
      <p className="etiketten-selected">
        {t.selected(chosen.length)}
        {chosen.length > 0 && (
          <>
            {' '}
            <button
              type="button"
              className="button button--secondary button--small"
              onClick={() => setChosen([])}
            >
              {t.clearSelection}
            </button>
          </>
        )}
      </p>
      <LabelOutput
        id="articles"
        selection={chosen.length > 0 ? { kind: 'artikel', codes: chosen.map((a) => a.nummer) } : null}
        waiting={t.needsArticles}
      />
    </section>
  );
}

type Form = { name: string; host: string; port: string; dpi: '203' | '300'; groesse: '100x50' | '57x32' };
const EMPTY: Form = { name: '', host: '', port: '9100', dpi: '203', groesse: '100x50' };

/** The admin's printer list: add, change, remove (those from PRINTERS are shown, not changed). */
function Printers() {
  const query = useLeitstandQuery(adminDrucker);
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<number | 'new' | null>(null);
  const [form, setForm] = useState<Form>(EMPTY);
  const [notice, setNotice] = useState('');
  const [problem, setProblem] = useState('');
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: keyOf(adminDrucker).slice(0, 1) });
    void queryClient.invalidateQueries({ queryKey: keyOf(druckerListe).slice(0, 1) });
  };
  const done = {
    onSuccess: (a: { message: string }) => {
      setNotice(a.message);
      setEditing(null);
    },
    onError: (e: Error) => setProblem(messageOf(e)),
    onSettled: refresh,
  };
  const create = useLeitstandMutation(druckerAnlegen);
  const change = useLeitstandMutation(druckerAendern);
  const remove = useLeitstandMutation(druckerEntfernen);
  const body = () => ({
    name: form.name,
    host: form.host.trim(),
    port: Number(form.port),
    dpi: form.dpi === '300' ? (300 as const) : (203 as const),
    groesse: form.groesse,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setNotice('');
    setProblem('');
    if (editing === 'new') create.mutate({ body: body() }, done);
    else if (typeof editing === 'number')
      change.mutate({ params: { id: String(editing) }, body: body() }, done);
  };
  const startEdit = (p: DruckerZeile) => {
    setForm({
      name: p.name,
      host: p.host,
      port: String(p.port),
      dpi: p.dpi === 300 ? '300' : '203',
      groesse: p.groesse,
    });
    setEditing(p.id);
  };
  return (
    <section aria-labelledby="etiketten-printers">
      <h2 id="etiketten-printers">{t.printersHeading}</h2>
      <p className="hint">{t.printersHint}</p>
      <p className="etiketten-notice" role="status">
        {notice}
      </p>
      {problem && <Refusal>{problem}</Refusal>}
      <QueryState query={query}>
        {(data) => (
          <table className="table">
            <thead>
              <tr>
                <th>{t.printerName}</th>
                <th>{t.printerHost}</th>
                <th>{t.printerDpi}</th>
                <th>{t.printerSize}</th>
                <th>{t.printerSource}</th>
                <th>
                  <span className="visually-hidden">{t.edit}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {data.drucker.map((p) => (
                <tr key={`${p.quelle}-${p.name}`}>
                  <td>{p.name}</td>
                  <td>
                    {p.host}:{p.port}
                  </td>
                  <td>{p.dpi}</td>
                  <td>{t.sizes[p.groesse]}</td>
                  <td>{p.quelle === 'umgebung' ? t.fromEnvironment : t.fromLeitstand}</td>
                  <td>
                    {p.id !== null && (
                      <div className="leitstand-actions">
                        <button
                          type="button"
                          className="button button--secondary button--small"
                          aria-label={t.editLabel(p.name)}
                          onClick={() => startEdit(p)}
                        >
                          {t.edit}
                        </button>
                        <button
                          type="button"
                          className="button button--secondary button--small"
                          aria-label={t.removeLabel(p.name)}
                          disabled={remove.isPending}
                          onClick={() => {
                            setNotice('');
                            setProblem('');
                            remove.mutate({ params: { id: String(p.id) }, body: {} }, done);
                          }}
                        >
                          {t.remove}
                        </button>
                      </div>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </QueryState>
      {editing === null ? (
        <button
          type="button"
          className="button"
          onClick={() => {
            setForm(EMPTY);
            setEditing('new');
          }}
        >
          {t.addPrinter}
        </button>
      ) : (
        <form className="leitstand-form etiketten-row" onSubmit={submit} aria-label={t.addPrinter}>
          <TextField
            id="printer-name"
            label={t.printerName}
            value={form.name}
            onChange={(name) => setForm({ ...form, name })}
          />
          <TextField
            id="printer-host"
            label={t.printerHost}
            value={form.host}
            onChange={(host) => setForm({ ...form, host })}
          />
          <TextField
            id="printer-port"
            label={t.printerPort}
            value={form.port}
            onChange={(port) => setForm({ ...form, port })}
          />
          <div className="field">
            <label htmlFor="printer-dpi">{t.printerDpi}</label>
            <select
              id="printer-dpi"
              value={form.dpi}
              onChange={(e) => setForm({ ...form, dpi: e.target.value === '300' ? '300' : '203' })}
            >
              <option value="203">{t.dpis[203]}</option>
              <option value="300">{t.dpis[300]}</option>
            </select>
          </div>
          <div className="field">
            <label htmlFor="printer-size">{t.printerSize}</label>
            <select
              id="printer-size"
              value={form.groesse}
              onChange={(e) => setForm({ ...form, groesse: e.target.value === '57x32' ? '57x32' : '100x50' })}
            >
              {ROLL_SIZES.map((s) => (
                <option key={s} value={s}>
                  {t.sizes[s]}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className="button" disabled={create.isPending || change.isPending}>
            {t.save}
          </button>
          <button type="button" className="button button--secondary" onClick={() => setEditing(null)}>
            {t.cancel}
          </button>
        </form>
      )}
    </section>
  );
}
