import { useSyncExternalStore } from 'react';
import { setLanguageSource } from '../../contract/i18n/current.ts';
import { type CatalogueLanguage, type Language, PSEUDO_LANGUAGE } from '../../contract/i18n/languages.ts';
import { loadCatalogue } from '../../contract/i18n/load.ts';

/**
 * The language the handheld shows (issue 43, decision 35): the logged-in worker's (from the login answer,
 * kept with the login so a reload comes back in it), else the device's choice (the login screen's switch,
 * kept on the device). A language other than German shows only once its catalogue — its own download — is
 * here; until then, or when it cannot be loaded, the texts stay German. Part of the first download: kept small.
 */

/** The device's choice: kept when a logout clears the login (session.ts), as the device settings are. */
export const DEVICE_LANGUAGE_KEY = 'lagerscannerSprache';
/** The worker's language: cleared with the login. */
const WORKER_LANGUAGE_KEY = 'lagerscannerSpracheNutzer';

let shown: CatalogueLanguage = 'de';
const ready = new Set<string>(['de']);
const listeners = new Set<() => void>();
setLanguageSource(() => shown);

/** The language in use: every text is read in it, and every call says it (`X-Language`). */
export const shownLanguage = (): CatalogueLanguage => shown;

/** The device's choice; the developers' pseudo-language `qps` only as a test or a developer sets it. */
export const deviceLanguage = (): CatalogueLanguage =>
  (localStorage.getItem(DEVICE_LANGUAGE_KEY) as CatalogueLanguage | null) ?? 'de';

/**
 * What should show now: the logged-in worker's language (the login answer's, else the one kept), else the
 * device's. A device set to the pseudo-language keeps it over the worker's, as the server does with
 * `X-Language: qps` (decision 35): its run logs in as ordinary workers.
 */
export const wantedLanguage = (worker = localStorage.getItem(WORKER_LANGUAGE_KEY)): CatalogueLanguage => {
  const device = deviceLanguage();
  return device === PSEUDO_LANGUAGE || !worker ? device : (worker as Language);
};

export function keepDeviceLanguage(language: Language): void {
  localStorage.setItem(DEVICE_LANGUAGE_KEY, language);
}

/** Kept with the login (the login answer, Einstellungen), even when its catalogue could not be loaded. */
export function keepWorkerLanguage(language: Language): void {
  localStorage.setItem(WORKER_LANGUAGE_KEY, language);
}

/** Fetches a language's catalogue (once); false when it could not be loaded (a dead zone, a stale build). */
export async function loadLanguage(language: CatalogueLanguage): Promise<boolean> {
  try {
    if (!ready.has(language)) await loadCatalogue(language);
    ready.add(language);
    return true;
  } catch {
    return false;
  }
}

/**
 * Shows a loaded language from now on (the app re-renders from its root); at once when it is already loaded,
 * so a logout shows no frame in the worker's language.
 */
export function showLanguage(language: CatalogueLanguage): boolean {
  if (!ready.has(language)) return false;
  shown = language;
  document.documentElement.lang = language; // a screen reader reads Polish as Polish
  for (const listener of listeners) listener();
  return true;
}

/** Loads the language if need be, then shows it; false (nothing changed) when it could not be loaded. */
export async function switchLanguage(language: CatalogueLanguage): Promise<boolean> {
  return showLanguage(language) || ((await loadLanguage(language)) && showLanguage(language));
}

/** The language in use, re-rendering when it changes. */
export function useShownLanguage(): CatalogueLanguage {
  return useSyncExternalStore((listener) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  }, shownLanguage);
}
