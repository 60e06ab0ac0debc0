import { useState } from 'react';
import {
  kommissionierungLeitstandTexts as t,
  type WelleRow,
  welleHerausnehmen,
  welleLieferscheine,
  wellen,
} from '../../../contract/leitstand/kommissionierung.ts';
import { dayAndTime } from '../../ui/format.ts';
import { useLeitstandMutation, useLeitstandQuery } from '../api.ts';
import type { useOutcome } from '../outcome.tsx';
import { QueryState } from '../query-state.tsx';

type PageOutcome = ReturnType<typeof useOutcome>;

/**
 * The waves, newest first, each with its notes counted by state (open, on a cart, picked; short across
 * them) and the carts picking it now; a wave's notes fold out on demand, each open one with 'Herausnehmen'.
 */
export function Waves({ outcome }: { outcome: PageOutcome }) {
  const query = useLeitstandQuery(wellen);
  const [shown, setShown] = useState<ReadonlySet<number>>(new Set());
  const toggle = (id: number) =>
    setShown((old) => {
      const next = new Set(old);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  return (
    <section aria-label={t.waves}>
      <h2>{t.waves}</h2>
      <p className="hint">{t.wavesHint}</p>
      <QueryState query={query}>
        {({ data }) =>
          data.wellen.length === 0 ? (
            <p className="hint">{t.noWaves}</p>
          ) : (
            <table className="table wellen-table">
              <thead>
                <tr>
                  <th>{t.waves}</th>
                  <th className="number">{t.notes}</th>
                  <th className="number">{t.open}</th>
                  <th className="number">{t.onCart}</th>
                  <th className="number">{t.picked}</th>
                  <th className="number">{t.short}</th>
                  <th>{t.carts}</th>
                </tr>
              </thead>
              {data.wellen.map((w) => (
                <WaveRows key={w.id} wave={w} open={shown.has(w.id)} toggle={toggle} outcome={outcome} />
              ))}
            </table>
          )
        }
      </QueryState>
    </section>
  );
}

function WaveRows({
  wave,
  open,
  toggle,
  outcome,
}: {
  wave: WelleRow;
  open: boolean;
  toggle: (id: number) => void;
  outcome: PageOutcome;
}) {
  const done = wave.offen + wave.aufWagen === 0;
  return (
    <tbody aria-label={t.waveName(wave.id, wave.profil)}>
      <tr className={done ? 'wellen-done' : undefined}>
        <td>
          <button
            type="button"
            className="wellen-toggle"
            aria-expanded={open}
            aria-label={open ? t.hideNotes(wave.id) : t.showNotes(wave.id)}
            onClick={() => toggle(wave.id)}
          >
            {open ? '▾' : '▸'} {t.waveName(wave.id, wave.profil)}
          </button>
          <div className="hint">
            {t.released(wave.freigegebenVon, dayAndTime(wave.freigegebenAm))}
            {done && ` · ${t.done}`}
          </div>
        </td>
        <td className="number">{wave.lieferscheine}</td>
        <td className="number">{wave.offen}</td>
        <td className="number">{wave.aufWagen}</td>
        <td className="number">{wave.kommissioniert}</td>
        <td className={wave.fehlmenge > 0 ? 'number wellen-short' : 'number'}>{wave.fehlmenge}</td>
        <td>{wave.wagen.map((c) => t.cartBy(c.wagen, c.kommissionierer)).join(', ')}</td>
      </tr>
      {open && (
        <tr>
          <td colSpan={7}>
            <WaveNotes waveId={wave.id} outcome={outcome} />
          </td>
        </tr>
      )}
    </tbody>
  );
}

function WaveNotes({ waveId, outcome }: { waveId: number; outcome: PageOutcome }) {
  const query = useLeitstandQuery(welleLieferscheine, { params: { id: waveId } });
  const takeOut = useLeitstandMutation(welleHerausnehmen);
  return (
    <QueryState query={query}>
      {({ data }) =>
        data.lieferscheine.length === 0 ? (
          <p className="hint">{t.emptyWave}</p>
        ) : (
          <table className="table wellen-notes" aria-label={t.notes}>
            <thead>
              <tr>
                <th>{t.note}</th>
                <th>{t.versandart}</th>
                <th className="number">{t.lines}</th>
                <th>{t.state}</th>
                <th>{t.where}</th>
                <th>{t.actions}</th>
              </tr>
            </thead>
            <tbody>
              {data.lieferscheine.map((n) => (
                <tr key={n.id}>
                  <td className="code">{n.belegnr}</td>
                  <td className="code">{n.versandart}</td>
                  <td className="number">{n.positionen}</td>
                  <td className={n.fehlmenge ? 'wellen-short' : undefined}>
                    {t.states[n.zustand]}
                    {n.fehlmenge && ` · ${t.short}`}
                  </td>
                  <td>{n.fach ? t.inCompartment(n.fach, n.kommissionierer) : ''}</td>
                  <td>
                    {n.herausnehmbar && n.zustand === 'offen' && (
                      <button
                        type="button"
                        className="button button--inline button--secondary"
                        aria-label={t.takeOutLabel(n.belegnr)}
                        disabled={takeOut.isPending}
                        onClick={() => {
                          outcome.done(null);
                          takeOut.mutate(
                            { params: { id: waveId }, body: { lieferscheinId: n.id } },
                            outcome.after((a) => a.message),
                          );
                        }}
                      >
                        {t.takeOut}
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )
      }
    </QueryState>
  );
}
