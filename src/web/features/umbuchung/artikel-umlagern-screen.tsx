import { useCallback, useRef, useState } from 'react';
import { texts } from '../../../contract/texts.ts';
import { articleInfo, checkLpArticle, moveArticle } from '../../../contract/umbuchung.ts';
import { api } from '../../api/api.ts';
import { type FoundArticle, lookUpArticle } from '../../api/article-lookups.ts';
import { type FoundLocation, lookUpLocation } from '../../api/lookups.ts';
import { messageOf } from '../../api/message.ts';
import { useScanTarget } from '../../scan/use-scan-target.ts';
import { useBanner } from '../../ui/banner.tsx';
import { BookingConfirm, useBooking } from '../../ui/booking.tsx';
import { type Column, DataTable } from '../../ui/data-table.tsx';
import { LookupField, useLookup } from '../../ui/lookup-field.tsx';
import { SetAmountField } from '../../ui/set-amount.tsx';

type InfoRow = { kurzbezeichnung: string; lagertyp: string; amount: number };

/**
 * Article rebooking (SPEC §2, §4): article → source location → amount ('Setzen') → target → confirm.
 * Each field locks after a successful lookup; X clears it. The idempotency key lives until the move succeeded.
 *
 * Longer than most screens: the amount's bound (what the source holds of the article) is checked whichever
 * of article and source is scanned second, and ✕ on either undoes it.
 */
export default function ArtikelUmlagernScreen() {
  const banner = useBanner();
  const article = useLookup<FoundArticle>();
  const source = useLookup<FoundLocation>();
  const target = useLookup<FoundLocation>();
  const [amount, setAmount] = useState({ text: '', set: false, missing: false });
  /** What the source holds of the article: the most that can be moved. */
  const [maxAmount, setMaxAmount] = useState<number | null>(null);
  const [info, setInfo] = useState<InfoRow[] | null>(null);
  const amountRef = useRef<HTMLInputElement>(null);

  // The scan target (and the focus) is the next thing to do; with everything chosen, the next step is a tap.
  const step = !article.value
    ? 'article'
    : !source.value
      ? 'source'
      : !amount.set
        ? 'amount'
        : !target.value
          ? 'target'
          : 'ready';
  useScanTarget(step === 'ready' ? { kind: 'none', expects: texts.umlagern.readyToMove } : null);

  const resetAmount = useCallback(() => setAmount({ text: '', set: false, missing: false }), []);
  const booking = useBooking(moveArticle, {
    done: texts.umlagern.success,
    onBooked: () => {
      article.clear();
      source.clear();
      target.clear();
      resetAmount();
      setMaxAmount(null);
      setInfo(null);
    },
  });

  async function chooseArticle(scanned: string) {
    const found = await lookUpArticle(scanned);
    if (!found.ok) return article.refuse(found.message);
    // The bound first, then the lock: focus moves on only when the amount field knows its maximum. An article
    // that is not on the source is refused here, not found out at the amount ('höchstens 0').
    if (source.value && !(await loadMax(source.value, found.value))) return article.clear();
    article.choose(found.value);
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
    if (!found.ok) return source.refuse(found.message);
    if (article.value && !(await loadMax(found.value, article.value))) return source.clear();
    source.choose(found.value);
  }

  async function chooseTarget(code: string) {
    const found = await lookUpLocation(code);
    if (!found.ok) return target.refuse(found.message);
    if (source.value && found.value.id === source.value.id) return target.refuse(texts.umlagern.sameLocation);
    target.choose(found.value);
  }

  function submit() {
    if (!article.value || !source.value || !amount.set || !target.value) {
      const first = [article, source].find((l) => l.value === null);
      article.flagIfMissing();
      source.flagIfMissing();
      target.flagIfMissing();
      if (!amount.set) setAmount((a) => ({ ...a, missing: true }));
      banner.showError(texts.umlagern.missingFields);
      (first?.ref ?? (!amount.set ? amountRef : target.ref)).current?.focus();
      return;
    }
    booking.ask({
      from: source.value.id,
      to: target.value.id,
      article: article.value.id,
      amount: Number(amount.text),
    });
  }

  const [what, from, to] = [article.value, source.value, target.value];
  return (
    <div className="stack">
      {booking.flash}
      <LookupField
        lookup={article}
        label={texts.umlagern.article}
        show={(a) => `${a.nummer} ${a.name}`}
        onScan={chooseArticle}
        current={step === 'article'}
        onClear={() => {
          setInfo(null);
          setMaxAmount(null);
          resetAmount();
        }}
      />
      <LookupField
        lookup={source}
        label={texts.umlagern.source}
        show={(l) => l.name}
        onScan={chooseSource}
        current={step === 'source'}
        onClear={() => {
          setMaxAmount(null);
          resetAmount();
        }}
      />
      <SetAmountField
        id="umlagern-amount"
        label={texts.umlagern.amount}
        max={maxAmount}
        amount={amount.text}
        onChange={(text) => setAmount({ text, set: false, missing: false })}
        isSet={amount.set}
        onSet={() => setAmount((a) => ({ ...a, set: true, missing: false }))}
        onClear={resetAmount}
        current={step === 'amount'}
        disabled={article.value === null || source.value === null}
        invalid={amount.missing}
        inputRef={amountRef}
      />
      <LookupField
        lookup={target}
        label={texts.umlagern.target}
        show={(l) => l.name}
        onScan={chooseTarget}
        current={step === 'target'}
        disabled={!amount.set}
      />
      <button type="button" className="button" disabled={booking.busy} onClick={submit}>
        {texts.umlagern.submit}
      </button>
      {what && from && to && (
        <BookingConfirm
          booking={booking}
          title={texts.umlagern.confirmTitle}
          confirmLabel={texts.umlagern.confirm}
          cancelLabel={texts.umlagern.cancel}
        >
          {(asked) => texts.umlagern.confirmBody(asked.amount, what.nummer, from.name, to.name)}
        </BookingConfirm>
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
  { header: () => texts.umlagern.infoLocation, cell: (row) => row.kurzbezeichnung, kind: 'code' },
  { header: () => texts.umlagern.infoType, cell: (row) => row.lagertyp },
  { header: () => texts.umlagern.infoAmount, cell: (row) => row.amount, kind: 'number' },
];
