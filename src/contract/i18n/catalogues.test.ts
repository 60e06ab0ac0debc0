import { describe, expect, it } from 'vitest';
// Every module that registers a German tree (src/contract/i18n/catalogue.ts names them all).
import '../etiketten.ts';
import '../kommissionierung.ts';
import '../kommissionierwagen.ts';
import '../texts.ts';
import '../texts-scanner-test.ts';
import '../wareneingang.ts';
import '../zaehlauftrag.ts';
import type { Catalogue, PartialCatalogue } from './catalogue.ts';
import { catalogueFindings } from './check.ts';
import { type Language, languageCodes } from './languages.ts';
import { germanTrees } from './localized.ts';

/**
 * The languages whose catalogue is not complete yet: German answers for their missing texts. A language leaves
 * this list when its translator has filled every key — from then on a missing key fails this test (issue 43:
 * every catalogue complete). Empty this list and the check is strict for all.
 */
const STILL_BEING_TRANSLATED: readonly Language[] = [];

const catalogues = Object.fromEntries(
  await Promise.all(
    languageCodes
      .filter((code) => code !== 'de')
      .map(async (code) => [code, (await import(`./catalogues/${code}.ts`)).default as PartialCatalogue]),
  ),
) as Record<Exclude<Language, 'de'>, PartialCatalogue>;

describe('the catalogue of each language', () => {
  for (const [language, catalogue] of Object.entries(catalogues)) {
    const findings = catalogueFindings(germanTrees, catalogue as Record<string, unknown>);

    it(`${language}: has no key German lacks, and German's kinds, parameters and placeholders`, () => {
      expect(findings.wrong).toEqual([]);
    });

    if (STILL_BEING_TRANSLATED.includes(language as Language)) {
      it(`${language}: is still being translated (German answers for its ${findings.missing.length} missing texts)`, () => {
        // Complete now? Then take it off STILL_BEING_TRANSLATED, so a key missing later fails.
        expect(findings.missing).not.toEqual([]);
      });
    } else {
      it(`${language}: has every text German has`, () => {
        expect(findings.missing).toEqual([]);
      });
    }
  }
});

describe('the check of a catalogue', () => {
  const german = {
    lookup: {
      locationNotFound: (x: string) => `Lagerplatz "${x}" nicht gefunden!`,
      unknownLocation: 'Lagerplatz nicht gefunden.',
    },
    app: { title: 'Lagerscanner' },
  };

  it('finds a missing text, a key German lacks, another kind, a parameter too few and a placeholder left out', () => {
    expect(
      catalogueFindings(german, {
        lookup: { locationNotFound: () => 'Nie znaleziono lokalizacji!', extra: 'x' },
        app: 'Lagerscanner',
      }),
    ).toEqual({
      missing: ['lookup.unknownLocation'],
      wrong: [
        'lookup.extra: German has no such text',
        'lookup.locationNotFound: 0 parameters, German has 1',
        'app: a string where German has a group',
      ],
    });
    expect(
      catalogueFindings(german, {
        lookup: { locationNotFound: (_x: string) => 'Nie znaleziono lokalizacji!', unknownLocation: 'x' },
        app: { title: 'Lagerscanner' },
      }),
    ).toEqual({ missing: [], wrong: ['lookup.locationNotFound: leaves out «0»'] });
  });

  it('finds nothing in a catalogue that mirrors German', () => {
    const polish = {
      lookup: {
        locationNotFound: (x: string) => `Nie znaleziono lokalizacji "${x}"!`,
        unknownLocation: 'Nie znaleziono lokalizacji.',
      },
      app: { title: 'Lagerscanner' },
    };
    expect(catalogueFindings(german, polish)).toEqual({ missing: [], wrong: [] });
  });
});

it('is refused by the compiler where it does not mirror German (tsc fails on an unused @ts-expect-error)', () => {
  const partial: PartialCatalogue[] = [
    // @ts-expect-error a key German lacks
    { lookup: { noSuchText: 'x' } },
    // @ts-expect-error a function with other parameters than German's
    { lookup: { locationNotFound: (x: number) => `${x}` } },
    // @ts-expect-error a text where German has a function
    { lookup: { locationNotFound: 'x' } },
  ];
  // @ts-expect-error a complete catalogue lacks no key
  const complete: Catalogue = { lookup: {} };
  expect([...partial, complete]).toHaveLength(4);
});
