import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { feedback } from './feedback.ts';

interface BannerApi {
  /** Shows a message in the red banner until the next action (key, tap, submit). */
  showError(message: string): void;
  clear(): void;
}

const BannerContext = createContext<BannerApi | null>(null);
const MessageContext = createContext<string | null>(null);

export function BannerProvider({ children }: { children: ReactNode }) {
  const [message, setMessage] = useState<string | null>(null);
  const clear = useCallback(() => setMessage(null), []);
  const api = useMemo<BannerApi>(
    () => ({
      showError: (text: string) => {
        feedback.error(); // heard and felt, not only read
        setMessage(text);
      },
      clear,
    }),
    [clear],
  );

  // "Clears on the next action": the next key press or tap anywhere. On 'click', not 'pointerdown': the
  // banner leaving must not move the button under a finger that is still on the glass.
  useEffect(() => {
    if (message === null) return;
    const onAction = () => setMessage(null);
    window.addEventListener('keydown', onAction, { capture: true, once: true });
    window.addEventListener('click', onAction, { capture: true, once: true });
    return () => {
      window.removeEventListener('keydown', onAction, { capture: true });
      window.removeEventListener('click', onAction, { capture: true });
    };
  }, [message]);

  return (
    <BannerContext.Provider value={api}>
      <MessageContext.Provider value={message}>{children}</MessageContext.Provider>
    </BannerContext.Provider>
  );
}

export function useBanner(): BannerApi {
  const api = useContext(BannerContext);
  if (!api) throw new Error('useBanner outside BannerProvider');
  return api;
}

/** The red notification banner (SPEC §2); one per page, under the header. */
export function Banner() {
  const message = useContext(MessageContext);
  return (
    <div className="banner" role="alert" aria-live="assertive" hidden={message === null}>
      {message}
    </div>
  );
}
