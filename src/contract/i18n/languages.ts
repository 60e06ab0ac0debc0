/**
 * The languages a worker can read the handheld in (issue 43, decision 35), each by its own name (as a worker
 * looks for it in a list) and with the locale its numbers and dates are written in. German is the spec's own
 * text and is always there; another language's catalogue (`catalogues/<code>.ts`, loaded by `load.ts`) comes
 * when a worker who reads it logs in, so it is never part of the first download. Adding a language: its
 * catalogue file, one line here and its loader's line in load.ts (the compiler asks for it).
 */
export const languages = [
  { code: 'de', name: 'Deutsch', locale: 'de-DE' },
  { code: 'en', name: 'English', locale: 'en-GB' },
  { code: 'pl', name: 'Polski', locale: 'pl-PL' },
  { code: 'ro', name: 'Română', locale: 'ro-RO' },
  { code: 'uk', name: 'Українська', locale: 'uk-UA' },
  { code: 'tr', name: 'Türkçe', locale: 'tr-TR' },
] as const;

export type Language = (typeof languages)[number]['code'];

/** The codes, for a zod enum and the database's check. */
export const languageCodes = languages.map((l) => l.code) as [Language, ...Language[]];

export const isLanguage = (value: unknown): value is Language => languageCodes.includes(value as Language);

/**
 * A developer's pseudo-language (like Android's en-XA, decision 35): every German text accented, ~40 % longer
 * and between markers (`pseudo.ts`), so a test run in it finds any text that bypasses the catalogues. Not a
 * worker's language: not in the list above, nor in the database's check; the server honours it in
 * `X-Language` for any request.
 */
export const PSEUDO_LANGUAGE = 'qps';

/** A language a catalogue can be read in: a worker's, or the developers' pseudo-language. */
export type CatalogueLanguage = Language | typeof PSEUDO_LANGUAGE;
