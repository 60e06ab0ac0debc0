import { useCallback, useEffect, useRef, useState } from 'react';
import { bookInventur, type InventurHistoryRow, inventurHistory } from '../../../contract/inventur.ts';
import { texts } from '../../../contract/texts.ts';
import { useActionKey } from '../../api/action-key.ts';
import { api } from '../../api/api.ts';
import { lookUpArticle } from '../../api/article-lookups.ts';
import { lookUpLocation, messageOf } from '../../api/lookups.ts';
import { AmountField } from '../../ui/amount-field.tsx';
import { useBanner } from '../../ui/banner.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { type Column, DataTable } from '../../ui/data-table.tsx';
import { LockedValue, ScanField } from '../../ui/scan-field.tsx';
import { SuccessFlash } from '../../ui/success-flash.tsx';

interface Chosen {
  id: number;
  label: string;
}

const AMOUNT = /^\d{1,7}$/;

/**
 * Inventur (SPEC §2): scan the location, then article after article with the counted amount. The location
 * stays chosen after a booking, so a shelf is counted without scanning it again.
 */
export default function InventurScreen() {
  const banner = useBanner();
  const [location, setLocation] = useState<Chosen | null>(null);
  const [article, setArticle] = useState<Chosen | null>(null);
  const [locationText, setLocationText] = useState('');
  const [articleText, setArticleText] = useState('');
  const [amount, setAmount] = useState('');
  const [missing, setMissing] = useState<{ location: boolean; article: boolean }>({
    location: false,
    article: false,
  });
  const [busy, setBusy] = useState(false);
  /** The count asked about ('Ist das korrekt?'). */
  const [confirming, setConfirming] = useState<{ lp: number; article: number; amount: number } | null>(null);
  const [success, setSuccess] = useState(false);
  const [history, setHistory] = useState<InventurHistoryRow[]>([]);
  const locationRef = useRef<HTMLInputElement>(null);
  const articleRef = useRef<HTMLInputElement>(null);
  const amountRef = useRef<HTMLInputElement>(null);
  const bookingKey = useActionKey();

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

  // The scan target (and with it the focus) follows the work: location → article → amount.
  const step = !location ? 'location' : !article ? 'article' : 'amount';

  async function chooseLocation(code: string) {
    const found = await lookUpLocation(code);
    if (!found.ok) {
      banner.showError(found.message);
      setLocationText('');
      return;
    }
    setLocation({ id: found.value.id, label: found.value.name });
    setMissing((m) => ({ ...m, location: false }));
  }

  async function chooseArticle(scanned: string) {
    const found = await lookUpArticle(scanned);
    if (!found.ok) {
      banner.showError(found.message);
      setArticleText('');
      return;
    }
    setArticle({ id: found.value.id, label: `${found.value.nummer} ${found.value.name}` });
    setMissing((m) => ({ ...m, article: false }));
  }

  async function submit() {
    if (busy) return;
    if (!location || !article) {
      setMissing({ location: !location, article: !article });
      banner.showError(!location ? texts.inventur.chooseLocation : texts.inventur.chooseArticle);
      (!location ? locationRef : articleRef).current?.focus();
      return;
    }
    const trimmed = amount.trim();
    if (!AMOUNT.test(trimmed)) {
      banner.showError(texts.inventur.amountInvalid);
      amountRef.current?.focus();
      return;
    }
    // Asked in the page, not with the browser's confirm(): a scanner's Enter would answer that one.
    setConfirming({ lp: location.id, article: article.id, amount: Number(trimmed) });
  }

  async function book() {
    const body = confirming;
    setConfirming(null);
    if (!body || busy) return;
    setBusy(true);
    try {
      await bookingKey.send(body, (idempotencyKey) =>
        api.call(bookInventur, {
          body,
          idempotencyKey,
          on401: 'scan',
        }),
      );
      setArticle(null);
      setArticleText('');
      setAmount('');
      setSuccess(true);
      void loadHistory();
    } catch (error) {
      banner.showError(messageOf(error));
    } finally {
      setBusy(false);
    }
  }

  const endSuccess = useCallback(() => setSuccess(false), []);

  return (
    <div className="stack">
      {success && <SuccessFlash text={texts.inventur.success} onDone={endSuccess} />}
      {location ? (
        <LockedValue
          label={texts.inventur.location}
          value={location.label}
          onClear={() => {
            setLocation(null);
            setLocationText('');
          }}
        />
      ) : (
        <ScanField
          ref={locationRef}
          label={texts.inventur.location}
          value={locationText}
          onChange={setLocationText}
          onScan={chooseLocation}
          current={step === 'location'}
          invalid={missing.location}
        />
      )}
      {article ? (
        <LockedValue
          label={texts.inventur.article}
          value={article.label}
          onClear={() => {
            setArticle(null);
            setArticleText('');
          }}
        />
      ) : (
        <ScanField
          ref={articleRef}
          label={texts.inventur.article}
          value={articleText}
          onChange={setArticleText}
          onScan={chooseArticle}
          current={step === 'article'}
          invalid={missing.article}
        />
      )}
      <form
        className="stack"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <div className="field">
          <label htmlFor="inventur-amount">{texts.inventur.amount}</label>
          <AmountField
            ref={amountRef}
            id="inventur-amount"
            label={texts.inventur.amount}
            value={amount}
            onChange={setAmount}
            current={step === 'amount'}
          />
        </div>
        <button type="submit" className="button" disabled={busy}>
          {texts.inventur.submit}
        </button>
      </form>
      {confirming && location && article && (
        <ConfirmDialog
          title={texts.inventur.confirm}
          confirmLabel={texts.inventur.submit}
          cancelLabel={texts.inventur.cancel}
          onConfirm={() => void book()}
          onCancel={() => setConfirming(null)}
        >
          {texts.inventur.confirmDetail(article.label, location.label, confirming.amount)}
        </ConfirmDialog>
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

const historyRowKey = (row: InventurHistoryRow, index: number) => `${row.time}-${index}`;
const historyColumns: Column<InventurHistoryRow>[] = [
  { header: texts.inventur.historyTime, cell: (row) => formatTime(row.time) },
  {
    header: texts.inventur.historyArticle,
    cell: (row) => <span title={row.articleName}>{row.article}</span>,
    kind: 'code',
  },
  { header: texts.inventur.historyLp, cell: (row) => row.lp, kind: 'code' },
  { header: texts.inventur.historyAmount, cell: (row) => row.amount, kind: 'number' },
];

function formatTime(iso: string): string {
  return new Date(iso).toLocaleTimeString('de-DE', { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}
