import { useCallback, useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';

/**
 * Big green confirmation that hides itself after `durationMs` (SPEC §4: 1 s, 2 s for the batch). `saved`: the
 * scan waits in the outbox (no connection) — blue and an envelope, so it is not mistaken for 'Erfasst!'.
 * It never stands in the way of the next scan: the screen under it already takes it, and the first key of
 * it ends the confirmation, so what the scan brings is seen at once.
 */
export function SuccessFlash({
  text,
  durationMs = 1000,
  saved = false,
  image,
  onDone,
}: {
  text: string;
  durationMs?: number;
  saved?: boolean;
  /** A picture that says more than the text (the carrier of a parcel). */
  image?: FlashImage;
  onDone: () => void;
}) {
  useEffect(() => {
    const timer = setTimeout(onDone, durationMs);
    const onKey = (event: KeyboardEvent) => {
      if (event.isTrusted && event.key.length === 1) onDone();
    };
    window.addEventListener('keydown', onKey, { capture: true });
    return () => {
      clearTimeout(timer);
      window.removeEventListener('keydown', onKey, { capture: true });
    };
  }, [durationMs, onDone]);
  return (
    <div className={saved ? 'success-flash success-flash--saved' : 'success-flash'} role="status">
      {image ? (
        <img className="carrier-image" src={image.src} alt={image.alt} width={320} height={240} />
      ) : (
        <span className="success-mark" aria-hidden="true">
          {saved ? '✉' : '✓'}
        </span>
      )}
      <span>{text}</span>
    </div>
  );
}

interface FlashImage {
  src: string;
  alt: string;
}

interface ArrivalState {
  flash: { text: string; durationMs?: number; image?: FlashImage };
}

/** Navigation state that shows a confirmation on the screen a step leads to (see `ArrivalFlash`). */
export function arrivalFlash(
  text: string,
  more: { durationMs?: number; image?: FlashImage } = {},
): ArrivalState {
  return { flash: { text, ...more } };
}

/**
 * The confirmation of the step before, on the screen it led to: a step ends by going on at once, so the next
 * scan lands in the next step while the worker still sees that the last one went through.
 */
export function ArrivalFlash() {
  const location = useLocation();
  const navigate = useNavigate();
  const flash = (location.state as Partial<ArrivalState> | null)?.flash;
  const { pathname } = location;
  // Gone from the history entry too: a reload does not show it again.
  const onDone = useCallback(() => navigate(pathname, { replace: true, state: null }), [navigate, pathname]);
  return flash ? <SuccessFlash {...flash} onDone={onDone} /> : null;
}
