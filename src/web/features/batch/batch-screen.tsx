import { useCallback, useState } from 'react';
import { assignBatch, batchByDeliveryNote } from '../../../contract/batch.ts';
import { texts } from '../../../contract/texts.ts';
import { api } from '../../api/api.ts';
import { messageOf } from '../../api/message.ts';
import { useBanner } from '../../ui/banner.tsx';
import { LockedValue, ScanField } from '../../ui/scan-field.tsx';
import { SuccessFlash } from '../../ui/success-flash.tsx';

/** Batch via delivery note (SPEC §2): the note gives the batch, the employee's card takes it; success 2 s. */
export default function BatchScreen() {
  const banner = useBanner();
  const [batch, setBatch] = useState<string | null>(null);
  const [noteText, setNoteText] = useState('');
  const [cardText, setCardText] = useState('');
  const [success, setSuccess] = useState(false);

  async function lookUp(belegnr: string) {
    setNoteText('');
    try {
      const { data } = await api.call(batchByDeliveryNote, { params: { belegnr } });
      if (data.lieferschein === '') {
        banner.showError(texts.batch.notDetermined);
        return;
      }
      setBatch(data.lieferschein);
    } catch (error) {
      banner.showError(messageOf(error));
    }
  }

  async function assign(card: string) {
    setCardText('');
    if (!batch) return;
    try {
      await api.call(assignBatch, { body: { lieferschein: batch, qrcode: card }, on401: 'scan' });
      setBatch(null);
      setSuccess(true);
    } catch (error) {
      banner.showError(messageOf(error));
    }
  }

  const endSuccess = useCallback(() => setSuccess(false), []);
  return (
    <div className="stack">
      {success && <SuccessFlash text={texts.batch.done} durationMs={2000} onDone={endSuccess} />}
      {batch ? (
        <LockedValue
          label={texts.batch.noteLabel}
          value={texts.batch.batchOfNote(batch)}
          onClear={() => setBatch(null)}
        />
      ) : (
        <ScanField
          current
          label={texts.batch.noteLabel}
          value={noteText}
          onChange={setNoteText}
          onScan={lookUp}
        />
      )}
      <ScanField
        current={batch !== null}
        secret
        field={assignBatch.body.shape.qrcode}
        label={texts.batch.employeeLabel}
        value={cardText}
        onChange={setCardText}
        onScan={assign}
        disabled={!batch}
      />
    </div>
  );
}
