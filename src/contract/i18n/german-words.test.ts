import { describe, expect, it } from 'vitest';
// Every module that registers a German tree (src/contract/i18n/catalogue.ts names them all).
import '../etiketten.ts';
import '../kommissionierung.ts';
import '../kommissionierwagen.ts';
import '../texts.ts';
import '../texts-scanner-test.ts';
import '../wareneingang.ts';
import '../zaehlauftrag.ts';
import { GERMAN_WORDS, germanWordsIn } from './german-words.ts';
import { languageCodes } from './languages.ts';
import { germanTrees } from './localized.ts';

/**
 * No German left in another language's catalogue (issue 43): a text a translator left in German, or half
 * translated, reads to a worker who reads no German as noise. Whole words of a list drawn from the German
 * texts (german-words.ts), in any case.
 */
describe('German words left in a catalogue', () => {
  for (const language of languageCodes.filter((code) => code !== 'de'))
    it(`${language}: has none`, async () => {
      const { default: catalogue } = (await import(`./catalogues/${language}.ts`)) as { default: object };
      expect(germanWordsIn(catalogue)).toEqual([]);
    });

  it('finds a planted German word in a text and in what a function makes, whole words only, any case', () => {
    const planted = {
      lookup: {
        unknownLocation: 'Nie znaleziono lokalizacji, bitte!',
        locationNotFound: (x: string) => `Lokalizacja "${x}" NICHT znaleziona`,
        articleAmbiguous: (n: number) => `${n} Artikel`,
      },
      // Part of a longer word, or a word German shares with another language: nothing.
      inventur: { title: 'Inwentaryzacja (Artikelnummer)', paket: 'Paket' },
    };
    expect(germanWordsIn(planted)).toEqual([
      'lookup.unknownLocation: „bitte“',
      'lookup.locationNotFound: „NICHT“',
      'lookup.articleAmbiguous: „Artikel“',
    ]);
  });

  it('lists only words of the German texts, each once', () => {
    const german = new Set(germanWordsIn(germanTrees).map((finding) => /„(.+)“$/.exec(finding)?.[1]));
    const lowerCase = new Set([...german].map((word) => word?.toLowerCase()));
    expect(GERMAN_WORDS.filter((word) => !lowerCase.has(word.toLowerCase()))).toEqual([]);
    expect(new Set(GERMAN_WORDS.map((word) => word.toLowerCase())).size).toBe(GERMAN_WORDS.length);
    expect(GERMAN_WORDS.length).toBeGreaterThanOrEqual(60);
  });
});
