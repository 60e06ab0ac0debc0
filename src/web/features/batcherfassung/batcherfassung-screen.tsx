import { useCallback, useEffect, useRef, useState } from 'react';
import { captureBatch } from '../../../contract/capture.ts';
import { texts } from '../../../contract/texts.ts';
import { api } from '../../api/api.ts';
import { messageOf } from '../../api/lookups.ts';
import { useBanner } from '../../ui/banner.tsx';
import { ScanField } from '../../ui/scan-field.tsx';
import { SuccessFlash } from '../../ui/success-flash.tsx';

/** Batch capture (SPEC §2): at most six characters; empty input is ignored; success shows for 1 s. */
export default function BatcherfassungScreen() {
  const banner = useBanner();
  const [text, setText] = useState('');
  const [success, setSuccess] = useState(false);
  const fieldRef = useRef<HTMLInputElement>(null);
  useEffect(() => fieldRef.current?.focus(), []);

  async function capture(batch: string) {
    setText('');
    if (batch.length > 6) {
      banner.showError(texts.batch.tooLong);
      return;
    }
    try {
      await api.call(captureBatch, { body: { batch }, on401: 'scan' });
      setSuccess(true);
    } catch (error) {
      banner.showError(messageOf(error));
    }
    fieldRef.current?.focus();
  }

  const endSuccess = useCallback(() => setSuccess(false), []);
  return (
    <div className="stack">
      {success && <SuccessFlash text={texts.batch.done} onDone={endSuccess} />}
      <ScanField ref={fieldRef} label={texts.batch.label} value={text} onChange={setText} onScan={capture} />
    </div>
  );
}
