import { useEffect, useRef, useState } from 'react';
import type { ReplenishmentRow } from '../../../contract/nachschub.ts';
import { texts } from '../../../contract/texts.ts';
import { checkLpArticle, moveArticle } from '../../../contract/umbuchung.ts';
import { api } from '../../api/api.ts';
import { lookUpArticle } from '../../api/article-lookups.ts';
import { type FoundLocation, lookUpLocation } from '../../api/lookups.ts';
import { messageOf } from '../../api/message.ts';
import { useScanTarget } from '../../scan/use-scan-target.ts';
import { useBanner } from '../../ui/banner.tsx';
import { useBooking } from '../../ui/booking.tsx';
import { LookupField, useLookup } from '../../ui/lookup-field.tsx';
import { SetAmountField } from '../../ui/set-amount.tsx';

/**
 * One replenishment task, proven step by step: the source (it must hold the article), the article, the
 * amount (at most what the source holds, pre-filled with what the pick place misses), the target; then an
 * ordinary article rebooking, exactly once.
 */
export function NachschubTask({
  task,
  onDone,
  onCancel,
}: {
  task: ReplenishmentRow;
  onDone: () => void;
  onCancel: () => void;
}) {
  const banner = useBanner();
  // Each proof is a lookup: the source (with what it holds), the task's article, the task's target.
  const source = useLookup<FoundLocation & { available: number }>();
  const article = useLookup<true>();
  const target = useLookup<true>();
  const [amount, setAmount] = useState({ text: '', set: false });
  // The success view is the list's: this form is gone once it is booked.
  const booking = useBooking(moveArticle, { onBooked: onDone });
  const submitRef = useRef<HTMLButtonElement>(null);

  // The scan target is the next proof; with all four, 'Buchen' has the focus (a person's Enter books) and a
  // scan is refused out loud.
  const step = !source.value
    ? 'source'
    : !article.value
      ? 'article'
      : !amount.set
        ? 'amount'
        : !target.value
          ? 'target'
          : 'ready';
  useScanTarget(step === 'ready' ? { kind: 'none', expects: texts.nachschub.readyToBook } : null);
  useEffect(() => {
    if (step === 'ready') submitRef.current?.focus();
  }, [step]);

  async function scanSource(code: string) {
    const found = await lookUpLocation(code);
    if (!found.ok) return source.refuse(found.message);
    if (found.value.id === task.locationId) return source.refuse(texts.umlagern.sameLocation);
    try {
      const { amount: available } = await api.call(checkLpArticle, {
        params: { lpId: found.value.id, articleId: task.articleId },
      });
      if (available === 0) return source.refuse(texts.umlagern.nothingOnSource);
      source.choose({ ...found.value, available });
      setAmount({ text: String(Math.min(task.missing, available)), set: false });
    } catch (error) {
      banner.showError(messageOf(error));
    }
  }

  async function scanArticle(scanned: string) {
    const found = await lookUpArticle(scanned);
    if (!found.ok) return article.refuse(found.message);
    if (found.value.id !== task.articleId) return article.refuse(texts.nachschub.wrongArticle(task.nummer));
    article.choose(true);
  }

  async function scanTarget(code: string) {
    const found = await lookUpLocation(code);
    if (!found.ok) return target.refuse(found.message);
    if (found.value.id !== task.locationId) return target.refuse(texts.nachschub.wrongTarget(task.location));
    target.choose(true);
  }

  function book() {
    if (!source.value || !article.value || !amount.set || !target.value) return;
    void booking.book({
      from: source.value.id,
      to: task.locationId,
      article: task.articleId,
      amount: Number(amount.text),
    });
  }

  return (
    <div className="stack">
      <h2>{texts.nachschub.task(task.nummer, task.location)}</h2>
      <p className="hint">
        {task.name} · {texts.nachschub.source} {task.source?.location ?? texts.nachschub.noSource}
      </p>
      <LookupField
        lookup={source}
        label={texts.nachschub.scanSource}
        show={(l) => l.name}
        onScan={scanSource}
        current={step === 'source'}
      />
      <LookupField
        lookup={article}
        label={texts.nachschub.scanArticle}
        show={() => `${task.nummer} ${task.name}`}
        onScan={scanArticle}
        current={step === 'article'}
        disabled={!source.value}
      />
      <SetAmountField
        id="nachschub-amount"
        label={texts.nachschub.amount}
        max={source.value?.available ?? null}
        amount={amount.text}
        onChange={(text) => setAmount({ text, set: false })}
        isSet={amount.set}
        onSet={() => setAmount((a) => ({ ...a, set: true }))}
        onClear={() => setAmount((a) => ({ ...a, set: false }))}
        current={step === 'amount'}
        disabled={!article.value}
      />
      <LookupField
        lookup={target}
        label={texts.nachschub.scanTarget}
        show={() => task.location}
        onScan={scanTarget}
        current={step === 'target'}
        disabled={!amount.set}
      />
      <button
        ref={submitRef}
        type="button"
        className="button"
        disabled={!target.value || booking.busy}
        onClick={book}
      >
        {texts.nachschub.submit}
      </button>
      <button type="button" className="button button--secondary" onClick={onCancel}>
        {texts.nachschub.cancel}
      </button>
    </div>
  );
}
