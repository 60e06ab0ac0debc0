import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { paketausgang, paketausgangCompare } from '../../../contract/capture.ts';
import { texts } from '../../../contract/texts.ts';
import { api } from '../../api/api.ts';
import { messageOf } from '../../api/lookups.ts';
import { usePacking } from '../../state/packing.tsx';
import { useBanner } from '../../ui/banner.tsx';
import { ScanField } from '../../ui/scan-field.tsx';

/** How long the confirmation stays after the compare before the next delivery note. */
const COMPARE_DONE_MS = 1500;

/**
 * Outgoing parcel (SPEC §2): capture by tracking number, or — as the last step of packing — compare the
 * parcel's tracking number with the delivery note just packed. Shows the carrier's picture.
 */
export default function PaketausgangScreen() {
  const banner = useBanner();
  const navigate = useNavigate();
  const packing = usePacking();
  const compareFor =
    packing.state.step === 'ausgang' && packing.state.belegnr !== '' ? packing.state.belegnr : null;
  const [text, setText] = useState('');
  const [captured, setCaptured] = useState<{ tracking: string; carrier: string } | null>(null);
  const fieldRef = useRef<HTMLInputElement>(null);

  useEffect(() => fieldRef.current?.focus(), []);

  const finishFlow = useCallback(() => {
    packing.clear();
    navigate('/paketinhalt');
  }, [packing.clear, navigate]);

  async function capture(tracking: string) {
    setText('');
    setCaptured(null);
    try {
      const answer = compareFor
        ? await api.call(paketausgangCompare, {
            body: { tracking, belegnr: compareFor },
            on401: 'scan',
          })
        : await api.call(paketausgang, {
            body: { tracking },
            on401: 'scan',
          });
      setCaptured({ tracking, carrier: answer.carrier });
      if (compareFor) setTimeout(finishFlow, COMPARE_DONE_MS);
    } catch (error) {
      banner.showError(messageOf(error));
    }
    fieldRef.current?.focus();
  }

  return (
    <div className="stack">
      {compareFor && <h2>{texts.paketausgang.compareFor(compareFor)}</h2>}
      <ScanField
        ref={fieldRef}
        label={texts.paketausgang.tracking}
        value={text}
        onChange={setText}
        onScan={capture}
      />
      {captured && (
        <output className="captured" aria-live="polite">
          {captured.carrier !== 'no-image' ? (
            <img
              className="carrier-image"
              src={`/images/carrier/${encodeURIComponent(captured.carrier)}.jpg`}
              alt={texts.paketausgang.carrierImage(captured.carrier)}
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
