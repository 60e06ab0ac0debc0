import { type ReactNode, useCallback, useState } from 'react';
import type { Endpoint } from '../../contract/endpoint.ts';
import { texts } from '../../contract/texts.ts';
import type { useActionKey } from '../api/action-key.ts';
import { messageOf } from '../api/message.ts';
import { captureScan } from '../api/outbox/index.ts';
import { useBanner } from './banner.tsx';
import { ScanField, type TextField } from './scan-field.tsx';
import { SuccessFlash } from './success-flash.tsx';

type ActionKey = ReturnType<typeof useActionKey>;

/**
 * What every capture screen does with a scan (Batch, Wechselbrücke, Retoure, Transporter): send it — or keep
 * it in the outbox when the server cannot be reached — and show 'Erfasst!' (or 'Gespeichert – wird
 * gesendet') for a second, while the next scan is already taken; a refusal goes to the banner.
 *
 * `capture(call, body, label)` answers whether it went through (sent or kept), so a form knows to reset. A form
 * of several fields passes its action key (Transporter): sent again unchanged after an unknown outcome or a
 * 401, the capture keeps its idempotency key and is applied once.
 */
export function useCapture(doneText: string): {
  capture: <E extends Endpoint>(
    call: E,
    body: Parameters<typeof captureScan<E>>[1],
    label: string,
    actionKey?: ActionKey,
  ) => Promise<boolean>;
  flash: ReactNode;
} {
  const banner = useBanner();
  const [success, setSuccess] = useState<'captured' | 'saved' | null>(null);
  const endSuccess = useCallback(() => setSuccess(null), []);
  const capture = useCallback(
    async <E extends Endpoint>(
      call: E,
      body: Parameters<typeof captureScan<E>>[1],
      label: string,
      actionKey?: ActionKey,
    ) => {
      try {
        const outcome = actionKey
          ? await actionKey.send(body, (key) => captureScan(call, body, label, key))
          : await captureScan(call, body, label);
        setSuccess(outcome.saved ? 'saved' : 'captured');
        return true;
      } catch (error) {
        banner.showError(messageOf(error));
        return false;
      }
    },
    [banner],
  );
  const flash = success && (
    <SuccessFlash
      text={success === 'saved' ? texts.outbox.saved : doneText}
      saved={success === 'saved'}
      onDone={endSuccess}
    />
  );
  return { capture, flash };
}

/**
 * A capture screen of one field: each scan is one capture (SPEC §2's Batch and Retoure). `check` refuses a
 * scan before it is sent (its German message), `body` makes the call's body of the scanned text, `field` is
 * the contract's schema of that text (ScanField).
 */
export function CaptureScreen<E extends Endpoint>({
  label,
  doneText,
  call,
  body,
  check,
  field,
}: {
  label: string;
  doneText: string;
  call: E;
  body: (scanned: string) => Parameters<typeof captureScan<E>>[1];
  check?: (scanned: string) => string | null;
  field?: TextField;
}) {
  const banner = useBanner();
  const [text, setText] = useState('');
  const { capture, flash } = useCapture(doneText);

  async function onScan(scanned: string) {
    setText('');
    const problem = check?.(scanned);
    if (problem) {
      banner.showError(problem);
      return;
    }
    await capture(call, body(scanned), scanned);
  }

  return (
    <div className="stack">
      {flash}
      <ScanField current label={label} field={field} value={text} onChange={setText} onScan={onScan} />
    </div>
  );
}
