import { type ReactNode, Suspense } from 'react';
import { BrowserRouter } from 'react-router';
import { coreTexts as texts } from '../../contract/texts-core.ts';
import { HoldKeysWhileLoading } from '../scan/hold-while-loading.tsx';

/**
 * The app's router. A tap that opens a screen is rendered at once, in the tap's own task — not as a
 * transition, React Router's default: a transition yields to the keys that come meanwhile, so a scan right
 * after the tap had its first keys refused by the menu ('hier wird nichts gescannt') and the rest typed into
 * the screen's field. Rendered at once, the screen — or its 'Lädt …' (`ScreenCode`), which holds the keys —
 * is there before the scan's first key is handled, and the scan goes to it whole (DESIGN §8). So a Leitstand
 * page whose code loads shows 'Lädt …' too, not the page before it.
 */
export function AppRouter({ children }: { children: ReactNode }) {
  return <BrowserRouter useTransitions={false}>{children}</BrowserRouter>;
}

/**
 * Where a screen goes, whose code may still be loading: meanwhile 'Lädt …', and a scan that comes waits for
 * the screen (HoldKeysWhileLoading).
 */
export function ScreenCode({ children }: { children: ReactNode }) {
  return (
    <Suspense
      fallback={
        <HoldKeysWhileLoading>
          <p className="hint">{texts.app.loading}</p>
        </HoldKeysWhileLoading>
      }
    >
      {children}
    </Suspense>
  );
}
