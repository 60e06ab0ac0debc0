import { useState } from 'react';
import { texts } from '../../../contract/texts.ts';
import { captureTransporter } from '../../../contract/transporter.ts';
import { useActionKey } from '../../api/action-key.ts';
import { holdKeysUntil, refocusTarget } from '../../scan/router.ts';
import { afterNextPaint } from '../../ui/after-paint.ts';
import { useBanner } from '../../ui/banner.tsx';
import { useCapture } from '../../ui/capture.tsx';
import { ScanField } from '../../ui/scan-field.tsx';

type Step = 'kennzeichen' | 'plombe' | 'container';
/** What the contract takes in each field (a Kennzeichen of 20 characters, …); a longer scan is refused at once. */
const fields = captureTransporter.body.shape;

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
  /** The field a scan goes to: each one's Enter leads on to the next (SPEC §5's order). */
  const [step, setStep] = useState<Step>('kennzeichen');
  const captureKey = useActionKey();
  const { capture, flash } = useCapture(texts.batch.done);

  /**
   * Sends the capture. The next scan, come while it is on its way, waits for the fresh form and lands in its
   * Kennzeichen (typed on, it would run into this Wechselbrücke and be captured again with it).
   */
  function submit() {
    holdKeysUntil(send(), afterNextPaint);
  }

  async function send() {
    // Required in this order (SPEC §5); the first missing one is named and becomes the scan target.
    const missing: [string, Step, string][] = [
      [kennzeichen, 'kennzeichen', texts.transporter.kennzeichenMissing],
      [plombe, 'plombe', texts.transporter.plombeMissing],
      [container, 'container', texts.transporter.containerMissing],
    ];
    const first = missing.find(([text]) => text.trim() === '');
    if (first) {
      banner.showError(first[2]);
      setStep(first[1]);
      refocusTarget(); // from the button back to the field, even when it was the target already
      return;
    }
    const body = {
      kennzeichen: kennzeichen.trim(),
      container: container.trim(),
      plombe: plombe.trim(),
      value,
    };
    const label = `${body.kennzeichen} · ${body.plombe} · ${body.container}`;
    if (!(await capture(captureTransporter, body, label, captureKey))) return;
    setKennzeichen('');
    setPlombe('');
    setContainer('');
    setValue(0);
    setStep('kennzeichen');
  }

  return (
    <div className="stack">
      {flash}
      <ScanField
        current={step === 'kennzeichen'}
        field={fields.kennzeichen}
        label={texts.transporter.kennzeichen}
        value={kennzeichen}
        onChange={setKennzeichen}
        onScan={() => setStep('plombe')}
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
        current={step === 'plombe'}
        field={fields.plombe}
        label={texts.transporter.plombe}
        value={plombe}
        onChange={setPlombe}
        onScan={() => setStep('container')}
      />
      <ScanField
        current={step === 'container'}
        field={fields.container}
        label={texts.transporter.container}
        value={container}
        onChange={setContainer}
        onScan={submit}
      />
      <button type="button" className="button" onClick={submit}>
        {texts.transporter.submit}
      </button>
    </div>
  );
}
