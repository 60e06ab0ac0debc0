import { useState } from 'react';
import { texts } from '../../../contract/texts.ts';
import { locationContent, moveLocation } from '../../../contract/umbuchung.ts';
import { api } from '../../api/api.ts';
import { type FoundLocation, lookUpLocation } from '../../api/lookups.ts';
import { messageOf } from '../../api/message.ts';
import { useScanTarget } from '../../scan/use-scan-target.ts';
import { useBanner } from '../../ui/banner.tsx';
import { BookingConfirm, useBooking } from '../../ui/booking.tsx';
import { type ContentRow, LocationContentTable } from '../../ui/location-content-table.tsx';
import { LookupField, useLookup } from '../../ui/lookup-field.tsx';

/** Whole-location rebooking (SPEC §2): everything on one location goes to another, after a confirm in the page. */
export default function UmbuchungScreen() {
  const banner = useBanner();
  const from = useLookup<FoundLocation>();
  const to = useLookup<FoundLocation>();
  const [content, setContent] = useState<ContentRow[] | null>(null);
  const booking = useBooking(moveLocation, {
    // The server's 'n Artikel von … nach … umgebucht.'
    done: (answer) => answer.message,
    durationMs: 2000,
    onBooked: () => {
      from.clear();
      to.clear();
      setContent(null);
    },
  });

  // Scan target: from, then to; with both chosen the next step is a tap, so a scan is refused out loud.
  useScanTarget(from.value && to.value ? { kind: 'none', expects: texts.umbuchung.readyToMove } : null);

  async function chooseFrom(code: string) {
    const found = await lookUpLocation(code);
    if (!found.ok) return from.refuse(found.message);
    if (to.value && found.value.id === to.value.id) return from.refuse(texts.umlagern.sameLocation);
    from.choose(found.value);
    try {
      setContent(await api.call(locationContent, { params: { lpId: found.value.id } }));
    } catch (error) {
      banner.showError(messageOf(error));
    }
  }

  async function chooseTo(code: string) {
    const found = await lookUpLocation(code);
    if (!found.ok) return to.refuse(found.message);
    // Refused at the scan, not only when 'Alles umbuchen' is tapped.
    if (from.value && found.value.id === from.value.id) return to.refuse(texts.umlagern.sameLocation);
    to.choose(found.value);
  }

  function submit() {
    if (booking.busy) return;
    if (!from.value || !to.value) {
      const first = from.value ? to : from;
      from.flagIfMissing();
      to.flagIfMissing();
      banner.showError(texts.umbuchung.bothNeeded);
      first.ref.current?.focus();
      return;
    }
    booking.ask({ from: from.value.id, to: to.value.id });
  }

  const [source, target] = [from.value, to.value];
  return (
    <div className="stack">
      {booking.flash}
      <LookupField
        lookup={from}
        label={texts.umbuchung.from}
        show={(l) => l.name}
        onScan={chooseFrom}
        current={!from.value}
        onClear={() => setContent(null)}
      />
      <LookupField
        lookup={to}
        label={texts.umbuchung.to}
        show={(l) => l.name}
        onScan={chooseTo}
        current={from.value !== null && !to.value}
      />
      <button type="button" className="button" disabled={booking.busy} onClick={submit}>
        {texts.umbuchung.submit}
      </button>
      {source && target && (
        <BookingConfirm
          booking={booking}
          title={texts.umbuchung.confirmTitle}
          confirmLabel={texts.umbuchung.confirmButton}
          cancelLabel={texts.umbuchung.cancel}
        >
          {() => <p className="dialog-lines">{texts.umbuchung.confirmBody(source.name, target.name)}</p>}
        </BookingConfirm>
      )}
      {content && <LocationContentTable heading={texts.umbuchung.contentHeading} rows={content} />}
    </div>
  );
}
