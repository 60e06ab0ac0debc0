import { useCallback, useState } from 'react';
import { retourenerfassung } from '../../../contract/capture.ts';
import { scanLimits } from '../../../contract/limits.ts';
import { texts } from '../../../contract/texts.ts';
import { messageOf } from '../../api/lookups.ts';
import { captureScan } from '../../api/outbox/index.ts';
import { useBanner } from '../../ui/banner.tsx';
import { ScanField } from '../../ui/scan-field.tsx';
import { SuccessFlash } from '../../ui/success-flash.tsx';

/**
 * Returns desk: scan the returned parcel's tracking number; success shows for 1 s. Without a connection the
 * scan waits in the outbox and is sent later ('Gespeichert – wird gesendet').
 */
export default function RetoureScreen() {
  const banner = useBanner();
  const [text, setText] = useState('');
  const [success, setSuccess] = useState<'captured' | 'saved' | null>(null);

  async function capture(tracking: string) {
    setText('');
    try {
      const outcome = await captureScan(retourenerfassung, { tracking }, tracking);
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
          text={success === 'saved' ? texts.outbox.saved : texts.retoure.captured}
          saved={success === 'saved'}
          onDone={endSuccess}
        />
      )}
      <ScanField
        current
        maxLength={scanLimits.tracking}
        label={texts.retoure.tracking}
        value={text}
        onChange={setText}
        onScan={capture}
      />
    </div>
  );
}
