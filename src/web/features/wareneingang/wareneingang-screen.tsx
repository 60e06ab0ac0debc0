import { useState } from 'react';
import { amount as amountSchema } from '../../../contract/endpoint.ts';
import {
  bookReceipt,
  closeReceipt,
  type Receipt,
  type ReceiptLine,
  receiptByNumber,
  suggestLocation,
  wareneingangTexts as t,
} from '../../../contract/wareneingang.ts';
import { api } from '../../api/api.ts';
import { articleCode } from '../../api/article-lookups.ts';
import { messageOf } from '../../api/message.ts';
import { AmountField, parseAmount } from '../../ui/amount-field.tsx';
import { useBanner } from '../../ui/banner.tsx';
import { useBooking } from '../../ui/booking.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { calendarDate } from '../../ui/format.ts';
import { parseMhd } from '../../ui/mhd.ts';
import { LockedValue, ScanField } from '../../ui/scan-field.tsx';
import { lineForScan, openOf } from './match.ts';

/** The goods of one line being received: what the label or the worker said so far. */
interface Arrival {
  line: ReceiptLine;
  charge: string;
  /** ISO date, or '' while not given. */
  mhd: string;
  amount: string;
  /** The amount is confirmed (Enter), and above the open amount only after the question. */
  amountSet: boolean;
  mehrmenge: boolean;
}

type Suggestion = { code: string | null; grund: 'holds' | 'fixed' | 'empty' | null };

const receiptAmount = amountSchema(1);

/**
 * Wareneingang (issue 22): scan the receipt, then per article — a GS1 label brings Charge, MHD and amount
 * along (decision 15) — confirm the amount (more than open: an in-page question), and scan the suggested
 * location or any other one: that scan books. 'Abschließen' records short and over deliveries; a closed
 * receipt is shown read-only.
 */
export default function WareneingangScreen() {
  const banner = useBanner();
  const [receipt, setReceipt] = useState<Receipt | null>(null);
  const [arrival, setArrival] = useState<Arrival | null>(null);
  const [suggestion, setSuggestion] = useState<Suggestion | null>(null);
  const [asking, setAsking] = useState<'over' | 'close' | null>(null);
  const [typed, setTyped] = useState({ receipt: '', article: '', charge: '', mhd: '', location: '' });
  const setText = (field: keyof typeof typed) => (value: string) =>
    setTyped((s) => ({ ...s, [field]: value }));

  const booking = useBooking(bookReceipt, {
    done: t.success,
    onBooked: (answer) => {
      setReceipt(answer.beleg);
      setArrival(null);
      setSuggestion(null);
      setText('location')('');
    },
  });
  const closing = useBooking(closeReceipt, {
    done: t.closedSuccess,
    onBooked: (answer) => setReceipt(answer.beleg),
  });

  const open = receipt?.status === 'offen';
  const step =
    !receipt || !open
      ? 'receipt'
      : !arrival
        ? 'article'
        : arrival.line.chargePflicht && arrival.charge === ''
          ? 'charge'
          : arrival.line.mhdPflicht && arrival.mhd === ''
            ? 'mhd'
            : !arrival.amountSet
              ? 'amount'
              : 'location';

  async function scanReceipt(nummer: string) {
    setText('receipt')('');
    try {
      const found = await api.call(receiptByNumber, { params: { wareneingang: nummer } });
      setReceipt(found);
      setArrival(null);
      if (found.status !== 'offen') banner.showError(t.closed(found.nummer));
    } catch (error) {
      banner.showError(messageOf(error));
    }
  }

  function scanArticle(scanned: string) {
    setText('article')('');
    if (!receipt) return;
    const named = articleCode(scanned);
    if (!named.ok) return banner.showError(named.message);
    const gs1 = named.gs1;
    const found = lineForScan(receipt.positionen, named.code, gs1?.batch ?? null);
    if ('none' in found) return banner.showError(t.notOnReceipt(named.code, receipt.nummer));
    if ('chargeExpected' in found)
      return banner.showError(t.chargeMismatch(gs1?.batch ?? '', found.chargeExpected));
    const line = found.line;
    // A field of the label this screen fills that could not be read is named; the worker fills it in.
    const unread = gs1?.problems.find(
      (p) =>
        [gs1.gtinFrom, '10', gs1.mhdFrom].includes(p.ai) ||
        (gs1.count === null && ['30', '37'].includes(p.ai)),
    );
    if (unread) banner.showError(unread.message);
    const openAmount = openOf(line);
    setArrival({
      line,
      charge: line.charge ?? gs1?.batch ?? '',
      mhd: gs1?.mhd ?? line.mhd ?? '',
      amount: String(gs1?.count ?? (openAmount > 0 ? openAmount : 1)),
      amountSet: false,
      mehrmenge: false,
    });
  }

  function scanCharge(charge: string) {
    setText('charge')('');
    if (!arrival) return;
    if (arrival.line.charge && arrival.line.charge !== charge)
      return banner.showError(t.chargeMismatch(charge, arrival.line.charge));
    setArrival({ ...arrival, charge });
  }

  function scanMhd(text: string) {
    const iso = parseMhd(text);
    if (!iso) return banner.showError(t.mhdInvalid);
    setText('mhd')('');
    if (arrival) setArrival({ ...arrival, mhd: iso });
  }

  function confirmAmount() {
    if (!arrival) return;
    const value = parseAmount(arrival.amount, receiptAmount);
    if (value === null) return banner.showError(t.amountInvalid);
    if (value > openOf(arrival.line)) return setAsking('over');
    takeAmount(false);
  }

  function takeAmount(mehrmenge: boolean) {
    if (!arrival) return;
    setAsking(null);
    setArrival({ ...arrival, amountSet: true, mehrmenge });
    setSuggestion(null);
    void api
      .call(suggestLocation, {
        params: { position: arrival.line.position },
        query: { charge: arrival.charge || undefined },
      })
      .then(setSuggestion, (error: unknown) => banner.showError(messageOf(error)));
  }

  function scanLocation(code: string) {
    setText('location')('');
    if (!receipt || !arrival) return;
    return booking.book({
      wareneingang: receipt.nummer,
      position: arrival.line.position,
      lagerplatz: code,
      amount: Number(arrival.amount),
      charge: arrival.charge || null,
      mhd: arrival.mhd || null,
      mehrmenge: arrival.mehrmenge,
    });
  }

  const shortLines = receipt?.positionen.filter((l) => openOf(l) > 0) ?? [];

  return (
    <div className="stack">
      {booking.flash}
      {closing.flash}
      {receipt && open ? (
        <LockedValue
          label={t.receipt}
          value={`${receipt.nummer}${receipt.lieferant ? ` · ${receipt.lieferant}` : ''}`}
          onClear={() => {
            setReceipt(null);
            setArrival(null);
          }}
        />
      ) : (
        <ScanField
          label={t.receipt}
          placeholder={t.receiptHint}
          value={typed.receipt}
          onChange={setText('receipt')}
          onScan={scanReceipt}
          current={step === 'receipt'}
        />
      )}

      {receipt && open && !arrival && (
        <ScanField
          label={t.article}
          value={typed.article}
          onChange={setText('article')}
          onScan={scanArticle}
          current={step === 'article'}
        />
      )}

      {arrival && (
        <>
          <LockedValue
            label={t.position}
            value={`${arrival.line.nummer} ${arrival.line.name} · ${t.open} ${openOf(arrival.line)}`}
            onClear={() => {
              setArrival(null);
              setSuggestion(null);
            }}
          />
          {arrival.line.chargePflicht || arrival.charge ? (
            arrival.charge ? (
              <LockedValue
                label={t.charge}
                value={arrival.charge}
                onClear={() => setArrival({ ...arrival, charge: '', amountSet: false })}
              />
            ) : (
              <ScanField
                label={t.charge}
                field={bookReceipt.body.shape.charge.unwrap()}
                value={typed.charge}
                onChange={setText('charge')}
                onScan={scanCharge}
                current={step === 'charge'}
              />
            )
          ) : null}
          {arrival.line.mhdPflicht || arrival.mhd ? (
            arrival.mhd ? (
              <LockedValue
                label={t.mhd}
                value={calendarDate(arrival.mhd)}
                onClear={() => setArrival({ ...arrival, mhd: '', amountSet: false })}
              />
            ) : (
              <ScanField
                label={t.mhd}
                placeholder={t.mhdHint}
                value={typed.mhd}
                onChange={setText('mhd')}
                onScan={scanMhd}
                current={step === 'mhd'}
              />
            )
          ) : null}
          {arrival.amountSet ? (
            <LockedValue
              label={t.amount}
              value={arrival.amount}
              onClear={() => setArrival({ ...arrival, amountSet: false, mehrmenge: false })}
            />
          ) : (
            <form
              noValidate
              className="field"
              onSubmit={(e) => {
                e.preventDefault();
                confirmAmount();
              }}
            >
              <label htmlFor="we-amount">{t.amount}</label>
              <AmountField
                id="we-amount"
                label={t.amount}
                current={step === 'amount'}
                value={arrival.amount}
                onChange={(amount) => setArrival({ ...arrival, amount })}
              />
            </form>
          )}
          {arrival.amountSet && (
            <>
              <p className="hint" aria-live="polite">
                {suggestion === null
                  ? '…'
                  : suggestion.code && suggestion.grund
                    ? `${t.suggestion(suggestion.code)} (${t.suggestionWhy[suggestion.grund]})`
                    : t.noSuggestion}
              </p>
              <ScanField
                label={t.location}
                placeholder={t.scanLocation}
                value={typed.location}
                onChange={setText('location')}
                onScan={scanLocation}
                current={step === 'location'}
              />
            </>
          )}
        </>
      )}

      {receipt && open && !arrival && (
        <button
          type="button"
          className="button button--secondary"
          disabled={closing.busy}
          onClick={() => setAsking('close')}
        >
          {t.close}
        </button>
      )}

      {receipt && <ReceiptLines receipt={receipt} />}

      {asking === 'over' && arrival && (
        <ConfirmDialog
          title={t.overTitle}
          confirmLabel={t.overConfirm}
          cancelLabel={t.cancel}
          onConfirm={() => takeAmount(true)}
          onCancel={() => setAsking(null)}
        >
          {t.overBody(Number(arrival.amount), openOf(arrival.line), arrival.line.nummer)}
        </ConfirmDialog>
      )}
      {asking === 'close' && receipt && (
        <ConfirmDialog
          title={t.closeTitle}
          confirmLabel={t.close}
          cancelLabel={t.cancel}
          onConfirm={() => {
            setAsking(null);
            void closing.book({ wareneingang: receipt.nummer });
          }}
          onCancel={() => setAsking(null)}
        >
          <p>{t.closeBody(receipt.nummer)}</p>
          {shortLines.length === 0 ? (
            <p>{t.closeNoDifference}</p>
          ) : (
            <ul>
              {shortLines.map((l) => (
                <li key={l.position}>{t.closeShort(l.nummer, openOf(l))}</li>
              ))}
            </ul>
          )}
        </ConfirmDialog>
      )}
    </div>
  );
}

/** The receipt's lines: expected, received and open — once closed, the short and over amounts recorded. */
function ReceiptLines({ receipt }: { receipt: Receipt }) {
  const closed = receipt.status !== 'offen';
  return (
    <section aria-label={t.lines}>
      <h2>
        {t.lines} · {closed ? t.statusClosed : t.statusOpen}
      </h2>
      <table className="table">
        <thead>
          <tr>
            <th>{t.article}</th>
            <th className="number">{t.soll}</th>
            <th className="number">{t.ist}</th>
            <th className="number">{closed ? t.difference : t.open}</th>
          </tr>
        </thead>
        <tbody>
          {receipt.positionen.map((l) => (
            <tr key={l.position}>
              <td className="code">
                {l.nummer} {l.name}
                {l.charge && ` · ${t.charge} ${l.charge}`}
                {l.mhd && ` · ${t.mhd} ${calendarDate(l.mhd)}`}
              </td>
              <td className="number">{l.erwartet}</td>
              <td className="number">{l.erhalten}</td>
              {/* 'Fehlmenge 13' may go on two lines: kept on one, the table was 390 px wide at 360 (issue 36.9). */}
              <td className={closed ? 'number number--words' : 'number'}>
                {closed
                  ? l.fehlmenge
                    ? `${t.short} ${l.fehlmenge}`
                    : l.mehrmenge
                      ? `${t.over} ${l.mehrmenge}`
                      : '0'
                  : openOf(l)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
