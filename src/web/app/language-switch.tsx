import type { Language } from '../../contract/i18n/languages.ts';
import { coreTexts as texts } from '../../contract/texts-core.ts';
import { holdKeysUntil, refocusTarget } from '../scan/router.ts';
import { keepDeviceLanguage, shownLanguage, switchLanguage } from '../state/language.ts';
import { afterNextPaint } from '../ui/after-paint.ts';
import { useBanner } from '../ui/banner.tsx';
import { LanguageOptions } from '../ui/language-options.tsx';

/**
 * The login screen's language for this device (issue 43): before anyone is known the handheld shows it, and
 * after a logout it comes back to it. Each language by its own name, as a worker looks for theirs. A scan
 * made while the choice loads waits for the screen in the new language (it is rendered anew), and the focus
 * goes back to the card field: the select never keeps the scanner's keys. Part of the first download (a lazy
 * chunk of its own cost more there: it split Vite's preload helper off the entry).
 */
export function LanguageSwitch() {
  const banner = useBanner();
  const choose = (language: Language) => {
    keepDeviceLanguage(language);
    const switched = switchLanguage(language).then((shown) => {
      if (!shown) banner.showError(texts.login.languageFailed);
    });
    holdKeysUntil(switched, afterNextPaint);
    void switched.then(refocusTarget);
  };
  return (
    <select
      className="header-button header-logout language-switch"
      aria-label={texts.login.language}
      value={shownLanguage()}
      onChange={(e) => choose(e.target.value as Language)}
    >
      <LanguageOptions />
    </select>
  );
}
