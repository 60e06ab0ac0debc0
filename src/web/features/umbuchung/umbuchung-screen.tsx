import { useCallback, useRef, useState } from 'react';
import { texts } from '../../../contract/texts.ts';
import { locationContent, moveLocation } from '../../../contract/umbuchung.ts';
import { useActionKey } from '../../api/action-key.ts';
import { api } from '../../api/api.ts';
import { type FoundLocation, lookUpLocation, messageOf } from '../../api/lookups.ts';
import { useScanTarget } from '../../scan/use-scan-target.ts';
import { useBanner } from '../../ui/banner.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { type ContentRow, LocationContentTable } from '../../ui/location-content-table.tsx';
import { LockedValue, ScanField } from '../../ui/scan-field.tsx';
import { SuccessFlash } from '../../ui/success-flash.tsx';

/** Whole-location rebooking (SPEC §2): everything on one location goes to another, after a native confirm. */
export default function UmbuchungScreen() {
  const banner = useBanner();
  const [from, setFrom] = useState<FoundLocation | null>(null);
  const [to, setTo] = useState<FoundLocation | null>(null);
  const [fromText, setFromText] = useState('');
  const [toText, setToText] = useState('');
  const [content, setContent] = useState<ContentRow[] | null>(null);
  const [missing, setMissing] = useState({ from: false, to: false });
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  /** The server's 'n Artikel von … nach … umgebucht.', shown as the success view. */
  const [done, setDone] = useState<string | null>(null);
  const endDone = useCallback(() => setDone(null), []);
  const moveKey = useActionKey();
  const fromRef = useRef<HTMLInputElement>(null);
  const toRef = useRef<HTMLInputElement>(null);

  // Scan target: from, then to; with both chosen the next step is a tap, so a scan is refused out loud.
  useScanTarget(from && to ? { kind: 'none', expects: texts.umbuchung.readyToMove } : null);

  async function chooseFrom(code: string) {
    const found = await lookUpLocation(code);
    if (!found.ok) {
      banner.showError(found.message);
      setFromText('');
      return;
    }
    if (to && found.value.id === to.id) {
      banner.showError(texts.umlagern.sameLocation);
      setFromText('');
      return;
    }
    setFrom(found.value);
    setMissing((m) => ({ ...m, from: false }));
    try {
      setContent(await api.call(locationContent, { params: { lpId: found.value.id } }));
    } catch (error) {
      banner.showError(messageOf(error));
    }
  }

  async function chooseTo(code: string) {
    const found = await lookUpLocation(code);
    if (!found.ok) {
      banner.showError(found.message);
      setToText('');
      return;
    }
    // Refused at the scan, not only when 'Alles umbuchen' is tapped.
    if (from && found.value.id === from.id) {
      banner.showError(texts.umlagern.sameLocation);
      setToText('');
      return;
    }
    setTo(found.value);
    setMissing((m) => ({ ...m, to: false }));
  }

  async function submit() {
    if (busy) return;
    if (!from || !to) {
      setMissing({ from: !from, to: !to });
      banner.showError(texts.umbuchung.bothNeeded);
      (!from ? fromRef : toRef).current?.focus();
      return;
    }
    if (from.id === to.id) {
      banner.showError(texts.umlagern.sameLocation);
      return;
    }
    // Asked in the page, not with the browser's confirm(): a scanner's Enter would answer that one.
    setConfirming(true);
  }

  async function move() {
    setConfirming(false);
    if (!from || !to || busy) return;
    setBusy(true);
    try {
      const body = { from: from.id, to: to.id };
      const answer = await moveKey.send(body, (idempotencyKey) =>
        api.call(moveLocation, {
          body,
          idempotencyKey,
          on401: 'scan',
        }),
      );
      setDone(answer.message);
      setFrom(null);
      setTo(null);
      setFromText('');
      setToText('');
      setContent(null);
    } catch (error) {
      banner.showError(messageOf(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="stack">
      {done && <SuccessFlash text={done} durationMs={2000} onDone={endDone} />}
      {from ? (
        <LockedValue
          label={texts.umbuchung.from}
          value={from.name}
          onClear={() => {
            setFrom(null);
            setFromText('');
            setContent(null);
          }}
        />
      ) : (
        <ScanField
          ref={fromRef}
          label={texts.umbuchung.from}
          value={fromText}
          onChange={setFromText}
          onScan={chooseFrom}
          current={!from}
          invalid={missing.from}
        />
      )}
      {to ? (
        <LockedValue
          label={texts.umbuchung.to}
          value={to.name}
          onClear={() => {
            setTo(null);
            setToText('');
          }}
        />
      ) : (
        <ScanField
          ref={toRef}
          label={texts.umbuchung.to}
          value={toText}
          onChange={setToText}
          onScan={chooseTo}
          current={from !== null && !to}
          invalid={missing.to}
        />
      )}
      <button type="button" className="button" disabled={busy} onClick={submit}>
        {texts.umbuchung.submit}
      </button>
      {confirming && from && to && (
        <ConfirmDialog
          title={texts.umbuchung.confirmTitle}
          confirmLabel={texts.umbuchung.confirmButton}
          cancelLabel={texts.umbuchung.cancel}
          onConfirm={() => void move()}
          onCancel={() => setConfirming(false)}
        >
          <p className="dialog-lines">{texts.umbuchung.confirmBody(from.name, to.name)}</p>
        </ConfirmDialog>
      )}
      {content && <LocationContentTable heading={texts.umbuchung.contentHeading} rows={content} />}
    </div>
  );
}
