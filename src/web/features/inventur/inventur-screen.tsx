import { useCallback, useEffect, useRef, useState } from 'react';
import { bookInventur, type InventurHistoryRow, inventurHistory } from '../../../contract/inventur.ts';
import { texts } from '../../../contract/texts.ts';
import { api } from '../../api/api.ts';
import { type FoundArticle, lookUpArticle } from '../../api/article-lookups.ts';
import { type FoundLocation, lookUpLocation } from '../../api/lookups.ts';
import { LabelledAmountField, parseAmount } from '../../ui/amount-field.tsx';
import { useBanner } from '../../ui/banner.tsx';
import { BookingConfirm, useBooking } from '../../ui/booking.tsx';
import { type Column, DataTable } from '../../ui/data-table.tsx';
import { clockTimeSeconds } from '../../ui/format.ts';
import { LookupField, useLookup } from '../../ui/lookup-field.tsx';

/**
 * Inventur (SPEC §2): scan the location, then article after article with the counted amount. The location
 * stays chosen after a booking, so a shelf is counted without scanning it again.
 */
export default function InventurScreen() {
  const banner = useBanner();
  const location = useLookup<FoundLocation>();
  const article = useLookup<FoundArticle>();
  const [amount, setAmount] = useState('');
  const [history, setHistory] = useState<InventurHistoryRow[]>([]);
  const amountRef = useRef<HTMLInputElement>(null);

  const loadHistory = useCallback(async () => {
    try {
      setHistory((await api.call(inventurHistory)).data);
    } catch {
      // The list is a help, not the work: a failed reload keeps the last one.
    }
  }, []);
  useEffect(() => {
    void loadHistory();
  }, [loadHistory]);
  const booking = useBooking(bookInventur, {
    done: texts.inventur.success,
    onBooked: () => {
      article.clear();
      setAmount('');
      void loadHistory();
    },
  });

  // The scan target (and with it the focus) follows the work: location → article → amount.
  const step = !location.value ? 'location' : !article.value ? 'article' : 'amount';

  function submit() {
    if (booking.busy) return;
    if (!location.value || !article.value) {
      const first = location.value ? article : location;
      location.flagIfMissing();
      article.flagIfMissing();
      banner.showError(!location.value ? texts.inventur.chooseLocation : texts.inventur.chooseArticle);
      first.ref.current?.focus();
      return;
    }
    const counted = parseAmount(amount, bookInventur.body.shape.amount);
    if (counted === null) {
      banner.showError(texts.inventur.amountInvalid);
      amountRef.current?.focus();
      return;
    }
    booking.ask({ lp: location.value.id, article: article.value.id, amount: counted });
  }

  const where = location.value;
  const what = article.value;
  return (
    <div className="stack">
      {booking.flash}
      <LookupField
        lookup={location}
        label={texts.inventur.location}
        show={(l) => l.name}
        onScan={async (code: string) => location.take(await lookUpLocation(code))}
        current={step === 'location'}
      />
      <LookupField
        lookup={article}
        label={texts.inventur.article}
        show={articleLabel}
        onScan={async (code: string) => article.take(await lookUpArticle(code))}
        current={step === 'article'}
      />
      <form
        className="stack"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <LabelledAmountField
          ref={amountRef}
          id="inventur-amount"
          label={texts.inventur.amount}
          value={amount}
          onChange={setAmount}
          current={step === 'amount'}
        />
        <button type="submit" className="button" disabled={booking.busy}>
          {texts.inventur.submit}
        </button>
      </form>
      {where && what && (
        <BookingConfirm
          booking={booking}
          title={texts.inventur.confirm}
          confirmLabel={texts.inventur.submit}
          cancelLabel={texts.inventur.cancel}
        >
          {(asked) => texts.inventur.confirmDetail(articleLabel(what), where.name, asked.amount)}
        </BookingConfirm>
      )}
      <DataTable
        heading={texts.inventur.historyHeading}
        empty={texts.inventur.historyEmpty}
        rows={history}
        rowKey={historyRowKey}
        columns={historyColumns}
      />
    </div>
  );
}

const articleLabel = (a: FoundArticle) => `${a.nummer} ${a.name}`;
const historyRowKey = (row: InventurHistoryRow, index: number) => `${row.time}-${index}`;
const historyColumns: Column<InventurHistoryRow>[] = [
  { header: texts.inventur.historyTime, cell: (row) => clockTimeSeconds(row.time) },
  {
    header: texts.inventur.historyArticle,
    cell: (row) => <span title={row.articleName}>{row.article}</span>,
    kind: 'code',
  },
  { header: texts.inventur.historyLp, cell: (row) => row.lp, kind: 'code' },
  { header: texts.inventur.historyAmount, cell: (row) => row.amount, kind: 'number' },
];
