import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import pl from '../src/contract/i18n/catalogues/pl.ts';
import { texts } from '../src/contract/texts.ts';
import { scannerTestTexts } from '../src/contract/texts-scanner-test.ts';
import { zaehlauftragTexts } from '../src/contract/zaehlauftrag.ts';
import { useLanguage, withAnyArguments } from './support/language.ts';

/**
 * The e2e support code finds the screens in any language (issue 43): views.ts, helpers.ts and the scan walker
 * read their words from the contract's texts when they run, so `useLanguage` turns what they look for into that
 * language's words. Checked without a browser: the texts they read, and their source for a German word spelled out.
 * (The web app's own switch at login is another step; with it, the overflow run drives the views in each
 * language — decision 35.)
 */

// One worker runs every spec file: whatever a test here sets, the next spec must find German again.
test.afterEach(async () => {
  await useLanguage('de');
});

test('after useLanguage the texts the views look for are Polish, and German again after useLanguage de', async () => {
  await useLanguage('pl');
  expect(texts.login.toPassword).toBe(pl.login.toPassword);
  expect(texts.app.mainMenu).toBe(pl.app.mainMenu);
  expect(texts.menu.inventur).toBe(pl.menu.inventur);
  expect(texts.app.logout('Demo Nutzer')).toBe(pl.app.logout('Demo Nutzer'));
  expect(scannerTestTexts.field).toBe(pl.scannerTest.field);
  expect(zaehlauftragTexts.next).toBe(pl.zaehlauftrag.next);
  expect(texts.login.toPassword).not.toBe('Mit Name und Passwort anmelden');

  await useLanguage('de');
  expect(texts.login.toPassword).toBe('Mit Name und Passwort anmelden');
  expect(texts.app.mainMenu).toBe('Hauptmenü');
  expect(texts.menu.inventur).toBe('Inventur');
  expect(texts.app.logout('Demo Nutzer')).toBe('Demo Nutzer abmelden');
  expect(scannerTestTexts.field).toBe('Hier scannen');
  expect(zaehlauftragTexts.next).toBe('Nächster Zählauftrag');
});

test('a name built from a text and data is found in each language, wherever the data stands', async () => {
  // German puts the carton's name first ('Karton S mehr'); Polish too, with a colon ('Karton S: więcej').
  expect('Karton S mehr').toMatch(withAnyArguments(texts.app.more));
  expect('Karton S: więcej').not.toMatch(withAnyArguments(texts.app.more));
  await useLanguage('pl');
  expect('Karton S: więcej').toMatch(withAnyArguments(texts.app.more));
  expect('Karton S mehr').not.toMatch(withAnyArguments(texts.app.more));
  // A pattern's special characters in a text are matched as they are ('(', '.', '?').
  expect(withAnyArguments(() => 'Fehlgeschlagen (1).').test('Fehlgeschlagen (1).')).toBe(true);
  expect(withAnyArguments(() => 'Fehlgeschlagen (1).').test('Fehlgeschlagen 1x')).toBe(false);
});

/**
 * What a German UI text looks like in a string: an umlaut or ß, or one of the words the screens use most. The
 * data the views enter or expect (a user's name, an article's, the ERP's CSV header, an address that does not
 * exist) is listed on its own.
 */
const germanWords =
  /\b(Anmelden|abmelden|Passwort|Karte|Name|Hauptmenü|Einstellungen|Lagerplatz|Artikel|Menge|Buchen|Abbrechen|Lieferschein|Trackingnummer|Erfasst|Gezählt|Zurück|Neu|Kennzeichen|Wechselbrücke|Charge|Bitte|bitte|nicht|mehr|scannen|senden|Inventur|Retoure|Kommissionierung|Umbuchung|Nachschub|Wareneingang|Zollpaket)\b/;
const umlaut = /[äöüÄÖÜß]/;
const data = new Set([
  "'Demo Nutzer'",
  "'Schicht Leitung'",
  "'Kugelschreiber blau'",
  "'Belegnr;EU;Versandart;Gravur;Batch;Projekt;Artikelnummer;Menge'",
  '` Kugelschreiber blau`',
  "'/gibt/es/nicht'",
]);

/** The string literals of a TypeScript source, comments left out (a string is taken whole, first come first). */
function stringLiterals(source: string): string[] {
  const tokens = source.match(
    /\/\/[^\n]*|\/\*[\s\S]*?\*\/|'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g,
  );
  return (tokens ?? []).filter((token) => !token.startsWith('//') && !token.startsWith('/*'));
}

/** A template literal's own text, its `${…}` parts left out (they are code, read above as code). */
const ownText = (literal: string) => literal.replace(/\$\{[^}]*\}/g, '');

/**
 * The walker's rows keep their German names: a row's `name` is its test's title (the German walk's titles stay
 * as they were), not a text it looks for — left out, each on its own line as the rows write it, and so is the
 * walk's comparison with a screen's name. A `name` inside a call (`{ name: 'Neu' }`) is a UI text and stays in.
 */
const withoutRowNames = (source: string) =>
  source.replace(/^\s*name: (['"]).*\1,$/gm, '').replace(/screen\.name === '[^']*'/g, '');

const asItIs = (source: string) => source;
const spellsNoGerman: [string, (source: string) => string][] = [
  ['e2e/support/views.ts', asItIs],
  ['e2e/support/helpers.ts', asItIs],
  ['e2e/scan-walker.spec.ts', withoutRowNames],
];

for (const [file, read] of spellsNoGerman) {
  test(`${file} spells out no German UI text: it reads each from the contract`, () => {
    const found = stringLiterals(read(fs.readFileSync(file, 'utf8')))
      .map(ownText)
      .filter((literal) => !data.has(literal))
      .filter((literal) => umlaut.test(literal) || germanWords.test(literal));
    expect(found).toEqual([]);
  });
}

test('the source check finds a German text spelled out, and not one in a comment', () => {
  const source = [
    "// 'Lagerplatz' in a comment",
    "await page.getByLabel('Lagerplatz');",
    "await page.getByRole('link', { name: '**/api/**' });",
    'const x = `$' + '{name} abmelden`;',
    "await page.getByText('Gerätename');",
  ].join('\n');
  const found = stringLiterals(source)
    .map(ownText)
    .filter((literal) => umlaut.test(literal) || germanWords.test(literal));
  expect(found).toEqual(["'Lagerplatz'", '` abmelden`', "'Gerätename'"]);
});

test("the walker's row names are left out of the check, a name in a call is not", () => {
  const source = [
    "      name: 'Gerätename tapped',",
    '        name: "after \'Etikett drucken\'",',
    "  if (screen.name === 'Kommissionierung') picking = { note: '' };",
    "  await page.getByRole('button', { name: 'Neu' }).click();",
    "      lands: { locked: 'Lagerplatz', text: 'A-01-01-01' },",
  ].join('\n');
  const found = stringLiterals(withoutRowNames(source))
    .map(ownText)
    .filter((literal) => umlaut.test(literal) || germanWords.test(literal));
  expect(found).toEqual(["'Neu'", "'Lagerplatz'"]);
});
