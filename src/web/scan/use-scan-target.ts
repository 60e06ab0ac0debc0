import { useLayoutEffect, useRef } from 'react';
import { appScanRouter, type ScanLevel, type ScanTarget, type ScanTargetHandle } from './router.ts';

/**
 * Declares this component's scan target while `target` is not null: where a scan goes in the screen's
 * current state (see router.ts). A new kind, label or expectation is a new target, and its field gets the
 * focus; anything else (handlers of a later render) just replaces the old one's.
 */
export function useScanTarget(target: ScanTarget | null, level: ScanLevel = 'screen'): void {
  const latest = useRef(target);
  latest.current = target;
  const handle = useRef<ScanTargetHandle | null>(null);
  const identity =
    target === null ? null : `${target.kind}:${target.kind === 'none' ? target.expects : target.label}`;
  useLayoutEffect(() => {
    if (identity === null || latest.current === null) return;
    const registered = appScanRouter().registerTarget(latest.current, level);
    handle.current = registered;
    return () => {
      registered.remove();
      if (handle.current === registered) handle.current = null;
    };
  }, [identity, level]);
  useLayoutEffect(() => {
    if (target) handle.current?.update(target);
  });
}
