import { captureBatch } from '../../../contract/batch.ts';
import { BATCH_NUMBER_MAX } from '../../../contract/limits.ts';
import { texts } from '../../../contract/texts.ts';
import { CaptureScreen } from '../../ui/capture.tsx';

/**
 * Batch capture (SPEC §2): at most six characters; empty input is ignored; success shows for 1 s. Without a
 * connection the scan waits in the outbox ('Gespeichert – wird gesendet').
 */
export default function BatcherfassungScreen() {
  return (
    <CaptureScreen
      label={texts.batch.label}
      doneText={texts.batch.done}
      call={captureBatch}
      body={(batch) => ({ batch })}
      check={(batch) => (batch.length > BATCH_NUMBER_MAX ? texts.batch.tooLong : null)}
    />
  );
}
