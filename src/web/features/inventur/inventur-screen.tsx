import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { bookInventur, type InventurHistoryRow, inventurHistory } from '../../../contract/inventur.ts';
import { texts } from '../../../contract/texts.ts';
import { zaehlauftragTexts as z } from '../../../contract/zaehlauftrag.ts';
import { api } from '../../api/api.ts';
import { type FoundArticle, lookUpArticle } from '../../api/article-lookups.ts';
import { type FoundLocation, lookUpLocation } from '../../api/lookups.ts';
import { LabelledAmountField, parseAmount } from '../../ui/amount-field.tsx';
import { useBanner } from '../../ui/banner.tsx';
import { BookingConfirm, useBooking } from '../../ui/booking.tsx';
import { type Column, DataTable } from '../../ui/data-table.tsx';
import { clockTimeSeconds } from '../../ui/format.ts';
import { LookupField, useLookup } from '../../ui/lookup-field.tsx';
import { ZaehlauftragScreen } from './zaehlauftrag-screen.tsx';

/**
 * Inventur: the free count of SPEC §2, and above it the way to the count tasks of the permanent inventory
 * (issue 42, `?zaehlauftrag`: zaehlauftrag-screen.tsx). Both in this screen's download: a route of their own
 * would put its name into the first download, which has no room for it.
 */
export default function InventurScreen() {
  const [params] = useSearchParams();
  return params.has(COUNT_TASK) ? <ZaehlauftragScreen /> : <FreeCount />;
}

/** The search parameter that opens the count tasks (kept on a reload, so the task in work resumes). */
const COUNT_TASK = 'zaehlauftrag';

/**
 * The free count (SPEC §2): scan the location, then article after article with the counted amount. The
 * location stays chosen after a booking, so a shelf is counted without scanning it again.
 */
function FreeCount() {
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
      <Link className="menu-button menu-button--secondary" to={`?${COUNT_TASK}`}>
        {z.heading}
      </Link>
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
/** The headers are read when the table is drawn: in the worker's language. */
const historyColumns: Column<InventurHistoryRow>[] = [
  { header: () => texts.inventur.historyTime, cell: (row) => clockTimeSeconds(row.time) },
  {
    header: () => texts.inventur.historyArticle,
    cell: (row) => <span title={row.articleName}>{row.article}</span>,
    kind: 'code',
  },
  { header: () => texts.inventur.historyLp, cell: (row) => row.lp, kind: 'code' },
  { header: () => texts.inventur.historyAmount, cell: (row) => row.amount, kind: 'number' },
];
