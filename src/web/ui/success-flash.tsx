import { useEffect } from 'react';

/** Big green confirmation that hides itself after `durationMs` (SPEC §4: 1 s, 2 s for the batch). */
export function SuccessFlash({
  text,
  durationMs = 1000,
  onDone,
}: {
  text: string;
  durationMs?: number;
  onDone: () => void;
}) {
  useEffect(() => {
    const timer = setTimeout(onDone, durationMs);
    return () => clearTimeout(timer);
  }, [durationMs, onDone]);
  return (
    <div className="success-flash" role="status">
      <span className="success-mark" aria-hidden="true">
        ✓
      </span>
      <span>{text}</span>
    </div>
  );
}
