import { retourenerfassung } from '../../../contract/retoure.ts';
import { texts } from '../../../contract/texts.ts';
import { CaptureScreen } from '../../ui/capture.tsx';

/**
 * Returns desk: scan the returned parcel's tracking number; success shows for 1 s. Without a connection the
 * scan waits in the outbox and is sent later ('Gespeichert – wird gesendet').
 */
export default function RetoureScreen() {
  return (
    <CaptureScreen
      label={texts.retoure.tracking}
      doneText={texts.retoure.captured}
      call={retourenerfassung}
      body={(tracking) => ({ tracking })}
      field={retourenerfassung.body.shape.tracking}
    />
  );
}
