import { type FormEvent, useEffect, useRef, useState } from 'react';
import type { Language } from '../../contract/i18n/languages.ts';
import { scanLimits } from '../../contract/limits.ts';
import { coreTexts as texts } from '../../contract/texts-core.ts';
import { sessionApi } from '../api/api.ts';
import { loadAuthContract, preloadAuthContract } from '../api/auth-contract.ts';
import { ApiError } from '../api/client.ts';
import type { StoredSession } from '../api/session.ts';
import { holdKeysWhile, SCAN_ATTRIBUTE } from '../scan/router.ts';
import { useScanTarget } from '../scan/use-scan-target.ts';
import { keepWorkerLanguage, loadLanguage, showLanguage, wantedLanguage } from '../state/language.ts';
import { afterNextPaint } from '../ui/after-paint.ts';
import { Banner, useBanner } from '../ui/banner.tsx';
import { AppStatus } from './app-status.tsx';
import { LanguageSwitch } from './language-switch.tsx';
import { useSession } from './session.tsx';

/** A card text longer than this is a complete scan and logs in by itself (SPEC §5). */
const CARD_AUTO_SUBMIT_LENGTH = 205;
/** The scanner types the whole card within a few ms; wait this long after the last key for the rest. */
const CARD_SETTLE_MS = 120;

export function LoginScreen() {
  const [mode, setMode] = useState<'card' | 'password'>('card');
  const [card, setCard] = useState('');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const { logIn } = useSession();
  const banner = useBanner();
  const cardRef = useRef<HTMLInputElement>(null);
  const settleTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const nameRef = useRef<HTMLInputElement>(null);

  // A card logs in whatever the form shows: in card mode the scan goes into the card field, in password mode a
  // scanner's burst is taken out of the name or password field and logs in by card.
  useScanTarget(
    mode === 'card'
      ? { kind: 'field', label: texts.login.cardLabel, input: () => cardRef.current }
      : { kind: 'receiver', label: texts.login.cardLabel, receive: (text) => submitCard(text) },
  );
  useEffect(() => {
    if (mode === 'password') nameRef.current?.focus();
  }, [mode]);
  useEffect(preloadAuthContract, []);

  async function submit(call: () => Promise<StoredSession & { language: Language }>) {
    if (busy) return;
    setBusy(true);
    try {
      const answer = await call();
      // The worker's language before their first screen shows (no frame in the device's language first).
      const wanted = wantedLanguage(answer.language);
      const loaded = await loadLanguage(wanted);
      keepWorkerLanguage(answer.language);
      logIn({ token: answer.token, name: answer.name, id: answer.id, role: answer.role });
      showLanguage(loaded ? wanted : 'de');
      if (!loaded) banner.showError(texts.login.languageFailed);
    } catch (error) {
      const message =
        error instanceof ApiError
          ? error.status >= 500 && error.retryAfterMs === null // an overload says so itself (decision 26)
            ? texts.login.serverError
            : error.message
          : error instanceof Error
            ? error.message
            : texts.errors.network;
      banner.showError(message);
      setCard('');
      setPassword('');
    } finally {
      setBusy(false);
    }
  }

  const submitCard = (text: string) => {
    clearTimeout(settleTimer.current);
    if (text.trim() === '') return;
    const answer = submit(async () => {
      const { loginCard } = await loadAuthContract();
      return sessionApi.call(loginCard, { body: { stechuhrdevice: text.trim() }, on401: 'answer' });
    });
    // The field stays enabled (a disabled one would lose the next card's keys): they wait for this answer.
    if (cardRef.current) holdKeysWhile(answer, cardRef.current, afterNextPaint);
  };

  // Past 205 characters the card logs in without Enter, once the scanner has finished typing it.
  const onCardChange = (text: string) => {
    setCard(text);
    clearTimeout(settleTimer.current);
    if (text.length > CARD_AUTO_SUBMIT_LENGTH)
      settleTimer.current = setTimeout(() => submitCard(text), CARD_SETTLE_MS);
  };
  useEffect(() => () => clearTimeout(settleTimer.current), []);

  const onPasswordSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (username.trim() === '' || password === '') return;
    void submit(async () => {
      const { loginPassword } = await loadAuthContract();
      return sessionApi.call(loginPassword, {
        body: { username: username.trim(), password },
        on401: 'answer',
      });
    });
  };

  return (
    <div className="page">
      <header className="header">
        <h1 className="header-title">{texts.app.title}</h1>
        <LanguageSwitch />
      </header>
      <AppStatus offerUpdate />
      <Banner />
      <main className="content">
        <h2>{texts.login.heading}</h2>
        {mode === 'card' ? (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              submitCard(card);
            }}
          >
            <p className="hint">{texts.login.cardPrompt}</p>
            <div className="field">
              <label htmlFor="login-card">{texts.login.cardLabel}</label>
              <input
                ref={cardRef}
                id="login-card"
                className="scan-input"
                type="password"
                autoComplete="off"
                maxLength={scanLimits.card}
                {...{ [SCAN_ATTRIBUTE]: 'scan' }}
                value={card}
                onChange={(e) => onCardChange(e.target.value)}
              />
            </div>
            <button type="submit" className="button" disabled={busy}>
              {texts.login.submit}
            </button>
          </form>
        ) : (
          <form onSubmit={onPasswordSubmit}>
            <div className="field">
              <label htmlFor="login-name">{texts.login.username}</label>
              <input
                ref={nameRef}
                id="login-name"
                className="scan-input"
                type="text"
                autoComplete="username"
                autoCapitalize="off"
                value={username}
                onChange={(e) => setUsername(e.target.value)}
              />
            </div>
            <div className="field">
              <label htmlFor="login-password">{texts.login.password}</label>
              <input
                id="login-password"
                className="scan-input"
                type="password"
                autoComplete="current-password"
                value={password}
                onChange={(e) => setPassword(e.target.value)}
              />
            </div>
            <button type="submit" className="button" disabled={busy}>
              {texts.login.submit}
            </button>
          </form>
        )}
        <button
          type="button"
          className="button button--secondary"
          onClick={() => setMode(mode === 'card' ? 'password' : 'card')}
        >
          {mode === 'card' ? texts.login.toPassword : texts.login.toCard}
        </button>
      </main>
    </div>
  );
}
