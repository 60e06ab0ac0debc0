import { useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { packageRecording, savePackageRecording } from '../../../contract/kartonagen.ts';
import { texts } from '../../../contract/texts.ts';
import { api } from '../../api/api.ts';
import { messageOf } from '../../api/message.ts';
import { requireSession } from '../../api/session.ts';
import { screens } from '../../paths.ts';
import { useScanTarget } from '../../scan/use-scan-target.ts';
import { usePacking } from '../../state/packing.tsx';
import { useBanner } from '../../ui/banner.tsx';
import { useBooking } from '../../ui/booking.tsx';
import { Counter } from '../../ui/counter.tsx';
import { ScanField } from '../../ui/scan-field.tsx';
import { arrivalFlash } from '../../ui/success-flash.tsx';

type Carton = {
  packageid: number;
  name: string;
  amount: number;
  height: number;
  width: number;
  depth: number;
};

/**
 * Cartons used for a delivery note (SPEC §2): standalone by scanning the note, or as step 2 of the packing
 * flow, which then continues to the parcel-out compare.
 */
export default function KartonagenScreen() {
  const banner = useBanner();
  const navigate = useNavigate();
  const packing = usePacking();
  const inFlow = packing.state.step === 'kartonagen' && packing.state.belegnr !== '';
  const [note, setNote] = useState<{ id: number; belegnr: string } | null>(null);
  const [cartons, setCartons] = useState<Carton[] | null>(null);
  const [noteText, setNoteText] = useState('');
  const [picture, setPicture] = useState<Carton | null>(null);
  // The next note's scan, come while the cartons are being saved, waits for the note field (or the parcel).
  const saving = useBooking(savePackageRecording, {
    params: (body) => ({ id: body.id }),
    // In the packing flow the next step shows it: it takes scans at once, the confirmation over it.
    done: () => (inFlow ? null : texts.kartonagen.saved),
    onBooked: () => {
      if (inFlow) {
        packing.goTo('ausgang');
        navigate(screens.paketausgang.path, { state: arrivalFlash(texts.kartonagen.saved) });
      } else {
        setNote(null);
        setCartons(null);
      }
    },
  });
  // Scan target: the delivery note; once its cartons are shown they are counted by tapping, not scanned.
  useScanTarget(note || inFlow ? { kind: 'none', expects: texts.kartonagen.countThenSave } : null);

  const load = useCallback(
    async (belegnr: string) => {
      try {
        const { data } = await api.call(packageRecording, { params: { belegnr } });
        setNote({ id: data.id, belegnr: data.belegnr });
        setCartons(data.kartonagen);
        packing.setPackages(data.kartonagen.map((k) => ({ id: k.packageid, amount: k.amount })));
        if (data.kartonagen.length === 0) banner.showError(texts.kartonagen.noCartons);
      } catch (error) {
        banner.showError(messageOf(error));
      }
    },
    [packing.setPackages, banner],
  );

  const flowNote = inFlow ? packing.state.belegnr : null;
  useEffect(() => {
    if (flowNote) void load(flowNote);
  }, [flowNote, load]);

  const amountOf = (id: number) => packing.state.packages.find((p) => p.id === id)?.amount ?? 0;

  function save() {
    if (!note) return;
    try {
      void saving.book({
        id: note.id,
        belegnr: note.belegnr,
        user_id: requireSession().id,
        kartonagen: packing.state.packages.map((p) => ({ packageid: p.id, amount: p.amount })),
      });
    } catch (error) {
      banner.showError(messageOf(error)); // the login is gone: refused as a 401 would refuse it
    }
  }

  return (
    <div className="stack">
      {saving.flash}
      {!note && !inFlow && (
        <ScanField
          current
          label={texts.paketinhalt.noteLabel}
          value={noteText}
          onChange={setNoteText}
          onScan={(belegnr) => {
            setNoteText('');
            void load(belegnr);
          }}
        />
      )}
      {note && (
        <p>
          <strong>
            {texts.paketinhalt.noteLabel} {note.belegnr}
          </strong>
        </p>
      )}
      {cartons?.map((carton) => (
        <div key={carton.packageid} className="carton">
          <button
            type="button"
            className="link-button"
            onClick={() => setPicture(carton)}
            aria-label={texts.kartonagen.image(carton.name)}
          >
            <span className="carton-name">{carton.name}</span>
            <br />
            <span className="sub">
              {texts.kartonagen.dimensions(carton.height, carton.width, carton.depth)}
            </span>
          </button>
          <Counter
            label={carton.name}
            value={amountOf(carton.packageid)}
            onChange={(next) => packing.setPackageAmount(carton.packageid, next)}
          />
        </div>
      ))}
      {note && (
        <button type="button" className="button" disabled={saving.busy} onClick={save}>
          {texts.kartonagen.save}
        </button>
      )}
      {picture && (
        <dialog open className="dialog dialog--inline" aria-label={texts.kartonagen.image(picture.name)}>
          <img
            className="carton-image"
            src={`/images/kartonagen/${picture.packageid}.jpg`}
            alt={texts.kartonagen.image(picture.name)}
            width={320}
            height={240}
          />
          <button type="button" className="button" onClick={() => setPicture(null)}>
            {texts.kartonagen.close}
          </button>
        </dialog>
      )}
    </div>
  );
}
