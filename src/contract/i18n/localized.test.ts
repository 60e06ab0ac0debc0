import { afterEach, describe, expect, it } from 'vitest';
import { texts } from '../texts.ts';
import { zaehlauftragTexts } from '../zaehlauftrag.ts';
import { setLanguageSource, setRenderLog } from './current.ts';
import type { Language } from './languages.ts';
import { addCatalogue } from './localized.ts';

let language: Language = 'de';
setLanguageSource(() => language);
addCatalogue('en', {
  lookup: { locationNotFound: (x: string) => `Location "${x}" not found!` },
  errors: { network: 'Network error', overloaded: 'Server busy' },
  zaehlauftrag: { next: 'Next count' },
});

afterEach(() => {
  language = 'de';
  setRenderLog(undefined);
});

describe('a text read through its catalogue', () => {
  it('is German while no other language is chosen', () => {
    expect(texts.lookup.locationNotFound('A-01')).toBe('Lagerplatz "A-01" nicht gefunden!');
    expect(zaehlauftragTexts.next).toBe('Nächster Zählauftrag');
  });

  it("answers in the current language, and in German where that language's catalogue lacks the text", () => {
    language = 'en';
    expect(texts.lookup.locationNotFound('A-01')).toBe('Location "A-01" not found!');
    expect(zaehlauftragTexts.next).toBe('Next count');
    expect(texts.lookup.articleNotFound('4711')).toBe('Artikel "4711" nicht gefunden!');
    expect(zaehlauftragTexts.noTask).toBe('Keine Zählaufträge offen.');
  });

  it('answers in the language of the moment it is read, also when the function or group was kept earlier', () => {
    const notFound = texts.lookup.locationNotFound;
    const errors = texts.errors;
    language = 'en';
    expect(notFound('B-2')).toBe('Location "B-2" not found!');
    expect(errors.network).toBe('Network error');
    // texts.errors joins the first download's errors with the server's: both follow the language
    expect(errors.overloaded).toBe('Server busy');
    language = 'pl'; // no Polish for these yet: German
    expect(notFound('B-2')).toBe('Lagerplatz "B-2" nicht gefunden!');
  });

  it('hands out the same function and group on every read (a React dependency stays stable)', () => {
    expect(texts.lookup.locationNotFound).toBe(texts.lookup.locationNotFound);
    expect(texts.inventur).toBe(texts.inventur);
  });

  it('notes each text it renders, by its key path and arguments', () => {
    const seen: unknown[] = [];
    setRenderLog({
      note: (text, { code, params }) => seen.push({ code, params, text }),
      find: () => undefined,
    });
    language = 'en';
    texts.lookup.locationNotFound('A-01');
    void texts.errors.network;
    expect(seen).toEqual([
      { code: 'lookup.locationNotFound', params: ['A-01'], text: 'Location "A-01" not found!' },
      { code: 'errors.network', params: [], text: 'Network error' },
    ]);
  });
});
