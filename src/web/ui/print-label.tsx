import { useRef, useState } from 'react';
import { drucken, druckTexts as t } from '../../contract/etiketten-druck.ts';
import { api } from '../api/api.ts';
import { ApiError } from '../api/client.ts';
import { messageOf } from '../api/message.ts';
import { useBanner } from './banner.tsx';
import { readDeviceSettings } from './device-settings.ts';

/**
 * 'Etikett drucken' (issue 21): sends one label — the location, LHM or cart the screen shows — to this
 * station's printer (Einstellungen). A plain button: the scan router never hands it a scan, so a burst while
 * it is on screen still goes to the screen's scan field. The outcome shows below it ('… gesendet.') or in the
 * banner ('Drucker … antwortet nicht …'). After an answer the next press is a new print job; after no answer
 * (a dead zone) the next press re-sends the same job under the same key, so it prints at most once.
 */
export function PrintLabelButton({ kind, code }: { kind: 'lagerplatz' | 'lhm' | 'zollwagen'; code: string }) {
  const banner = useBanner();
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState('');
  const pending = useRef<{ key: string; code: string } | null>(null);

  async function print() {
    setDone('');
    const printer = readDeviceSettings().printer;
    if (!printer) {
      banner.showError(t.handheldNoPrinter);
      return;
    }
    if (pending.current?.code !== code) pending.current = { key: crypto.randomUUID(), code };
    setBusy(true);
    try {
      const answer = await api.call(drucken, {
        body: { printer, kind, codes: [code] },
        idempotencyKey: pending.current.key,
      });
      pending.current = null;
      setDone(answer.message);
    } catch (error) {
      if (error instanceof ApiError && error.status !== 401) pending.current = null;
      banner.showError(messageOf(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="print-label">
      <button type="button" className="button button--secondary" onClick={() => void print()} disabled={busy}>
        {busy ? t.handheldPrinting : t.handheldPrint}
      </button>
      {done && (
        <p className="hint" role="status">
          {done}
        </p>
      )}
    </div>
  );
}
