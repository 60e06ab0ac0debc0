import { useEffect, useLayoutEffect } from 'react';
import { coreTexts as texts } from '../../contract/texts-core.ts';
import { appScanRouter } from '../scan/router.ts';
import { connection } from '../state/connection.ts';
import { afterNextPaint } from '../ui/after-paint.ts';
import { useBanner } from '../ui/banner.tsx';

/**
 * Mounted once inside the banner: a refused scan is shown there, with the error sound and vibration; and a
 * 'Netzwerkfehler' leaves it as soon as the server answers again (or the browser says the network is back),
 * not only at the next key.
 */
export function ScanRouting() {
  const banner = useBanner();
  useEffect(
    () =>
      connection.subscribe(() => {
        if (connection.connected()) banner.clear(texts.errors.network);
      }),
    [banner],
  );
  useLayoutEffect(() => {
    appScanRouter().configure({
      show: banner.showError,
      texts: texts.scan,
      afterPaint: (go) => afterNextPaint(() => go()),
    });
  }, [banner]);
  return null;
}
