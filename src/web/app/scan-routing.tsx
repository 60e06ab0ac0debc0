import { useLayoutEffect } from 'react';
import { coreTexts as texts } from '../../contract/texts-core.ts';
import { configureScanRouter } from '../scan/router.ts';
import { useBanner } from '../ui/banner.tsx';

/** Mounted once inside the banner: a refused scan is shown there, with the error sound and vibration. */
export function ScanRouting() {
  const banner = useBanner();
  useLayoutEffect(() => {
    configureScanRouter({ show: banner.showError, texts: texts.scan });
  }, [banner]);
  return null;
}
