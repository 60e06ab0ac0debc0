import { useCallback, useEffect, useRef, useState } from 'react';
import { type ReplenishmentRow, replenishmentList } from '../../../contract/nachschub.ts';
import { texts } from '../../../contract/texts.ts';
import { checkLpArticle, moveArticle } from '../../../contract/umbuchung.ts';
import { useActionKey } from '../../api/action-key.ts';
import { api } from '../../api/api.ts';
import { lookUpArticle } from '../../api/article-lookups.ts';
import { type FoundLocation, lookUpLocation, messageOf } from '../../api/lookups.ts';
import { useScanTarget } from '../../scan/use-scan-target.ts';
import { AmountField } from '../../ui/amount-field.tsx';
import { useBanner } from '../../ui/banner.tsx';
import { LockedValue, ScanField } from '../../ui/scan-field.tsx';
import { SuccessFlash } from '../../ui/success-flash.tsx';

/**
 * Replenishment: the pick places below their minimum, each with a suggested source. The worker takes a task
 * and proves it by scanning source, article, amount and target; the move is an ordinary article rebooking.
 */
export default function NachschubScreen() {
  const banner = useBanner();
  const [rows, setRows] = useState<ReplenishmentRow[] | null>(null);
  const [task, setTask] = useState<ReplenishmentRow | null>(null);
  const [success, setSuccess] = useState(false);

  const load = useCallback(async () => {
    try {
      setRows((await api.call(replenishmentList)).data);
    } catch (error) {
      banner.showError(messageOf(error));
    }
  }, [banner]);
  useEffect(() => {
    void load();
  }, [load]);

  const done = useCallback(() => {
    setTask(null);
    setSuccess(true);
    void load();
  }, [load]);
  const endSuccess = useCallback(() => setSuccess(false), []);
  // The list is worked by tapping a task; a scan there says so.
  useScanTarget(task ? null : { kind: 'none', expects: texts.nachschub.chooseTask });

  return (
    <div className="stack">
      {success && <SuccessFlash text={texts.nachschub.success} onDone={endSuccess} />}
      {task ? (
        <NachschubTask task={task} onDone={done} onCancel={() => setTask(null)} />
      ) : (
        <>
          <button type="button" className="button button--secondary" onClick={() => void load()}>
            {texts.nachschub.reload}
          </button>
          {rows && rows.length === 0 && <p className="hint">{texts.nachschub.empty}</p>}
          {rows && rows.length > 0 && (
            <ul className="task-list">
              {rows.map((row) => (
                <li key={`${row.locationId}-${row.articleId}`} className="task">
                  <div className="task-title">
                    {row.location}: {row.nummer} {row.name}
                  </div>
                  <div className="task-detail">
                    {texts.nachschub.stock} {row.amount} / {texts.nachschub.minimum} {row.minimum} ·{' '}
                    {texts.nachschub.source}{' '}
                    {row.source ? `${row.source.location} (${row.source.amount})` : texts.nachschub.noSource}
                  </div>
                  <button
                    type="button"
                    className="button"
                    disabled={!row.source}
                    aria-label={`${texts.nachschub.start}: ${row.nummer} nach ${row.location}`}
                    onClick={() => setTask(row)}
                  >
                    {texts.nachschub.start}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </div>
  );
}

function NachschubTask({
  task,
  onDone,
  onCancel,
}: {
  task: ReplenishmentRow;
  onDone: () => void;
  onCancel: () => void;
}) {
  const banner = useBanner();
  const [source, setSource] = useState<(FoundLocation & { available: number }) | null>(null);
  const [articleOk, setArticleOk] = useState(false);
  const [amount, setAmount] = useState('');
  const [amountSet, setAmountSet] = useState(false);
  const [targetOk, setTargetOk] = useState(false);
  const [typed, setTyped] = useState({ source: '', article: '', target: '' });
  const [busy, setBusy] = useState(false);
  const moveKey = useActionKey();
  const submitRef = useRef<HTMLButtonElement>(null);

  // The scan target is the next proof; with all four, 'Buchen' has the focus (a person's Enter books) and a
  // scan is refused out loud.
  const step = !source
    ? 'source'
    : !articleOk
      ? 'article'
      : !amountSet
        ? 'amount'
        : !targetOk
          ? 'target'
          : 'ready';
  useScanTarget(step === 'ready' ? { kind: 'none', expects: texts.nachschub.readyToBook } : null);
  useEffect(() => {
    if (step === 'ready') submitRef.current?.focus();
  }, [step]);

  const type = (field: keyof typeof typed, value: string) => setTyped((t) => ({ ...t, [field]: value }));

  async function scanSource(code: string) {
    const found = await lookUpLocation(code);
    if (!found.ok) {
      banner.showError(found.message);
      type('source', '');
      return;
    }
    if (found.value.id === task.locationId) {
      banner.showError(texts.umlagern.sameLocation);
      type('source', '');
      return;
    }
    try {
      const { amount: available } = await api.call(checkLpArticle, {
        params: { lpId: found.value.id, articleId: task.articleId },
      });
      if (available === 0) {
        banner.showError(texts.umlagern.nothingOnSource);
        type('source', '');
        return;
      }
      setSource({ ...found.value, available });
      setAmount(String(Math.min(task.missing, available)));
    } catch (error) {
      banner.showError(messageOf(error));
    }
  }

  async function scanArticle(scanned: string) {
    const found = await lookUpArticle(scanned);
    if (!found.ok || found.value.id !== task.articleId) {
      banner.showError(found.ok ? texts.nachschub.wrongArticle(task.nummer) : found.message);
      type('article', '');
      return;
    }
    setArticleOk(true);
  }

  function setAmountNow() {
    const max = source?.available ?? 0;
    const value = Number(amount.trim());
    if (!/^\d+$/.test(amount.trim()) || value < 1 || value > max) {
      banner.showError(texts.umlagern.amountRange(max));
      return;
    }
    setAmountSet(true);
  }

  async function scanTarget(code: string) {
    const found = await lookUpLocation(code);
    if (!found.ok || found.value.id !== task.locationId) {
      banner.showError(found.ok ? texts.nachschub.wrongTarget(task.location) : found.message);
      type('target', '');
      return;
    }
    setTargetOk(true);
  }

  async function book() {
    if (!source || !articleOk || !amountSet || !targetOk || busy) return;
    setBusy(true);
    try {
      const body = { from: source.id, to: task.locationId, article: task.articleId, amount: Number(amount) };
      await moveKey.send(body, (idempotencyKey) =>
        api.call(moveArticle, {
          body,
          idempotencyKey,
          on401: 'scan',
        }),
      );
      onDone();
    } catch (error) {
      banner.showError(messageOf(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="stack">
      <h2>{texts.nachschub.task(task.nummer, task.location)}</h2>
      <p className="hint">
        {task.name} · {texts.nachschub.source} {task.source?.location ?? texts.nachschub.noSource}
      </p>
      {source ? (
        <LockedValue label={texts.nachschub.scanSource} value={source.name} onClear={() => setSource(null)} />
      ) : (
        <ScanField
          current={step === 'source'}
          label={texts.nachschub.scanSource}
          value={typed.source}
          onChange={(v) => type('source', v)}
          onScan={scanSource}
        />
      )}
      {articleOk ? (
        <LockedValue
          label={texts.nachschub.scanArticle}
          value={`${task.nummer} ${task.name}`}
          onClear={() => setArticleOk(false)}
        />
      ) : (
        <ScanField
          current={step === 'article'}
          label={texts.nachschub.scanArticle}
          value={typed.article}
          onChange={(v) => type('article', v)}
          onScan={scanArticle}
          disabled={!source}
        />
      )}
      {amountSet ? (
        <LockedValue label={texts.nachschub.amount} value={amount} onClear={() => setAmountSet(false)} />
      ) : (
        <form
          noValidate
          className="field"
          onSubmit={(e) => {
            e.preventDefault();
            setAmountNow();
          }}
        >
          <label htmlFor="nachschub-amount">
            {texts.nachschub.amount}
            {source ? ` (${texts.umlagern.maxAmount(source.available)})` : ''}
          </label>
          <div className="inline">
            <AmountField
              id="nachschub-amount"
              label={texts.nachschub.amount}
              current={step === 'amount'}
              disabled={!articleOk}
              value={amount}
              onChange={setAmount}
            />
            <button type="submit" className="button button--inline" disabled={!articleOk}>
              {texts.umlagern.setAmount}
            </button>
          </div>
        </form>
      )}
      {targetOk ? (
        <LockedValue
          label={texts.nachschub.scanTarget}
          value={task.location}
          onClear={() => setTargetOk(false)}
        />
      ) : (
        <ScanField
          current={step === 'target'}
          label={texts.nachschub.scanTarget}
          value={typed.target}
          onChange={(v) => type('target', v)}
          onScan={scanTarget}
          disabled={!amountSet}
        />
      )}
      <button ref={submitRef} type="button" className="button" disabled={!targetOk || busy} onClick={book}>
        {texts.nachschub.submit}
      </button>
      <button type="button" className="button button--secondary" onClick={onCancel}>
        {texts.nachschub.cancel}
      </button>
    </div>
  );
}
