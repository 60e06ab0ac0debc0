import { afterEach, describe, expect, it } from 'vitest';
// Every module that registers a German tree (src/contract/i18n/catalogue.ts names them all).
import '../etiketten.ts';
import '../kommissionierung.ts';
import '../kommissionierwagen.ts';
import '../texts-scanner-test.ts';
import '../wareneingang.ts';
import { texts } from '../texts.ts';
import { zaehlauftragTexts } from '../zaehlauftrag.ts';
import { catalogueFindings } from './check.ts';
import { setLanguageSource } from './current.ts';
import { type CatalogueLanguage, PSEUDO_LANGUAGE } from './languages.ts';
import { loadCatalogue } from './load.ts';
import { germanTrees } from './localized.ts';
import { pseudoText, pseudoTree } from './pseudo.ts';

const pseudo = pseudoTree(germanTrees);

/** The padding of a German text this long: 40 % more. */
const padding = (german: string) => '·'.repeat(Math.ceil(german.length * 0.4));

let language: CatalogueLanguage = 'de';
setLanguageSource(() => language);
await loadCatalogue(PSEUDO_LANGUAGE);
afterEach(() => {
  language = 'de';
});

describe('the pseudo-language', () => {
  it('accents a text, makes it about 40 % longer and puts it between markers', () => {
    const text = pseudoText('Lagerplatz nicht gefunden.');
    expect(text).toBe(`⟦Ļáǵéŕpļáţž ñíçĥţ ǵéfúñdéñ.${padding('Lagerplatz nicht gefunden.')}⟧`);
    expect(text.length - 2).toBeGreaterThanOrEqual('Lagerplatz nicht gefunden.'.length * 1.4);
    expect(pseudoText('')).toBe('');
  });

  it('keeps the arguments of a text as they are, scanned values above all', () => {
    expect(pseudoText('Lagerplatz "A-01-02" nicht gefunden!', ['A-01-02'])).toBe(
      `⟦Ļáǵéŕpļáţž "A-01-02" ñíçĥţ ǵéfúñdéñ!${padding('Lagerplatz "A-01-02" nicht gefunden!')}⟧`,
    );
  });

  it('has every key of the German trees, with their kinds, parameters and placeholders (check.ts)', () => {
    expect(catalogueFindings(germanTrees, pseudo as Record<string, unknown>)).toEqual({
      missing: [],
      wrong: [],
    });
  });

  it('is what every text reads in while it is the current language, German again after', () => {
    language = PSEUDO_LANGUAGE;
    // The scanned value is itself, not 'á-01'.
    expect(texts.lookup.locationNotFound('a-01')).toBe(
      `⟦Ļáǵéŕpļáţž "a-01" ñíçĥţ ǵéfúñdéñ!${padding('Lagerplatz "a-01" nicht gefunden!')}⟧`,
    );
    expect(zaehlauftragTexts.next).toBe(`⟦Ñäçĥšţéŕ Žäĥļáúfţŕáǵ${padding('Nächster Zählauftrag')}⟧`);
    language = 'de';
    expect(texts.lookup.locationNotFound('a-01')).toBe('Lagerplatz "a-01" nicht gefunden!');
  });
});
