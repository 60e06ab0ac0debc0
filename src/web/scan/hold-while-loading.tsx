import { type ReactNode, useLayoutEffect } from 'react';
import { appScanRouter } from './router.ts';

/** A screen that takes longer than this to load has failed to: held keys go on (and are refused out loud). */
const LOADING_HOLD_MAX_MS = 5000;

/**
 * A screen's code is loading (the Suspense fallback): a scan that comes now waits and goes to the screen's
 * target once it is there, instead of finding no target at all.
 */
export function HoldKeysWhileLoading({ children }: { children: ReactNode }) {
  useLayoutEffect(() => {
    const release = appScanRouter().holdKeys();
    const timer = setTimeout(release, LOADING_HOLD_MAX_MS);
    return () => {
      clearTimeout(timer);
      release();
    };
  }, []);
  return children;
}
