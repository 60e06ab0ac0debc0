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

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
