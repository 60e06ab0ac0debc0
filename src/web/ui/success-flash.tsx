import { useEffect } from 'react';

/**
 * Big green confirmation that hides itself after `durationMs` (SPEC §4: 1 s, 2 s for the batch). `saved`: the
 * scan waits in the outbox (no connection) — blue and an envelope, so it is not mistaken for 'Erfasst!'.
 */
export function SuccessFlash({
  text,
  durationMs = 1000,
  saved = false,
  onDone,
}: {
  text: string;
  durationMs?: number;
  saved?: boolean;
  onDone: () => void;
}) {
  useEffect(() => {
    const timer = setTimeout(onDone, durationMs);
    return () => clearTimeout(timer);
  }, [durationMs, onDone]);
  return (
    <div className={saved ? 'success-flash success-flash--saved' : 'success-flash'} role="status">
      <span className="success-mark" aria-hidden="true">
        {saved ? '✉' : '✓'}
      </span>
      <span>{text}</span>
    </div>
  );
}
