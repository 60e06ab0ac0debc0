import { useCallback, useRef, useState } from 'react';
import { texts } from '../../../contract/texts.ts';
import { articleInfo, checkLpArticle, moveArticle } from '../../../contract/umbuchung.ts';
import { useActionKey } from '../../api/action-key.ts';
import { api } from '../../api/api.ts';
import { type FoundArticle, lookUpArticle } from '../../api/article-lookups.ts';
import { type FoundLocation, lookUpLocation, messageOf } from '../../api/lookups.ts';
import { useScanTarget } from '../../scan/use-scan-target.ts';
import { AmountField } from '../../ui/amount-field.tsx';
import { useBanner } from '../../ui/banner.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { type Column, DataTable } from '../../ui/data-table.tsx';
import { LockedValue, ScanField } from '../../ui/scan-field.tsx';
import { SuccessFlash } from '../../ui/success-flash.tsx';

type InfoRow = { kurzbezeichnung: string; lagertyp: string; amount: number };
type Missing = { article: boolean; source: boolean; amount: boolean; target: boolean };
const NONE_MISSING: Missing = { article: false, source: false, amount: false, target: false };

/**
 * Article rebooking (SPEC §2, §4): article → source location → amount ('Setzen') → target → confirm.
 * Each field locks after a successful lookup; X clears it. The idempotency key lives until the move succeeded.
 */
export default function ArtikelUmlagernScreen() {
  const banner = useBanner();
  const [article, setArticle] = useState<FoundArticle | null>(null);
  const [source, setSource] = useState<FoundLocation | null>(null);
  const [target, setTarget] = useState<FoundLocation | null>(null);
  const [typed, setTexts] = useState({ article: '', source: '', target: '' });
  const [amount, setAmount] = useState('');
  const [amountSet, setAmountSet] = useState(false);
  const [maxAmount, setMaxAmount] = useState<number | null>(null);
  const [info, setInfo] = useState<InfoRow[] | null>(null);
  const [missing, setMissing] = useState<Missing>(NONE_MISSING);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [success, setSuccess] = useState(false);
  const moveKey = useActionKey();
  const articleRef = useRef<HTMLInputElement>(null);
  const sourceRef = useRef<HTMLInputElement>(null);
  const amountRef = useRef<HTMLInputElement>(null);
  const targetRef = useRef<HTMLInputElement>(null);

  const setText = (field: keyof typeof typed, value: string) => setTexts((t) => ({ ...t, [field]: value }));
  /** What the worker types clears that field's red mark. */
  const typeInto = (field: keyof typeof typed) => (value: string) => {
    setText(field, value);
    setMissing((m) => ({ ...m, [field]: false }));
  };

  // The scan target (and the focus) is the next thing to do; with everything chosen, the next step is a tap.
  const step = !article
    ? 'article'
    : !source
      ? 'source'
      : !amountSet
        ? 'amount'
        : !target
          ? 'target'
          : 'ready';
  useScanTarget(step === 'ready' ? { kind: 'none', expects: texts.umlagern.readyToMove } : null);

  const resetAmount = useCallback(() => {
    setAmount('');
    setAmountSet(false);
  }, []);

  async function chooseArticle(scanned: string) {
    const found = await lookUpArticle(scanned);
    if (!found.ok) {
      banner.showError(found.message);
      setText('article', '');
      return;
    }
    // The bound first, then the lock: focus moves on only when the amount field knows its maximum. An article
    // that is not on the source is refused here, not found out at the amount ('höchstens 0').
    if (source && !(await loadMax(source, found.value))) {
      setText('article', '');
      return;
    }
    setArticle(found.value);
    setMissing((m) => ({ ...m, article: false }));
    try {
      setInfo(await api.call(articleInfo, { params: { articleId: found.value.id } }));
    } catch (error) {
      banner.showError(messageOf(error));
    }
  }

  /** The most that can be moved off `location`; false (and said so) when nothing or the check failed. */
  async function loadMax(location: FoundLocation, chosen: FoundArticle): Promise<boolean> {
    try {
      const { amount: max } = await api.call(checkLpArticle, {
        params: { lpId: location.id, articleId: chosen.id },
      });
      if (max === 0) {
        banner.showError(texts.umlagern.nothingOnSource);
        return false;
      }
      setMaxAmount(max);
      return true;
    } catch (error) {
      banner.showError(messageOf(error));
      return false;
    }
  }

  async function chooseSource(code: string) {
    const found = await lookUpLocation(code);
    if (!found.ok) {
      banner.showError(found.message);
      setText('source', '');
      return;
    }
    if (article && !(await loadMax(found.value, article))) {
      setText('source', '');
      return;
    }
    setSource(found.value);
    setMissing((m) => ({ ...m, source: false }));
  }

  async function chooseTarget(code: string) {
    const found = await lookUpLocation(code);
    if (!found.ok) {
      banner.showError(found.message);
      setText('target', '');
      return;
    }
    if (source && found.value.id === source.id) {
      banner.showError(texts.umlagern.sameLocation);
      setText('target', '');
      return;
    }
    setTarget(found.value);
    setMissing((m) => ({ ...m, target: false }));
  }

  function setAmountNow() {
    const max = maxAmount ?? 0;
    const value = Number(amount.trim());
    if (!/^\d+$/.test(amount.trim()) || value < 1 || value > max) {
      banner.showError(texts.umlagern.amountRange(max));
      amountRef.current?.focus();
      return;
    }
    setAmountSet(true);
    setMissing((m) => ({ ...m, amount: false }));
  }

  function submit() {
    if (!article || !source || !amountSet || !target) {
      setMissing({ article: !article, source: !source, amount: !amountSet, target: !target });
      banner.showError(texts.umlagern.missingFields);
      (!article ? articleRef : !source ? sourceRef : !amountSet ? amountRef : targetRef).current?.focus();
      return;
    }
    setConfirming(true);
  }

  async function book() {
    if (!article || !source || !target || busy) return;
    setConfirming(false);
    setBusy(true);
    try {
      const body = { from: source.id, to: target.id, article: article.id, amount: Number(amount) };
      await moveKey.send(body, (idempotencyKey) =>
        api.call(moveArticle, {
          body,
          idempotencyKey,
          on401: 'scan',
        }),
      );
      setArticle(null);
      setSource(null);
      setTarget(null);
      setTexts({ article: '', source: '', target: '' });
      resetAmount();
      setMaxAmount(null);
      setInfo(null);
      setSuccess(true);
    } catch (error) {
      banner.showError(messageOf(error));
    } finally {
      setBusy(false);
    }
  }

  const endSuccess = useCallback(() => setSuccess(false), []);
  const amountEnabled = article !== null && source !== null;

  return (
    <div className="stack">
      {success && <SuccessFlash text={texts.umlagern.success} onDone={endSuccess} />}
      {article ? (
        <LockedValue
          label={texts.umlagern.article}
          value={`${article.nummer} ${article.name}`}
          onClear={() => {
            setArticle(null);
            setText('article', '');
            setInfo(null);
            setMaxAmount(null);
            resetAmount();
          }}
        />
      ) : (
        <ScanField
          ref={articleRef}
          label={texts.umlagern.article}
          value={typed.article}
          onChange={typeInto('article')}
          onScan={chooseArticle}
          current={step === 'article'}
          invalid={missing.article}
        />
      )}
      {source ? (
        <LockedValue
          label={texts.umlagern.source}
          value={source.name}
          onClear={() => {
            setSource(null);
            setText('source', '');
            setMaxAmount(null);
            resetAmount();
          }}
        />
      ) : (
        <ScanField
          ref={sourceRef}
          label={texts.umlagern.source}
          value={typed.source}
          onChange={typeInto('source')}
          onScan={chooseSource}
          current={step === 'source'}
          invalid={missing.source}
        />
      )}
      {amountSet ? (
        <LockedValue label={texts.umlagern.amount} value={amount} onClear={resetAmount} />
      ) : (
        <form
          noValidate
          className={`field${missing.amount ? ' field--invalid' : ''}`}
          onSubmit={(e) => {
            e.preventDefault();
            setAmountNow();
          }}
        >
          <label htmlFor="umlagern-amount">
            {texts.umlagern.amount}
            {maxAmount !== null && amountEnabled ? ` (${texts.umlagern.maxAmount(maxAmount)})` : ''}
          </label>
          <div className="inline">
            <AmountField
              ref={amountRef}
              id="umlagern-amount"
              label={texts.umlagern.amount}
              current={step === 'amount'}
              disabled={!amountEnabled}
              invalid={missing.amount}
              value={amount}
              onChange={(value) => {
                setAmount(value);
                setMissing((m) => ({ ...m, amount: false }));
              }}
            />
            <button type="submit" className="button button--inline" disabled={!amountEnabled}>
              {texts.umlagern.setAmount}
            </button>
          </div>
        </form>
      )}
      {target ? (
        <LockedValue
          label={texts.umlagern.target}
          value={target.name}
          onClear={() => {
            setTarget(null);
            setText('target', '');
          }}
        />
      ) : (
        <ScanField
          ref={targetRef}
          label={texts.umlagern.target}
          value={typed.target}
          onChange={typeInto('target')}
          onScan={chooseTarget}
          current={step === 'target'}
          invalid={missing.target}
          disabled={!amountSet}
        />
      )}
      <button type="button" className="button" disabled={busy} onClick={submit}>
        {texts.umlagern.submit}
      </button>
      {confirming && article && source && target && (
        <ConfirmDialog
          title={texts.umlagern.confirmTitle}
          confirmLabel={texts.umlagern.confirm}
          cancelLabel={texts.umlagern.cancel}
          onConfirm={book}
          onCancel={() => setConfirming(false)}
        >
          {texts.umlagern.confirmBody(Number(amount), article.nummer, source.name, target.name)}
        </ConfirmDialog>
      )}
      {info && (
        <DataTable
          heading={texts.umlagern.infoHeading}
          empty={texts.lookup.articleOnNoLocation}
          rows={info}
          rowKey={infoRowKey}
          columns={infoColumns}
        />
      )}
    </div>
  );
}

const infoRowKey = (row: InfoRow) => row.kurzbezeichnung;
const infoColumns: Column<InfoRow>[] = [
  { header: texts.umlagern.infoLocation, cell: (row) => row.kurzbezeichnung, kind: 'code' },
  { header: texts.umlagern.infoType, cell: (row) => row.lagertyp },
  { header: texts.umlagern.infoAmount, cell: (row) => row.amount, kind: 'number' },
];
