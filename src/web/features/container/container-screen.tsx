import { useState } from 'react';
import { captureContainer } from '../../../contract/container.ts';
import { BATCH_NUMBER_MAX } from '../../../contract/limits.ts';
import { texts } from '../../../contract/texts.ts';
import { useScanTarget } from '../../scan/use-scan-target.ts';
import { useBanner } from '../../ui/banner.tsx';
import { useCapture } from '../../ui/capture.tsx';
import { ScanField } from '../../ui/scan-field.tsx';

type Option = 'gls' | 'dhl' | 'glsProd' | 'diakonie';
/** SPEC §4: DHL, GLS Prod and Diakonie fix the container code; GLS needs the Wechselbrücke scanned. */
const FIXED: Record<Exclude<Option, 'gls'>, string> = {
  dhl: 'ABGESCHLOSSENDHL',
  glsProd: 'GLSPROD',
  diakonie: 'DIAKONIE',
};
const OPTIONS: Option[] = ['gls', 'dhl', 'glsProd', 'diakonie'];

/**
 * Container capture (Wechselbrücke): choose the carrier, (GLS: scan the swap body), then scan the batch.
 * Without a connection the scan waits in the outbox ('Gespeichert – wird gesendet').
 */
export default function ContainerScreen() {
  const banner = useBanner();
  const [option, setOption] = useState<Option | null>(null);
  const [container, setContainer] = useState('');
  /** GLS: the swap body was scanned (Enter), so batches come next. Typing in its field starts it anew. */
  const [containerScanned, setContainerScanned] = useState(false);
  const [batch, setBatch] = useState('');
  const { capture: send, flash } = useCapture(texts.batch.done);

  // The scan target: first a carrier option (tapped, not scanned), for GLS the swap body, then batches.
  const step = option === null ? 'option' : option === 'gls' && !containerScanned ? 'container' : 'batch';
  useScanTarget(step === 'option' ? { kind: 'none', expects: texts.container.chooseOption } : null);

  function choose(next: Option) {
    setOption(next);
    setBatch('');
    setContainer(next === 'gls' ? '' : FIXED[next]); // switching carrier clears the input
    setContainerScanned(false);
  }

  async function capture(scanned: string) {
    setBatch('');
    if (!option || container.trim() === '') {
      banner.showError(texts.container.chooseOption);
      return;
    }
    if (scanned.length > BATCH_NUMBER_MAX) {
      banner.showError(texts.batch.tooLong);
      return;
    }
    const body = { container: container.trim(), batch: scanned };
    await send(captureContainer, body, `${body.container} · ${scanned}`);
  }

  return (
    <div className="stack">
      {flash}
      <div className="menu">
        {OPTIONS.filter((o) => option === null || o === option).map((o) => (
          <button
            key={o}
            type="button"
            className="menu-button"
            aria-pressed={option === o}
            onClick={() => choose(o)}
          >
            {texts.container[o]}
          </button>
        ))}
        {option && (
          <button
            type="button"
            className="menu-button menu-button--secondary"
            onClick={() => setOption(null)}
          >
            {texts.container.change}
          </button>
        )}
      </div>
      {option === 'gls' && (
        <ScanField
          label={texts.container.wechselbruecke}
          field={captureContainer.body.shape.container}
          value={container}
          onChange={(text) => {
            setContainer(text);
            setContainerScanned(false);
          }}
          onScan={() => setContainerScanned(true)}
          current={step === 'container'}
        />
      )}
      <ScanField
        label={texts.container.batchLabel}
        value={batch}
        onChange={setBatch}
        onScan={capture}
        current={step === 'batch'}
      />
    </div>
  );
}
