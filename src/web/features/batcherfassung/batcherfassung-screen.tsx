import { useCallback, useState } from 'react';
import { captureBatch } from '../../../contract/capture.ts';
import { texts } from '../../../contract/texts.ts';
import { messageOf } from '../../api/lookups.ts';
import { captureScan } from '../../api/outbox/index.ts';
import { useBanner } from '../../ui/banner.tsx';
import { ScanField } from '../../ui/scan-field.tsx';
import { SuccessFlash } from '../../ui/success-flash.tsx';

/**
 * Batch capture (SPEC §2): at most six characters; empty input is ignored; success shows for 1 s. Without a
 * connection the scan waits in the outbox ('Gespeichert – wird gesendet').
 */
export default function BatcherfassungScreen() {
  const banner = useBanner();
  const [text, setText] = useState('');
  const [success, setSuccess] = useState<'captured' | 'saved' | null>(null);

  async function capture(batch: string) {
    setText('');
    if (batch.length > 6) {
      banner.showError(texts.batch.tooLong);
      return;
    }
    try {
      const outcome = await captureScan(captureBatch, { batch }, batch);
      setSuccess(outcome.saved ? 'saved' : 'captured');
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
      <ScanField current label={texts.batch.label} value={text} onChange={setText} onScan={capture} />
    </div>
  );
}
