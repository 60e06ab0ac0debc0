import { useCallback, useEffect, useRef, useState } from 'react';
import { retourenerfassung } from '../../../contract/capture.ts';
import { texts } from '../../../contract/texts.ts';
import { api } from '../../api/api.ts';
import { messageOf } from '../../api/lookups.ts';
import { useBanner } from '../../ui/banner.tsx';
import { ScanField } from '../../ui/scan-field.tsx';
import { SuccessFlash } from '../../ui/success-flash.tsx';

/** Returns desk: scan the returned parcel's tracking number; success shows for 1 s. */
export default function RetoureScreen() {
  const banner = useBanner();
  const [text, setText] = useState('');
  const [success, setSuccess] = useState(false);
  const fieldRef = useRef<HTMLInputElement>(null);
  useEffect(() => fieldRef.current?.focus(), []);

  async function capture(tracking: string) {
    setText('');
    try {
      await api.call(retourenerfassung, { body: { tracking }, on401: 'scan' });
      setSuccess(true);
    } catch (error) {
      banner.showError(messageOf(error));
    }
    fieldRef.current?.focus();
  }

  const endSuccess = useCallback(() => setSuccess(false), []);
  return (
    <div className="stack">
      {success && <SuccessFlash text={texts.retoure.captured} onDone={endSuccess} />}
      <ScanField
        ref={fieldRef}
        label={texts.retoure.tracking}
        value={text}
        onChange={setText}
        onScan={capture}
      />
    </div>
  );
}
