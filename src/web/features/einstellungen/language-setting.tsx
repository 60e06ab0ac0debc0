import { useId, useState } from 'react';
import { setLanguage } from '../../../contract/auth.ts';
import type { Language } from '../../../contract/i18n/languages.ts';
import { texts } from '../../../contract/texts.ts';
import { useActionKey } from '../../api/action-key.ts';
import { api } from '../../api/api.ts';
import { messageOf } from '../../api/message.ts';
import { holdKeysUntil } from '../../scan/router.ts';
import { keepWorkerLanguage, loadLanguage, showLanguage, wantedLanguage } from '../../state/language.ts';
import { afterNextPaint } from '../../ui/after-paint.ts';
import { LanguageOptions } from '../../ui/language-options.tsx';

/**
 * The worker's own language (issue 43, decision 35): kept with the user on the server, so every handheld they
 * log in on follows it. Its catalogue is fetched first and the choice sent second: only when both went
 * through does the app switch (at once, rendered anew); a dead zone or a refusal says so in the language
 * shown, and nothing changed. The choice is one action with one idempotency key until it has an answer.
 */
export function LanguageSetting() {
  const id = useId();
  const [problem, setProblem] = useState('');
  const action = useActionKey();
  const choose = async (language: Language) => {
    setProblem('');
    if (!(await loadLanguage(language))) throw new Error(texts.settings.languageFailed);
    await action.send({ language }, (idempotencyKey) =>
      api.call(setLanguage, { body: { language }, idempotencyKey }),
    );
    keepWorkerLanguage(language);
    showLanguage(wantedLanguage()); // the worker's, unless the device holds the pseudo-language
  };
  const onChange = (language: Language) => {
    const chosen = choose(language).catch((error: unknown) => setProblem(messageOf(error)));
    // A scan made meanwhile waits for the screen in the new language.
    holdKeysUntil(chosen, afterNextPaint);
  };
  return (
    <div className="field">
      <label htmlFor={id}>{texts.settings.language}</label>
      <select
        id={id}
        className="scan-input"
        aria-describedby={`${id}-hint`}
        value={wantedLanguage()}
        onChange={(e) => onChange(e.target.value as Language)}
      >
        <LanguageOptions />
      </select>
      {problem ? (
        <p id={`${id}-hint`} className="field-problem" role="alert">
          {problem}
        </p>
      ) : (
        <p id={`${id}-hint`} className="hint">
          {texts.settings.languageHint}
        </p>
      )}
    </div>
  );
}
