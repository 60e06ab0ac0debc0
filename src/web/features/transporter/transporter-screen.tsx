import { type RefObject, useCallback, useEffect, useRef, useState } from 'react';
import { captureTransporter } from '../../../contract/capture.ts';
import { texts } from '../../../contract/texts.ts';
import { useActionKey } from '../../api/action-key.ts';
import { messageOf } from '../../api/lookups.ts';
import { captureScan } from '../../api/outbox/index.ts';
import { useBanner } from '../../ui/banner.tsx';
import { ScanField } from '../../ui/scan-field.tsx';
import { SuccessFlash } from '../../ui/success-flash.tsx';

/**
 * Transporter capture (SPEC §2/§5): Kennzeichen, fill level 0–100 in steps of 5, Plombe, Wechselbrücke.
 * Without a connection the capture waits in the outbox ('Gespeichert – wird gesendet') under its action key.
 */
export default function TransporterScreen() {
  const banner = useBanner();
  const [kennzeichen, setKennzeichen] = useState('');
  const [value, setValue] = useState(0);
  const [plombe, setPlombe] = useState('');
  const [container, setContainer] = useState('');
  const [success, setSuccess] = useState<'captured' | 'saved' | null>(null);
  const captureKey = useActionKey();
  const kennzeichenRef = useRef<HTMLInputElement>(null);
  const plombeRef = useRef<HTMLInputElement>(null);
  const containerRef = useRef<HTMLInputElement>(null);
  useEffect(() => kennzeichenRef.current?.focus(), []);

  async function submit() {
    // Required in this order (SPEC §5); the first missing one is named and focused.
    const missing: [string, RefObject<HTMLInputElement | null>, string][] = [
      [kennzeichen, kennzeichenRef, texts.transporter.kennzeichenMissing],
      [plombe, plombeRef, texts.transporter.plombeMissing],
      [container, containerRef, texts.transporter.containerMissing],
    ];
    const first = missing.find(([text]) => text.trim() === '');
    if (first) {
      banner.showError(first[2]);
      first[1].current?.focus();
      return;
    }
    try {
      const body = {
        kennzeichen: kennzeichen.trim(),
        container: container.trim(),
        plombe: plombe.trim(),
        value,
      };
      const label = `${body.kennzeichen} · ${body.plombe} · ${body.container}`;
      const outcome = await captureKey.send(body, (idempotencyKey) =>
        captureScan(captureTransporter, body, label, idempotencyKey),
      );
      setKennzeichen('');
      setPlombe('');
      setContainer('');
      setValue(0);
      setSuccess(outcome.saved ? 'saved' : 'captured');
      kennzeichenRef.current?.focus();
    } catch (error) {
      banner.showError(messageOf(error));
    }
  }

  const endSuccess = useCallback(() => setSuccess(null), []);
  return (
    <div className="stack">
      {success && (
        <SuccessFlash
          text={success === 'saved' ? texts.outbox.saved : texts.batch.done}
          saved={success === 'saved'}
          onDone={endSuccess}
        />
      )}
      <ScanField
        ref={kennzeichenRef}
        label={texts.transporter.kennzeichen}
        value={kennzeichen}
        onChange={setKennzeichen}
        onScan={() => plombeRef.current?.focus()}
      />
      <div className="field">
        <label htmlFor="transporter-fill">
          {texts.transporter.fill}: {value} %
        </label>
        <input
          id="transporter-fill"
          type="range"
          min={0}
          max={100}
          step={5}
          value={value}
          onChange={(e) => setValue(Number(e.target.value))}
        />
      </div>
      <ScanField
        ref={plombeRef}
        label={texts.transporter.plombe}
        value={plombe}
        onChange={setPlombe}
        onScan={() => containerRef.current?.focus()}
      />
      <ScanField
        ref={containerRef}
        label={texts.transporter.container}
        value={container}
        onChange={setContainer}
        onScan={() => void submit()}
      />
      <button type="button" className="button" onClick={() => void submit()}>
        {texts.transporter.submit}
      </button>
    </div>
  );
}
