import { type RefObject, useRef, useState } from 'react';
import { texts } from '../../../contract/texts.ts';
import { bookWmsRetoure, wmsItem, wmsRetoureAmount, wmsStorage } from '../../../contract/wmsretoure.ts';
import { api } from '../../api/api.ts';
import { articleCode, lhmCode } from '../../api/article-lookups.ts';
import { messageOf } from '../../api/message.ts';
import { LabelledAmountField, parseAmount } from '../../ui/amount-field.tsx';
import { useBanner } from '../../ui/banner.tsx';
import { BookingConfirm, useBooking } from '../../ui/booking.tsx';
import { germanDate } from '../../ui/format.ts';
import { LookupField, useLookup } from '../../ui/lookup-field.tsx';
import { parseMhd } from '../../ui/mhd.ts';
import { PrintLabelButton } from '../../ui/print-label.tsx';
import { ScanField } from '../../ui/scan-field.tsx';

type Article = { id: number; nummer: string; name: string; charge: boolean; mhd: boolean };
type Lhm = { id: number; code: string };

/**
 * WMS return (SPEC §2/§5): article, optional Charge and MHD (required when the article says so), the load
 * carrier (LHM), amount and quality (default 2); confirm, then the return is booked into stock.
 *
 * Longer than most screens: Charge and MHD are asked only for some articles, and one GS1 label may fill
 * three fields at once (decision 15), so which field takes the next scan depends on all of them together.
 */
export default function WmsRetoureScreen() {
  const banner = useBanner();
  const article = useLookup<Article>();
  const lhm = useLookup<Lhm>();
  const [charge, setCharge] = useState('');
  const [mhdText, setMhdText] = useState('');
  const [amount, setAmount] = useState('1');
  const [quality, setQuality] = useState(2);
  const chargeRef = useRef<HTMLInputElement>(null);
  const mhdRef = useRef<HTMLInputElement>(null);
  const amountRef = useRef<HTMLInputElement>(null);
  /** Charge and MHD are done: scanned (Enter), typed and left, or brought along by the article's GS1 code. */
  const [done, setDone] = useState({ charge: false, mhd: false });
  /** The load carrier of the last booking: 'Etikett drucken' prints its label (issue 21). */
  const [bookedLhm, setBookedLhm] = useState<string | null>(null);
  const booking = useBooking(bookWmsRetoure, {
    done: texts.wmsretoure.success,
    onBooked: () => {
      setBookedLhm(lhm.value?.code ?? null);
      article.clear();
      lhm.clear();
      setCharge('');
      setMhdText('');
      setAmount('1');
      setQuality(2);
      setDone({ charge: false, mhd: false });
    },
  });

  // The scan target follows the form: article, Charge and MHD where the article needs them and they are not
  // done yet, the load carrier, then the amount (its Enter asks to book).
  const step = !article.value
    ? 'article'
    : article.value.charge && !done.charge
      ? 'charge'
      : article.value.mhd && !done.mhd
        ? 'mhd'
        : !lhm.value
          ? 'lhm'
          : 'amount';

  async function chooseArticle(text: string) {
    // One GS1 scan (carton label, DataMatrix) names the article and brings its Charge and MHD along.
    const named = articleCode(text);
    if (!named.ok) return article.refuse(named.message);
    const scanned = named.code;
    try {
      const found = await api.call(wmsItem, { params: { article: scanned } });
      if (found.count > 1) return article.refuse(texts.lookup.articleAmbiguous(scanned));
      if (!found.found || found.id === null) return article.refuse(texts.lookup.articleNotFound(scanned));
      const gs1 = named.gs1;
      // MHD: (15) best before, else (17) expiry, else (16) sell by (decision 15).
      setDone({ charge: Boolean(gs1?.batch), mhd: Boolean(gs1?.mhd) });
      if (gs1?.batch) setCharge(gs1.batch);
      if (gs1?.mhd) setMhdText(germanDate(gs1.mhd));
      // A field of the label meant for this form that could not be read is named; the worker fills it in.
      // Fields the form does not take (a price, a ship-to address) are no business of this screen.
      const unread = gs1?.problems.find((p) => [gs1.gtinFrom, '10', gs1.mhdFrom].includes(p.ai));
      if (unread) banner.showError(unread.message);
      article.choose({
        id: found.id,
        nummer: found.nummer ?? scanned,
        name: found.name ?? '',
        charge: found.charge,
        mhd: found.mindesthaltbarkeit,
      });
    } catch (error) {
      banner.showError(messageOf(error));
    }
  }

  async function chooseLhm(text: string) {
    const named = lhmCode(text); // a pallet label's SSCC names the load carrier
    if (!named.ok) return lhm.refuse(named.message);
    const code = named.code;
    try {
      const found = await api.call(wmsStorage, { params: { lhm: code } });
      if (!found.found || found.id === null) return lhm.refuse(texts.lookup.lhmNotFound(code));
      lhm.choose({ id: found.id, code });
    } catch (error) {
      banner.showError(messageOf(error));
    }
  }

  /** The checks of SPEC §5, in the order of the form; the server checks the same again. */
  function submit() {
    if (!article.value) return fail(texts.wmsretoure.articleMissing, article.ref);
    if (article.value.charge && charge.trim() === '') return fail(texts.wmsretoure.chargeMissing, chargeRef);
    let mhd: string | null = null;
    if (mhdText.trim() !== '') {
      mhd = parseMhd(mhdText);
      if (!mhd) return fail(texts.wmsretoure.mhdInvalid, mhdRef);
      setMhdText(germanDate(mhd));
    } else if (article.value.mhd) return fail(texts.wmsretoure.mhdMissing, mhdRef);
    if (!lhm.value) return fail(texts.wmsretoure.lhmMissing, lhm.ref);
    const returned = parseAmount(amount, wmsRetoureAmount);
    if (returned === null) return fail(texts.wmsretoure.amountInvalid, amountRef);
    booking.ask({
      article: article.value.id,
      lagerplatz: lhm.value.id,
      amount: returned,
      charge: charge.trim() || null,
      mhd,
      quality,
    });
  }

  function fail(message: string, ref: RefObject<HTMLInputElement | null>) {
    banner.showError(message);
    ref.current?.focus();
  }

  const [what, carrier] = [article.value, lhm.value];
  return (
    <div className="stack">
      {booking.flash}
      <LookupField
        lookup={article}
        label={texts.wmsretoure.article}
        show={(a) =>
          `${a.nummer} ${a.name}${a.charge ? ` · ${texts.wmsretoure.needsCharge}` : ''}${a.mhd ? ` · ${texts.wmsretoure.needsMhd}` : ''}`
        }
        onScan={chooseArticle}
        current={step === 'article'}
      />
      <ScanField
        ref={chargeRef}
        label={texts.wmsretoure.charge}
        field={bookWmsRetoure.body.shape.charge.unwrap()}
        value={charge}
        onChange={(text) => {
          setCharge(text);
          setDone((d) => ({ ...d, charge: false }));
        }}
        onScan={() => setDone((d) => ({ ...d, charge: true }))}
        onLeave={(text) => setDone((d) => ({ ...d, charge: text.trim() !== '' }))}
        current={step === 'charge'}
      />
      <ScanField
        ref={mhdRef}
        label={texts.wmsretoure.mhd}
        placeholder={texts.wmsretoure.mhdHint}
        value={mhdText}
        onChange={(text) => {
          setMhdText(text);
          setDone((d) => ({ ...d, mhd: false }));
        }}
        onScan={(text) => {
          const iso = parseMhd(text);
          if (!iso) return fail(texts.wmsretoure.mhdInvalid, mhdRef);
          setMhdText(germanDate(iso));
          setDone((d) => ({ ...d, mhd: true }));
        }}
        onLeave={(text) => setDone((d) => ({ ...d, mhd: parseMhd(text) !== null }))}
        current={step === 'mhd'}
      />
      <LookupField
        lookup={lhm}
        label={texts.wmsretoure.lhm}
        show={(l) => l.code}
        onScan={chooseLhm}
        current={step === 'lhm'}
      />
      <form
        noValidate
        className="inline"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <LabelledAmountField
          ref={amountRef}
          id="wms-amount"
          label={texts.wmsretoure.amount}
          current={step === 'amount'}
          value={amount}
          onChange={setAmount}
        />
        <div className="field">
          <label htmlFor="wms-quality">{texts.wmsretoure.quality}</label>
          <select
            id="wms-quality"
            className="scan-input"
            value={quality}
            onChange={(e) => setQuality(Number(e.target.value))}
          >
            {[1, 2, 3].map((q) => (
              <option key={q} value={q}>
                {q}
              </option>
            ))}
          </select>
        </div>
      </form>
      <button type="button" className="button" onClick={submit}>
        {texts.wmsretoure.submit}
      </button>
      {bookedLhm && <PrintLabelButton key={bookedLhm} kind="lhm" code={bookedLhm} />}
      {what && carrier && (
        <BookingConfirm
          booking={booking}
          title={texts.wmsretoure.confirmTitle}
          confirmLabel={texts.wmsretoure.confirm}
          cancelLabel={texts.wmsretoure.cancel}
        >
          {(asked) => texts.wmsretoure.confirmBody(asked.amount, what.nummer, carrier.code)}
        </BookingConfirm>
      )}
    </div>
  );
}
