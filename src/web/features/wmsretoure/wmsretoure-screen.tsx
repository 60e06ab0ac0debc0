import { type RefObject, useCallback, useRef, useState } from 'react';
import { scanLimits } from '../../../contract/limits.ts';
import { texts } from '../../../contract/texts.ts';
import { bookWmsRetoure, wmsItem, wmsStorage } from '../../../contract/wmsretoure.ts';
import { useActionKey } from '../../api/action-key.ts';
import { api } from '../../api/api.ts';
import { articleCode, lhmCode } from '../../api/article-lookups.ts';
import { messageOf } from '../../api/lookups.ts';
import { AmountField } from '../../ui/amount-field.tsx';
import { useBanner } from '../../ui/banner.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { LockedValue, ScanField } from '../../ui/scan-field.tsx';
import { SuccessFlash } from '../../ui/success-flash.tsx';
import { germanDate, parseMhd } from './mhd.ts';

type Article = { id: number; nummer: string; name: string; charge: boolean; mhd: boolean };
type Lhm = { id: number; code: string };

/**
 * WMS return (SPEC §2/§5): article, optional Charge and MHD (required when the article says so), the load
 * carrier (LHM), amount and quality (default 2); confirm, then the return is booked into stock.
 */
export default function WmsRetoureScreen() {
  const banner = useBanner();
  const [article, setArticle] = useState<Article | null>(null);
  const [lhm, setLhm] = useState<Lhm | null>(null);
  const [typed, setTyped] = useState({ article: '', lhm: '' });
  const [charge, setCharge] = useState('');
  const [mhdText, setMhdText] = useState('');
  const [amount, setAmount] = useState('1');
  const [quality, setQuality] = useState(2);
  const [confirming, setConfirming] = useState<{ mhd: string | null } | null>(null);
  const [success, setSuccess] = useState(false);
  const bookingKey = useActionKey();
  const articleRef = useRef<HTMLInputElement>(null);
  const chargeRef = useRef<HTMLInputElement>(null);
  const mhdRef = useRef<HTMLInputElement>(null);
  const lhmRef = useRef<HTMLInputElement>(null);
  const amountRef = useRef<HTMLInputElement>(null);
  /** Charge and MHD are done: scanned (Enter), typed and left, or brought along by the article's GS1 code. */
  const [done, setDone] = useState({ charge: false, mhd: false });

  // The scan target follows the form: article, Charge and MHD where the article needs them and they are not
  // done yet, the load carrier, then the amount (its Enter asks to book).
  const step = !article
    ? 'article'
    : article.charge && !done.charge
      ? 'charge'
      : article.mhd && !done.mhd
        ? 'mhd'
        : !lhm
          ? 'lhm'
          : 'amount';

  const type = (field: keyof typeof typed, value: string) => setTyped((t) => ({ ...t, [field]: value }));

  async function chooseArticle(text: string) {
    // One GS1 scan (carton label, DataMatrix) names the article and brings its Charge and MHD along.
    const named = articleCode(text);
    if (!named.ok) {
      banner.showError(named.message);
      type('article', '');
      return;
    }
    const scanned = named.code;
    try {
      const found = await api.call(wmsItem, { params: { article: scanned } });
      if (found.count > 1) banner.showError(texts.lookup.articleAmbiguous(scanned));
      else if (!found.found || found.id === null) banner.showError(texts.lookup.articleNotFound(scanned));
      else {
        const gs1 = named.gs1;
        // MHD: (15) best before, else (17) expiry, else (16) sell by (decision 15).
        setDone({ charge: Boolean(gs1?.batch), mhd: Boolean(gs1?.mhd) });
        if (gs1?.batch) setCharge(gs1.batch);
        if (gs1?.mhd) setMhdText(germanDate(gs1.mhd));
        // A field of the label meant for this form that could not be read is named; the worker fills it in.
        // Fields the form does not take (a price, a ship-to address) are no business of this screen.
        const unread = gs1?.problems.find((p) => [gs1.gtinFrom, '10', gs1.mhdFrom].includes(p.ai));
        if (unread) banner.showError(unread.message);
        setArticle({
          id: found.id,
          nummer: found.nummer ?? scanned,
          name: found.name ?? '',
          charge: found.charge,
          mhd: found.mindesthaltbarkeit,
        });
        return;
      }
      type('article', '');
    } catch (error) {
      banner.showError(messageOf(error));
    }
  }

  async function chooseLhm(text: string) {
    const named = lhmCode(text); // a pallet label's SSCC names the load carrier
    if (!named.ok) {
      banner.showError(named.message);
      type('lhm', '');
      return;
    }
    const code = named.code;
    try {
      const found = await api.call(wmsStorage, { params: { lhm: code } });
      if (!found.found || found.id === null) {
        banner.showError(texts.lookup.lhmNotFound(code));
        type('lhm', '');
        return;
      }
      setLhm({ id: found.id, code });
    } catch (error) {
      banner.showError(messageOf(error));
    }
  }

  /** The checks of SPEC §5, in the order of the form; the server checks the same again. */
  function submit() {
    if (!article) return fail(texts.wmsretoure.articleMissing, articleRef);
    if (article.charge && charge.trim() === '') return fail(texts.wmsretoure.chargeMissing, chargeRef);
    let mhd: string | null = null;
    if (mhdText.trim() !== '') {
      mhd = parseMhd(mhdText);
      if (!mhd) return fail(texts.wmsretoure.mhdInvalid, mhdRef);
      setMhdText(germanDate(mhd));
    } else if (article.mhd) return fail(texts.wmsretoure.mhdMissing, mhdRef);
    if (!lhm) return fail(texts.wmsretoure.lhmMissing, lhmRef);
    if (!/^\d+$/.test(amount.trim()) || Number(amount) < 1)
      return fail(texts.wmsretoure.amountInvalid, amountRef);
    setConfirming({ mhd });
  }

  function fail(message: string, ref: RefObject<HTMLInputElement | null>) {
    banner.showError(message);
    ref.current?.focus();
  }

  async function book() {
    if (!article || !lhm || !confirming) return;
    const { mhd } = confirming;
    setConfirming(null);
    try {
      const body = {
        article: article.id,
        lagerplatz: lhm.id,
        amount: Number(amount),
        charge: charge.trim() || null,
        mhd,
        quality,
      };
      await bookingKey.send(body, (idempotencyKey) =>
        api.call(bookWmsRetoure, {
          body,
          idempotencyKey,
          on401: 'scan',
        }),
      );
      setArticle(null);
      setLhm(null);
      setTyped({ article: '', lhm: '' });
      setCharge('');
      setMhdText('');
      setAmount('1');
      setQuality(2);
      setDone({ charge: false, mhd: false });
      setSuccess(true);
    } catch (error) {
      banner.showError(messageOf(error));
    }
  }

  const endSuccess = useCallback(() => setSuccess(false), []);
  return (
    <div className="stack">
      {success && <SuccessFlash text={texts.wmsretoure.success} onDone={endSuccess} />}
      {article ? (
        <LockedValue
          label={texts.wmsretoure.article}
          value={`${article.nummer} ${article.name}${article.charge ? ` · ${texts.wmsretoure.needsCharge}` : ''}${article.mhd ? ` · ${texts.wmsretoure.needsMhd}` : ''}`}
          onClear={() => {
            setArticle(null);
            type('article', '');
          }}
        />
      ) : (
        <ScanField
          ref={articleRef}
          label={texts.wmsretoure.article}
          value={typed.article}
          onChange={(v) => type('article', v)}
          onScan={chooseArticle}
          current={step === 'article'}
        />
      )}
      <ScanField
        ref={chargeRef}
        label={texts.wmsretoure.charge}
        maxLength={scanLimits.batch}
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
      {lhm ? (
        <LockedValue
          label={texts.wmsretoure.lhm}
          value={lhm.code}
          onClear={() => {
            setLhm(null);
            type('lhm', '');
          }}
        />
      ) : (
        <ScanField
          ref={lhmRef}
          label={texts.wmsretoure.lhm}
          value={typed.lhm}
          onChange={(v) => type('lhm', v)}
          onScan={chooseLhm}
          current={step === 'lhm'}
        />
      )}
      <form
        noValidate
        className="inline"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <div className="field">
          <label htmlFor="wms-amount">{texts.wmsretoure.amount}</label>
          <AmountField
            ref={amountRef}
            id="wms-amount"
            label={texts.wmsretoure.amount}
            current={step === 'amount'}
            value={amount}
            onChange={setAmount}
          />
        </div>
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
      {confirming && article && lhm && (
        <ConfirmDialog
          title={texts.wmsretoure.confirmTitle}
          confirmLabel={texts.wmsretoure.confirm}
          cancelLabel={texts.wmsretoure.cancel}
          onConfirm={book}
          onCancel={() => setConfirming(null)}
        >
          {texts.wmsretoure.confirmBody(Number(amount), article.nummer, lhm.code)}
        </ConfirmDialog>
      )}
    </div>
  );
}
