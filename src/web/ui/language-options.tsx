import { languages } from '../../contract/i18n/languages.ts';

/**
 * The languages of a select (the login screen's, Einstellungen'): each by its own name, as a worker looks for
 * theirs, and marked with its language for a screen reader.
 */
export function LanguageOptions() {
  return languages.map((l) => (
    <option key={l.code} value={l.code} lang={l.code}>
      {l.name}
    </option>
  ));
}
