import { createContext, type ReactNode, useContext, useEffect, useMemo, useState } from 'react';
import { coreTexts as texts } from '../../contract/texts-core.ts';
import { feedback } from './feedback.ts';

interface BannerApi {
  /** Shows a message in the red banner until the next action (key, tap, submit). */
  showError(message: string): void;
  /** Hides the banner; with a message: only while that message is the newest (the network is back). */
  clear(message?: string): void;
}

/**
 * A message that comes within this long of the one before, with only keys between (the next scans of a
 * burst, each refused), is shown with the earlier ones under it: a burst's refusals stay readable, the
 * first ones are not wiped by the next scan's first key. A tap clears them all.
 */
const EARLIER_KEPT_MS = 3000;
/** Earlier messages listed under the newest; beyond these, how many more. */
const EARLIER_SHOWN = 2;

interface Shown {
  newest: string | null;
  /** Newest first. */
  earlier: string[];
  /** The banner was cleared by a key: hidden, its messages kept for a message that follows soon. */
  hidden: boolean;
  at: number;
}

const NOTHING: Shown = { newest: null, earlier: [], hidden: true, at: Number.NEGATIVE_INFINITY };

const BannerContext = createContext<BannerApi | null>(null);
const MessageContext = createContext<Shown>(NOTHING);

export function BannerProvider({ children }: { children: ReactNode }) {
  const [shown, setShown] = useState<Shown>(NOTHING);
  const api = useMemo<BannerApi>(
    () => ({
      showError: (text: string) => {
        feedback.error(); // heard and felt, not only read
        const at = performance.now();
        setShown((before) => {
          const keep = before.newest !== null && (!before.hidden || at - before.at <= EARLIER_KEPT_MS);
          return {
            newest: text,
            earlier: keep && before.newest !== null ? [before.newest, ...before.earlier] : [],
            hidden: false,
            at,
          };
        });
      },
      clear: (message?: string) =>
        setShown((before) =>
          message === undefined || (before.newest === message && !before.hidden) ? NOTHING : before,
        ),
    }),
    [],
  );

  // "Clears on the next action": the next key press or tap anywhere. On 'click', not 'pointerdown': the
  // banner leaving must not move the button under a finger that is still on the glass.
  const visible = !shown.hidden;
  useEffect(() => {
    if (!visible) return;
    const onKey = () => setShown((before) => ({ ...before, hidden: true }));
    const onTap = () => setShown(NOTHING);
    window.addEventListener('keydown', onKey, { capture: true, once: true });
    window.addEventListener('click', onTap, { capture: true, once: true });
    return () => {
      window.removeEventListener('keydown', onKey, { capture: true });
      window.removeEventListener('click', onTap, { capture: true });
    };
  }, [visible]);

  return (
    <BannerContext.Provider value={api}>
      <MessageContext.Provider value={shown}>{children}</MessageContext.Provider>
    </BannerContext.Provider>
  );
}

export function useBanner(): BannerApi {
  const api = useContext(BannerContext);
  if (!api) throw new Error('useBanner outside BannerProvider');
  return api;
}

/**
 * The red notification banner (SPEC §2); one per page, under the header. The newest message is the alert;
 * earlier ones of the same burst are listed under it (`EARLIER_KEPT_MS`).
 */
export function Banner() {
  const { newest, earlier, hidden } = useContext(MessageContext);
  const listed = hidden ? [] : earlier.slice(0, EARLIER_SHOWN);
  const more = hidden ? 0 : earlier.length - listed.length;
  return (
    <>
      <div className="banner" role="alert" aria-live="assertive" hidden={hidden || newest === null}>
        {newest}
      </div>
      {listed.length > 0 && (
        <ul className="banner-earlier" aria-label={texts.banner.earlier}>
          {listed.map((message, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the same message may be listed twice
            <li key={i}>{message}</li>
          ))}
          {more > 0 && <li>{texts.banner.more(more)}</li>}
        </ul>
      )}
    </>
  );
}
