import type { etikettenTexts } from '../etiketten.ts';
import type { druckTexts } from '../etiketten-druck.ts';
import type { kommissionierungTexts } from '../kommissionierung.ts';
import type { kommissionierwagenTexts } from '../kommissionierwagen.ts';
import type { fieldLabels, texts } from '../texts.ts';
import type { scannerTestTexts } from '../texts-scanner-test.ts';
import type { wareneingangTexts } from '../wareneingang.ts';
import type { zaehlauftragTexts } from '../zaehlauftrag.ts';

/**
 * Every German tree `localized` registers, by its key: what a catalogue mirrors. A text object wrapped with
 * `localized(key, …)` gets its line here, so every catalogue is then checked for it.
 */
type GermanTexts = typeof texts & {
  scannerTest: typeof scannerTestTexts;
  kommissionierung: typeof kommissionierungTexts;
  kommissionierwagen: typeof kommissionierwagenTexts;
  zaehlauftrag: typeof zaehlauftragTexts;
  wareneingang: typeof wareneingangTexts;
  druck: typeof druckTexts;
  fieldLabels: typeof fieldLabels;
  etiketten: Omit<typeof etikettenTexts, keyof typeof druckTexts>;
};

/** A German text's shape: a text is any text, a function keeps German's parameters and gives a text. */
type Shape<T> = T extends (...params: infer P) => unknown
  ? (...params: P) => string
  : T extends string
    ? string
    : { readonly [K in keyof T]: Shape<T[K]> };

type Partly<T> = T extends (...params: infer P) => unknown
  ? (...params: P) => string
  : T extends string
    ? string
    : { readonly [K in keyof T]?: Partly<T[K]> };

/** A complete catalogue: every key German has, none it lacks, each function with German's parameters. */
export type Catalogue = Shape<GermanTexts>;

/**
 * A catalogue while it is being translated: no key German lacks, but keys may be missing (German answers for
 * them). Each language's file is checked against the complete shape by `catalogues.test.ts`, which lists the
 * languages not complete yet.
 */
export type PartialCatalogue = Partly<GermanTexts>;
