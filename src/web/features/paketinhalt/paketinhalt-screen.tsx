import { memo, useCallback, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { CONFIRM_WHOLE_LINE_ABOVE } from '../../../contract/limits.ts';
import {
  klaerfall,
  type PackageContentRow,
  packageContent,
  scanPackageItem,
} from '../../../contract/paketinhalt.ts';
import { texts } from '../../../contract/texts.ts';
import { api } from '../../api/api.ts';
import { articleCode } from '../../api/article-lookups.ts';
import { ApiError } from '../../api/client.ts';
import { messageOf } from '../../api/message.ts';
import { requireSession } from '../../api/session.ts';
import { screens } from '../../paths.ts';
import { holdKeysUntil } from '../../scan/router.ts';
import { isComplete, usePacking } from '../../state/packing.tsx';
import { afterNextPaint } from '../../ui/after-paint.ts';
import { useBanner } from '../../ui/banner.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { ScanField } from '../../ui/scan-field.tsx';
import { matchingRows } from './match.ts';

/**
 * Package content (SPEC §2/§4): look up the delivery note, scan every item against it, then continue to
 * the cartons. A scan that matches no row goes to the server in the same call as an item (decision 12): it
 * may be the cheat code, which only the server knows, or another delivery note's number — then the packer
 * is asked whether to switch to that note.
 *
 * Longer than most screens: the packing station's whole scan flow stays together — note lookup, item scans
 * (with the cheat code and the note switch), the Klärfall and the step to the cartons — with the memoised
 * table the scanner types past. The table is the part to move out next.
 */
export default function PaketinhaltScreen() {
  const banner = useBanner();
  const navigate = useNavigate();
  const packing = usePacking();
  const { state } = packing;
  const [noteText, setNoteText] = useState('');
  const [itemText, setItemText] = useState('');
  const [confirmRow, setConfirmRow] = useState<{ nummer: string; lsmenge: number; scanned: string } | null>(
    null,
  );
  const [askKlaerfall, setAskKlaerfall] = useState(false);
  /** Another delivery note's number was scanned as an item: switch to it? */
  const [switchTo, setSwitchTo] = useState<string | null>(null);
  const itemRef = useRef<HTMLInputElement>(null);
  const packingNote = state.step !== null && state.lieferscheinID !== 0;

  async function lookUpNote(belegnr: string) {
    setNoteText('');
    try {
      const { data } = await api.call(packageContent, { params: { belegnr } });
      if (data.paketinhalt.length === 0) {
        banner.showError(texts.paketinhalt.noContent);
        return;
      }
      packing.start(data);
    } catch (error) {
      banner.showError(messageOf(error));
    }
  }

  /** One item scan; `unmatched`: it matches no line here (the server may know it as something else). */
  const send = useCallback(
    async (scanned: string, unmatched = false) => {
      try {
        const answer = await api.call(scanPackageItem, {
          params: { itemNr: scanned },
          body: {
            id: state.lieferscheinID,
            itemNr: scanned,
            belegnr: state.belegnr,
            eu: state.eu,
            user_id: requireSession().id,
            paketinhalt: [],
            versandart: state.versandart,
          },
          on401: 'scan',
        });
        packing.setContent(answer.data.paketinhalt);
      } catch (error) {
        const otherNote = error instanceof ApiError ? error.details?.lieferschein : undefined;
        if (otherNote) setSwitchTo(otherNote);
        else if (unmatched && error instanceof ApiError && error.status === 404)
          banner.showError(texts.paketinhalt.notInDeliveryNote);
        else banner.showError(messageOf(error));
      }
    },
    [state.lieferscheinID, state.belegnr, state.eu, state.versandart, packing, banner],
  );

  async function scanItem(text: string) {
    setItemText('');
    if (text.trim() === state.belegnr) {
      banner.showError(texts.paketinhalt.ownNoteScanned);
      return;
    }
    const named = articleCode(text); // a GS1 code's GTIN matches the line's EAN
    if (!named.ok) {
      banner.showError(named.message);
      return;
    }
    const scanned = named.code;
    const rows = matchingRows(state.packageContent, scanned);
    if (rows.length === 0) {
      await send(scanned, true);
      return;
    }
    const open = rows.find((r) => !isComplete(r));
    const [done] = rows;
    if (!open) {
      if (done) banner.showError(texts.paketinhalt.alreadyScanned(done.nummer, done.name_de));
      return;
    }
    if (open.lsmenge > CONFIRM_WHOLE_LINE_ABOVE) {
      setConfirmRow({ nummer: open.nummer, lsmenge: open.lsmenge, scanned });
      return;
    }
    await send(scanned);
  }

  async function reportKlaerfall() {
    setAskKlaerfall(false);
    try {
      await api.call(klaerfall, { body: { id: state.lieferscheinID }, on401: 'scan' });
      window.alert(texts.paketinhalt.klaerfallWrite);
      packing.clear();
      navigate(screens.paketinhalt.path, { replace: true });
    } catch (error) {
      banner.showError(messageOf(error));
    }
  }

  const complete = state.packageContent.length > 0 && state.packageContent.every(isComplete);
  const onContinue = () => {
    if (!complete) {
      // In the banner, not the browser's alert(): the next scan's Enter would close that one, its code lost.
      // Open lines never picked are named: their pieces are not at the packing station (issue 36).
      const unpicked = state.packageContent
        .filter((r) => !isComplete(r) && notPicked(r) > 0)
        .map((r) => `${r.nummer} (${notPicked(r)})`);
      banner.showError(
        unpicked.length === 0
          ? texts.paketinhalt.scanAllPositions
          : `${texts.paketinhalt.scanAllPositions} ${texts.paketinhalt.notPickedLines(unpicked.join(', '))}`,
      );
      itemRef.current?.focus(); // back to scanning
      return;
    }
    packing.goTo('kartonagen');
    navigate(screens.kartonagenerfassung.path);
  };

  if (!packingNote) {
    return (
      <div className="stack">
        <ScanField
          current
          label={texts.paketinhalt.noteLabel}
          value={noteText}
          onChange={setNoteText}
          onScan={lookUpNote}
        />
      </div>
    );
  }

  const notices: string[] = [];
  if (state.versandart === 'DHL042') notices.push(texts.paketinhalt.warenpostInternational);
  if (state.versandart === 'DHL037') notices.push(texts.paketinhalt.warenpostNational);
  if (state.eu === 0) notices.push(texts.paketinhalt.customsPapers);
  if (state.gravurArtikel) notices.push(texts.paketinhalt.engraving);

  return (
    <div className="stack">
      <div className="note-bar">
        <strong>
          {texts.paketinhalt.noteLabel} {state.belegnr}
        </strong>
        <button
          type="button"
          className="button button--secondary button--inline"
          onClick={() => {
            packing.clear();
          }}
        >
          {texts.paketinhalt.otherNote}
        </button>
      </div>
      {state.kommissioniert ? (
        <p className="picked-note">✓ {texts.paketinhalt.picked(state.kommissioniert.von)}</p>
      ) : (
        <p className="picked-note picked-note--not">{texts.paketinhalt.notPicked}</p>
      )}
      <ScanField
        ref={itemRef}
        current
        label={texts.paketinhalt.itemLabel}
        value={itemText}
        onChange={setItemText}
        onScan={scanItem}
      />
      <LastCounted row={state.packageContent.find((r) => r.id === state.lastCountedId)} />
      {complete && (
        <div className="notices" role="status" aria-label={texts.paketinhalt.complete}>
          <p>{texts.paketinhalt.complete}</p>
          {notices.map((n) => (
            <p key={n} className="notice">
              {n}
            </p>
          ))}
        </div>
      )}
      <PackageLines rows={state.packageContent} lastCountedId={state.lastCountedId} />
      <div className="inline">
        <button type="button" className="button button--danger" onClick={() => setAskKlaerfall(true)}>
          {texts.paketinhalt.klaerfall}
        </button>
        <button type="button" className="button" aria-label={texts.paketinhalt.continue} onClick={onContinue}>
          {texts.paketinhalt.continue} →
        </button>
      </div>
      {confirmRow && (
        <ConfirmDialog
          title={texts.paketinhalt.confirmAmountTitle}
          confirmLabel={texts.paketinhalt.confirmAmount}
          cancelLabel={texts.paketinhalt.cancel}
          onConfirm={() => {
            const { scanned } = confirmRow;
            setConfirmRow(null);
            // The next item's scan waits for this line's answer: it is judged on the note as it then is.
            holdKeysUntil(send(scanned), afterNextPaint);
          }}
          onCancel={() => setConfirmRow(null)}
        >
          {texts.paketinhalt.confirmAmountBody(confirmRow.lsmenge, confirmRow.nummer)}
        </ConfirmDialog>
      )}
      {switchTo && (
        <ConfirmDialog
          title={texts.paketinhalt.switchTitle}
          confirmLabel={texts.paketinhalt.switchConfirm}
          cancelLabel={texts.paketinhalt.cancel}
          onConfirm={() => {
            setSwitchTo(null);
            // The next item's scan waits for the new note: it is packed there, not on this one.
            holdKeysUntil(lookUpNote(switchTo), afterNextPaint);
          }}
          onCancel={() => setSwitchTo(null)}
        >
          {texts.paketinhalt.otherNoteScanned(switchTo)}
        </ConfirmDialog>
      )}
      {askKlaerfall && (
        <ConfirmDialog
          title={texts.paketinhalt.klaerfallTitle}
          confirmLabel={texts.paketinhalt.klaerfallConfirm}
          cancelLabel={texts.paketinhalt.cancel}
          onConfirm={reportKlaerfall}
          onCancel={() => setAskKlaerfall(false)}
        >
          {texts.paketinhalt.klaerfallBody}
        </ConfirmDialog>
      )}
    </div>
  );
}

/**
 * Pieces of the line that never left a location: not picked, and not booked out by a packing scan yet
 * (issue 36). 0 when the server does not say (a site's own backend).
 */
function notPicked(row: PackageContentRow): number {
  return row.kommissioniert === undefined ? 0 : Math.max(0, row.lsmenge - row.kommissioniert);
}

/**
 * The line the last item scan counted, right under the scan field: on a handheld only the first lines of a
 * longer note are on the screen, and the packer sees here which line the beep was for and how many of it
 * are in the parcel now, without scrolling away from the field. Always two lines high (the name cut to one),
 * so the table below does not jump from scan to scan.
 */
function LastCounted({ row }: { row: PackageContentRow | undefined }) {
  if (!row) return null;
  const done = isComplete(row);
  return (
    <p className={`last-counted${done ? ' last-counted--done' : ''}`} role="status">
      <span className="last-counted-nummer">{texts.paketinhalt.lastCounted(row.nummer)}</span>{' '}
      <span className="last-counted-name">{row.name_de}</span>{' '}
      <strong className="last-counted-amount">
        {texts.paketinhalt.lastCountedAmount(row.pemenge, row.lsmenge)}
        {done ? ' ✓' : ''}
      </strong>
    </p>
  );
}

/**
 * The note's lines. Memoised: while the scanner types the next code, only the field changes; laying out the
 * whole table at every keystroke made a handheld fall behind.
 *
 * A table whose rows are laid out one by one (`.table--lines`: each row a grid with fixed columns, not one
 * table layout over all rows), so the browser skips the rows below the screen (`content-visibility`): a
 * handheld shows 7 of the bench note's 51 lines, and laying out and painting all of them after every scan
 * took a third of the scan's time on the handheld (bench, 4× throttled). It stays a table for a screen
 * reader: Chromium's accessibility tree keeps its rows, headers and cells with this display, the skipped rows
 * too.
 */
const PackageLines = memo(function PackageLines({
  rows,
  lastCountedId,
}: {
  rows: PackageContentRow[];
  lastCountedId: number | null;
}) {
  return (
    <table className="table table--lines">
      <thead>
        <tr>
          <th>{texts.paketinhalt.nummer}</th>
          <th>{texts.paketinhalt.name}</th>
          <th className="number">{texts.paketinhalt.lsmenge}</th>
          <th className="number">{texts.paketinhalt.pemenge}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <PackageLine key={row.id} row={row} last={row.id === lastCountedId} />
        ))}
      </tbody>
    </table>
  );
});

/**
 * One line. Unchanged lines keep their object across scans (`keepUnchangedRows`): only a changed one is drawn
 * (and the one marked as counted last before it).
 */
const PackageLine = memo(function PackageLine({ row, last }: { row: PackageContentRow; last: boolean }) {
  const classes = [isComplete(row) ? 'row--done' : '', last ? 'row--last' : ''].filter(Boolean).join(' ');
  return (
    <tr className={classes || undefined}>
      <td className="code">
        {row.nummer}
        <div className="sub">
          {row.herstellernummer ?? ''} {row.ean ? `· ${row.ean}` : ''}
        </div>
      </td>
      <td>
        {row.name_de}
        {notPicked(row) > 0 && (
          <div className="sub not-picked">{texts.paketinhalt.notPickedLine(notPicked(row))}</div>
        )}
      </td>
      <td className="number">{row.lsmenge}</td>
      <td className="number">{row.pemenge}</td>
    </tr>
  );
});
