import type { APIRequestContext, BrowserContext, Page } from '@playwright/test';
import { setLanguageSource } from '../../src/contract/i18n/current.ts';
import type { Language } from '../../src/contract/i18n/languages.ts';
import { loadCatalogue } from '../../src/contract/i18n/load.ts';

/**
 * The language the e2e support code looks for texts in (issue 43, decision 35). The views and helpers read
 * every UI text from the contract's text objects when they run, and those answer in the current language: after
 * `await useLanguage('pl')` this test process looks for the Polish words, `await useLanguage('de')` goes back
 * to German. It sets what the tests look for, not what the handheld shows: the page follows its user's language.
 * `useLanguage('qps')`: the developers' pseudo-language (PSEUDO_LANGUAGE, e2e/pseudo-locale.spec.ts).
 */
export async function useLanguage(language: Language | 'qps'): Promise<void> {
  await loadCatalogue(language);
  setLanguageSource(() => language);
}

/**
 * A text function's text with any arguments, as a pattern: a control whose name is built from a text and
 * something of the data ('Kugelschreiber blau mehr'), found without spelling the data out — where the
 * arguments stand differs from language to language.
 */
export function withAnyArguments(text: (...args: string[]) => string): RegExp {
  const marker = '\u0000';
  const parts = text(marker, marker, marker).split(marker).map(escapeRegExp);
  return new RegExp(`^${parts.join('.*')}$`);
}

/**
 * Any one of these texts, within a longer one: a text whose words depend on a number the test does not know
 * beforehand (Polish says '1 artykuł', '3 artykuły', '5 artykułów').
 */
export function anyOf(texts: string[]): RegExp {
  return new RegExp(texts.map(escapeRegExp).join('|'));
}

/** A text at the start of a name or a line, whatever follows it (a note's number, a count). */
export function startingWith(text: string): RegExp {
  return new RegExp(`^${escapeRegExp(text)}`);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Sets a worker's own language on the server, as Einstellungen › Meine Sprache does: their next login shows
 * it. The demo worker by default; a spec that changes a shared worker sets German back after (e2e runs serial).
 */
export async function setWorkerLanguage(
  request: APIRequestContext,
  language: Language,
  worker = { username: 'demo', password: 'demo' },
): Promise<void> {
  const login = await request.post('/api/user/login', { data: worker });
  const { token } = (await login.json()) as { token: string };
  await setLanguageOfLogin(request, token, language);
  await request.get('/api/user/logout', { headers: { authorization: `Bearer ${token}` } });
}

/** Sets the language of the worker a login (its token) belongs to, as Einstellungen › Meine Sprache does. */
export async function setLanguageOfLogin(
  request: APIRequestContext,
  token: string,
  language: Language,
): Promise<void> {
  const set = await request.put('/api/einstellungen/sprache', {
    headers: { authorization: `Bearer ${token}`, 'x-idempotency-key': crypto.randomUUID() },
    data: { language },
  });
  if (set.status() !== 200)
    throw new Error(`setting a worker's language to ${language}: HTTP ${set.status()}`);
}

/**
 * The device's language (the login screen's switch) from the first page on: the login screen and its refusals
 * come in it before anyone is known. The web app's key (src/web/state/language.ts), spelled here: the e2e
 * code does not import the web app's modules.
 */
export async function setDeviceLanguage(target: Page | BrowserContext, language: Language): Promise<void> {
  await target.addInitScript(([key, value]) => localStorage.setItem(key, value), [
    'lagerscannerSprache',
    language,
  ] as const);
}
