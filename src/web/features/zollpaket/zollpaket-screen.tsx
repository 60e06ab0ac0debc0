import { useCallback, useEffect, useRef, useState } from 'react';
import { texts } from '../../../contract/texts.ts';
import { checkWagen, findWagen, zollHistory, zollPaket } from '../../../contract/zollpaket.ts';
import { api } from '../../api/api.ts';
import { ApiError } from '../../api/client.ts';
import { messageOf } from '../../api/message.ts';
import { holdKeysUntil, holdKeysWhile, SCAN_ATTRIBUTE } from '../../scan/router.ts';
import { useScanTarget } from '../../scan/use-scan-target.ts';
import { afterNextPaint } from '../../ui/after-paint.ts';
import { useBanner } from '../../ui/banner.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { type Column, DataTable } from '../../ui/data-table.tsx';
import { clockTime } from '../../ui/format.ts';
import { PrintLabelButton } from '../../ui/print-label.tsx';

type Cart = { wagennummer: string; name: string };
type HistoryRow = { time: string; lieferschein: string; wagennummer: string };

/** SPEC §4: the success flash lasts about 800 ms; after closing a cart the form resets after 1000 ms. */
const CAPTURED_MS = 800;
const CLOSED_MS = 1000;

/**
 * Customs parcels (SPEC §2 "Customs parcel form stages", §4, §8): 'Neu' → cart number → delivery notes onto
 * the cart, 'Abschließen' after a confirm. The history 'Gescannte Pakete' reloads after each scan.
 *
 * Longer than most screens: SPEC §2's form stages each have their own scan target and two of them reset on
 * a timer; kept in one file so the stages read in order.
 */
export default function ZollpaketScreen() {
  const banner = useBanner();
  const [stage, setStage] = useState<'neu' | 'wagen' | 'lieferschein'>('neu');
  const [cart, setCart] = useState<Cart | null>(null);
  const [info, setInfo] = useState<string | null>(null);
  const [cartText, setCartText] = useState('');
  const [noteText, setNoteText] = useState('');
  const [flash, setFlash] = useState<string | null>(null);
  const [askClose, setAskClose] = useState(false);
  const [history, setHistory] = useState<HistoryRow[] | null>(null);
  const cartRef = useRef<HTMLInputElement>(null);
  const noteRef = useRef<HTMLInputElement>(null);
  const neuRef = useRef<HTMLButtonElement>(null);

  // The scan target is the input of each stage (and has the focus); before a cart is chosen, 'Neu' has it
  // (a person's Enter presses it) and a scan is refused out loud.
  // The second after a cart was closed belongs to the next cart: its notes cannot go on this one.
  const closed = flash === texts.zollpaket.cartClosed;
  useScanTarget(
    stage === 'neu' || closed
      ? { kind: 'none', expects: texts.zollpaket.pressNew }
      : stage === 'wagen'
        ? { kind: 'field', label: texts.zollpaket.cartPlaceholder, input: () => cartRef.current }
        : { kind: 'field', label: texts.zollpaket.notePlaceholder, input: () => noteRef.current },
  );
  useEffect(() => {
    if (stage === 'neu' && !askClose) neuRef.current?.focus();
  }, [stage, askClose]);

  /** Keys of the next scan wait for this answer (the field may be cleared by it), then go to the target. */
  const holdDuring = (answer: Promise<unknown>, field: HTMLInputElement | null) => {
    if (field) holdKeysWhile(answer, field, afterNextPaint);
  };

  const loadHistory = useCallback(async () => {
    try {
      setHistory((await api.call(zollHistory)).data);
    } catch {
      // SPEC §7: errors of the history call are ignored.
    }
  }, []);

  /** The cart's scan, come right after the tap, waits for the answer and lands in the cart field. */
  function neu() {
    holdKeysUntil(openCart(), afterNextPaint);
  }

  async function openCart() {
    try {
      const open = await api.call(checkWagen);
      if (open.found && open.wagennummer) {
        setCart({ wagennummer: open.wagennummer, name: open.bezeichnung ?? open.wagennummer });
        setInfo(texts.zollpaket.cartStillOpen(open.bezeichnung ?? open.wagennummer));
        setStage('lieferschein');
        void loadHistory();
      } else {
        setStage('wagen');
      }
    } catch (error) {
      banner.showError(messageOf(error));
    }
  }

  async function scanCart() {
    const number = cartText.trim();
    if (number === '') return;
    try {
      const found = await api.call(findWagen, { params: { wagennummer: number } });
      if (!found.found) {
        banner.showError(found.message);
        setCartText('');
        return;
      }
      const open = await api.call(checkWagen);
      setCart({ wagennummer: number, name: open.bezeichnung ?? number });
      setCartText('');
      setStage('lieferschein');
      void loadHistory();
    } catch (error) {
      banner.showError(messageOf(error));
      setCartText('');
    }
  }

  async function sendNote(close: boolean) {
    if (!cart) {
      banner.showError(texts.container.chooseOption);
      return;
    }
    const lieferschein = noteText.trim();
    if (!close && lieferschein === '') return;
    try {
      const answer = await api.call(zollPaket, {
        body: { lieferschein, wagennummer: cart.wagennummer, close },
        on401: 'scan',
      });
      if (!answer.success) throw new ApiError(400, answer.message);
      setNoteText('');
      setInfo(null);
      void loadHistory();
      if (close) {
        setFlash(texts.zollpaket.cartClosed);
        setTimeout(() => {
          setFlash(null);
          setCart(null);
          setHistory(null);
          setStage('neu');
        }, CLOSED_MS);
      } else {
        setFlash(texts.zollpaket.captured);
        setTimeout(() => setFlash(null), CAPTURED_MS);
      }
    } catch (error) {
      // SPEC §8: the note field is cleared, the close flag unset, the form stays at note entry — except a
      // 401, which keeps the form as it is.
      if (!(error instanceof ApiError && error.status === 401)) setNoteText('');
      banner.showError(messageOf(error));
    }
  }

  return (
    <div className="stack">
      {flash && (
        <div className="success-flash" role="status">
          <span className="success-mark" aria-hidden="true">
            ✓
          </span>
          <span>{flash}</span>
        </div>
      )}
      {stage === 'neu' && (
        <section className="stack">
          <h2>{texts.zollpaket.newCartHeading}</h2>
          <button ref={neuRef} type="button" className="button" onClick={neu}>
            {texts.zollpaket.newCart}
          </button>
        </section>
      )}
      {stage === 'wagen' && (
        <form
          className="stack"
          onSubmit={(e) => {
            e.preventDefault();
            holdDuring(scanCart(), cartRef.current);
          }}
        >
          <h2>{texts.zollpaket.scanCartHeading}</h2>
          <input
            ref={cartRef}
            className="scan-input"
            {...{ [SCAN_ATTRIBUTE]: 'scan' }}
            aria-label={texts.zollpaket.cartPlaceholder}
            placeholder={texts.zollpaket.cartPlaceholder}
            autoComplete="off"
            value={cartText}
            onChange={(e) => setCartText(e.target.value)}
          />
          <button type="submit" className="button">
            {texts.zollpaket.scanCart}
          </button>
        </form>
      )}
      {stage === 'lieferschein' && cart && (
        <form
          className="stack"
          onSubmit={(e) => {
            e.preventDefault();
            holdDuring(sendNote(false), noteRef.current);
          }}
        >
          <h2>{texts.zollpaket.scanNoteHeading}</h2>
          <h2>{texts.zollpaket.cartLabel(cart.name)}</h2>
          {info && <p className="notice">{info}</p>}
          <input
            ref={noteRef}
            className="scan-input"
            {...{ [SCAN_ATTRIBUTE]: 'scan' }}
            aria-label={texts.zollpaket.notePlaceholder}
            placeholder={texts.zollpaket.notePlaceholder}
            autoComplete="off"
            value={noteText}
            onChange={(e) => setNoteText(e.target.value)}
          />
          <div className="inline">
            <button type="button" className="button button--secondary" onClick={() => setAskClose(true)}>
              {texts.zollpaket.close}
            </button>
            <button type="submit" className="button">
              {texts.zollpaket.scan}
            </button>
          </div>
        </form>
      )}
      {stage === 'lieferschein' && cart && (
        <PrintLabelButton key={cart.wagennummer} kind="zollwagen" code={cart.wagennummer} />
      )}
      {askClose && (
        <ConfirmDialog
          title={texts.zollpaket.confirmTitle}
          confirmLabel={texts.zollpaket.confirmButton}
          cancelLabel={texts.zollpaket.cancel}
          onConfirm={() => {
            setAskClose(false);
            void sendNote(true);
          }}
          onCancel={() => setAskClose(false)}
        >
          {texts.zollpaket.confirmBody}
        </ConfirmDialog>
      )}
      {history && stage === 'lieferschein' && (
        <DataTable
          heading={texts.zollpaket.historyHeading}
          empty="—"
          rows={history}
          rowKey={historyRowKey}
          columns={historyColumns}
        />
      )}
    </div>
  );
}

const historyRowKey = (row: HistoryRow, i: number) => `${row.time}-${i}`;
const historyColumns: Column<HistoryRow>[] = [
  { header: () => texts.zollpaket.historyTime, cell: (row) => clockTime(row.time) },
  { header: () => texts.zollpaket.historyNote, cell: (row) => row.lieferschein, kind: 'code' },
  { header: () => texts.zollpaket.historyCart, cell: (row) => row.wagennummer, kind: 'code' },
];
