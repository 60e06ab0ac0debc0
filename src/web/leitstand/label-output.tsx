import { useState } from 'react';
import {
  drucken,
  druckerListe,
  LABEL_SIZES,
  type LabelSize,
  ROLL_SIZES,
  etikettenTexts as t,
} from '../../contract/etiketten.ts';
import { messageOf } from '../api/message.ts';
import { useLeitstandMutation, useLeitstandQuery } from './api.ts';
import { downloadLabels, type LabelSelection } from './label-file.ts';
import { Refusal } from './outcome.tsx';
// Its rows look like the Etiketten page's, whichever page shows it (Benutzer's badge dialog too).
import './etiketten/etiketten.css';

const SIZES = Object.keys(LABEL_SIZES) as LabelSize[];

/**
 * Where a selection of labels goes: a file (PDF on a sheet or roll size, or ZPL at 203/300 dpi) or a network
 * printer (in its own size and resolution). `selection` null: nothing chosen yet, both buttons wait and
 * `waiting` says beside them what they wait for (as does a missing printer for 'Drucken').
 */
export function LabelOutput({
  id,
  selection,
  waiting = '',
}: {
  id: string;
  selection: LabelSelection | null;
  waiting?: string;
}) {
  const [format, setFormat] = useState<'pdf' | 'zpl'>('pdf');
  const [size, setSize] = useState<LabelSize>('a4-70x36');
  const [dpi, setDpi] = useState<203 | 300>(203);
  const [printer, setPrinter] = useState('');
  const [notice, setNotice] = useState('');
  const [problem, setProblem] = useState('');
  const [downloading, setDownloading] = useState(false);
  const printers = useLeitstandQuery(druckerListe);
  const printing = useLeitstandMutation(drucken);
  const sizes = format === 'zpl' ? (ROLL_SIZES as readonly LabelSize[]) : SIZES;
  const chosenPrinter = printer || printers.data?.drucker[0]?.name || '';
  const why = !selection ? waiting : printers.data && !chosenPrinter ? t.needsPrinter : '';

  const chooseFormat = (next: 'pdf' | 'zpl') => {
    setFormat(next);
    if (next === 'zpl' && !(ROLL_SIZES as readonly string[]).includes(size)) setSize('100x50');
  };
  const download = async () => {
    if (!selection) return;
    setNotice('');
    setProblem('');
    setDownloading(true);
    try {
      setNotice(t.downloaded(await downloadLabels(selection, { format, groesse: size, dpi })));
    } catch (error) {
      setProblem(messageOf(error));
    } finally {
      setDownloading(false);
    }
  };
  const print = () => {
    if (!selection || !chosenPrinter) return;
    setNotice('');
    setProblem('');
    printing.mutate(
      {
        body: {
          printer: chosenPrinter,
          kind: selection.kind,
          ...(selection.codes ? { codes: selection.codes } : {}),
          ...(selection.from ? { from: selection.from } : {}),
          ...(selection.to ? { to: selection.to } : {}),
          ...(selection.pfeil ? { pfeil: selection.pfeil } : {}),
        },
      },
      { onSuccess: (answer) => setNotice(answer.message), onError: (error) => setProblem(error.message) },
    );
  };

  return (
    <div className="etiketten-output">
      <div className="etiketten-row">
        <div className="field">
          <label htmlFor={`${id}-format`}>{t.format}</label>
          <select
            id={`${id}-format`}
            value={format}
            onChange={(e) => chooseFormat(e.target.value as 'pdf' | 'zpl')}
          >
            <option value="pdf">{t.formats.pdf}</option>
            <option value="zpl">{t.formats.zpl}</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-size`}>{t.size}</label>
          <select id={`${id}-size`} value={size} onChange={(e) => setSize(e.target.value as LabelSize)}>
            {sizes.map((s) => (
              <option key={s} value={s}>
                {t.sizes[s]}
              </option>
            ))}
          </select>
        </div>
        {format === 'zpl' && (
          <div className="field">
            <label htmlFor={`${id}-dpi`}>{t.dpi}</label>
            <select
              id={`${id}-dpi`}
              value={dpi}
              onChange={(e) => setDpi(Number(e.target.value) === 300 ? 300 : 203)}
            >
              <option value={203}>{t.dpis[203]}</option>
              <option value={300}>{t.dpis[300]}</option>
            </select>
          </div>
        )}
        <button
          type="button"
          className="button"
          onClick={() => void download()}
          disabled={!selection || downloading}
          aria-describedby={!selection && why ? `${id}-why` : undefined}
        >
          {t.download}
        </button>
      </div>
      <div className="etiketten-row">
        <div className="field">
          <label htmlFor={`${id}-printer`}>{t.printer}</label>
          <select
            id={`${id}-printer`}
            value={chosenPrinter}
            onChange={(e) => setPrinter(e.target.value)}
            disabled={!printers.data?.drucker.length}
          >
            {printers.data?.drucker.length ? (
              printers.data.drucker.map((p) => (
                <option key={p.name} value={p.name}>
                  {t.printerLabel(p)}
                </option>
              ))
            ) : (
              <option value="">{t.noPrinter}</option>
            )}
          </select>
        </div>
        <button
          type="button"
          className="button button--secondary"
          onClick={print}
          disabled={!selection || !chosenPrinter || printing.isPending}
          aria-describedby={why ? `${id}-why` : undefined}
        >
          {t.print}
        </button>
      </div>
      {why && (
        <p className="hint" id={`${id}-why`}>
          {why}
        </p>
      )}
      <p className="etiketten-notice" role="status">
        {notice}
      </p>
      {problem && <Refusal>{problem}</Refusal>}
    </div>
  );
}
