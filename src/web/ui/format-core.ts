import { currentLanguage } from '../../contract/i18n/current.ts';
import { languages } from '../../contract/i18n/languages.ts';

/**
 * What every format needs: the locale of the language shown (languages.ts; German's is de-DE), read at each
 * call, as the language may change at a login. Kept apart from `format.ts`, which exports it too, for the
 * outbox list: a small module of its own beside the list (it is fetched with the capture screens after login).
 */
export function locale(): string {
  return languages.find((l) => l.code === currentLanguage())?.locale ?? 'de-DE';
}

/** Short date, time to the second: 28.11.26, 08:18:17 (when a scan waiting on this device was made, in ms). */
export function shortDateAndTime(moment: number): string {
  return new Date(moment).toLocaleString(locale(), { dateStyle: 'short', timeStyle: 'medium' });
}
