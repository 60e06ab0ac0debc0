import { useState } from 'react';
import { useNavigate } from 'react-router';
import { paketausgang, paketausgangCompare } from '../../../contract/paketausgang.ts';
import { texts } from '../../../contract/texts.ts';
import { api } from '../../api/api.ts';
import { messageOf } from '../../api/message.ts';
import { captureScan } from '../../api/outbox/index.ts';
import { screens } from '../../paths.ts';
import { usePacking } from '../../state/packing.tsx';
import { useBanner } from '../../ui/banner.tsx';
import { ScanField } from '../../ui/scan-field.tsx';
import { arrivalFlash } from '../../ui/success-flash.tsx';

/** How long the carrier's picture stays after the compare, over the next delivery note's scan. */
const COMPARE_DONE_MS = 1500;

/**
 * Outgoing parcel (SPEC §2): capture by tracking number, or — as the last step of packing — compare the
 * parcel's tracking number with the delivery note just packed. Shows the carrier's picture. Without a
 * connection a plain capture waits in the outbox ('Gespeichert – wird gesendet'); the compare stays online,
 * as the packer must know at once whether the label belongs to the note.
 */
export default function PaketausgangScreen() {
  const banner = useBanner();
  const navigate = useNavigate();
  const packing = usePacking();
  const compareFor =
    packing.state.step === 'ausgang' && packing.state.belegnr !== '' ? packing.state.belegnr : null;
  const [text, setText] = useState('');
  /** carrier null: kept in the outbox, the server has not answered yet. */
  const [captured, setCaptured] = useState<{ tracking: string; carrier: string | null } | null>(null);

  async function capture(tracking: string) {
    setText('');
    setCaptured(null);
    try {
      if (compareFor) {
        const answer = await api.call(paketausgangCompare, {
          body: { tracking, belegnr: compareFor },
          on401: 'scan',
        });
        // Packed: the next delivery note can be scanned at once, under the carrier's picture.
        packing.clear();
        navigate(screens.paketinhalt.path, {
          state: arrivalFlash(
            `${texts.paketausgang.captured} ${tracking}`,
            answer.carrier === 'no-image'
              ? { durationMs: COMPARE_DONE_MS }
              : { durationMs: COMPARE_DONE_MS, image: carrierImage(answer.carrier) },
          ),
        });
      } else {
        const outcome = await captureScan(paketausgang, { tracking }, tracking);
        setCaptured({ tracking, carrier: outcome.saved ? null : outcome.answer.carrier });
      }
    } catch (error) {
      banner.showError(messageOf(error));
    }
  }

  return (
    <div className="stack">
      {compareFor && <h2>{texts.paketausgang.compareFor(compareFor)}</h2>}
      <ScanField
        current
        field={paketausgang.body.shape.tracking}
        label={texts.paketausgang.tracking}
        value={text}
        onChange={setText}
        onScan={capture}
      />
      {captured && (
        <output className="captured" aria-live="polite">
          {captured.carrier === null ? (
            <span className="captured-text captured-text--saved">✉ {texts.outbox.saved}</span>
          ) : captured.carrier !== 'no-image' ? (
            <img
              className="carrier-image"
              src={carrierImage(captured.carrier).src}
              alt={carrierImage(captured.carrier).alt}
              width={320}
              height={240}
            />
          ) : (
            <span className="captured-text">✓ {texts.paketausgang.captured}</span>
          )}
          <span className="sub">{captured.tracking}</span>
        </output>
      )}
    </div>
  );
}

function carrierImage(carrier: string) {
  return {
    src: `/images/carrier/${encodeURIComponent(carrier)}.jpg`,
    alt: texts.paketausgang.carrierImage(carrier),
  };
}
