import { currentLanguage, rendered } from './current.ts';
import type { CatalogueLanguage } from './languages.ts';

/**
 * One catalogue tree, looked up when a text is read (decision 35). Each handheld text object is wrapped where
 * it is defined — `export const zaehlauftragTexts = localized('zaehlauftrag', {...})` — so the call sites stay
 * `texts.x.y` and `texts.x.f(a)`: every read answers in the current language, from that language's catalogue
 * where it has the text, else in German. A text must therefore be read when it is shown, never kept in a
 * module-level constant (that would stay in the language of the moment it was read).
 */

type Tree = Record<string, unknown>;

/** The German trees by their key: what every catalogue mirrors. */
export const germanTrees: Record<string, Tree> = {};
const catalogues: Partial<Record<CatalogueLanguage, Tree>> = {};

/** Makes a language's catalogue (one file, `catalogues/<code>.ts`) the one its texts are read from. */
export function addCatalogue(language: CatalogueLanguage, catalogue: object): void {
  catalogues[language] = catalogue as Tree;
}

export function localized<const T extends object>(key: string, german: T): T {
  germanTrees[key] = { ...germanTrees[key], ...german };
  return wrap(german, [key]);
}

/**
 * The general texts (texts-core.ts, texts.ts): each section is its own key, so a code reads `lookup.
 * articleNotFound`, `errors.network`. A section both files have (`errors`) is one key of the catalogue.
 */
export function localizedSections<const T extends Record<string, object>>(german: T): T {
  return Object.fromEntries(
    Object.entries(german).map(([key, section]) => [key, localized(key, section)]),
  ) as T;
}

function translated(path: string[]): unknown {
  let node: unknown = catalogues[currentLanguage()];
  for (const step of path) node = (node as Tree | undefined)?.[step];
  return node;
}

function wrap<T extends object>(german: T, path: string[]): T {
  const made = new Map<string, unknown>();
  return new Proxy(german, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property);
      if (typeof property !== 'string') return value;
      const here = [...path, property];
      const code = here.join('.');
      if (typeof value === 'function') {
        // One stable function per text (a component's dependency stays the same); the language is chosen
        // when it is called, so a function kept by a caller still answers in the language of that moment.
        if (!made.has(property))
          made.set(property, (...params: unknown[]) => {
            const own = translated(here);
            const text = String((typeof own === 'function' ? own : value)(...params));
            rendered(code, params, text);
            return text;
          });
        return made.get(property);
      }
      if (value !== null && typeof value === 'object') {
        if (!made.has(property)) made.set(property, wrap(value, here));
        return made.get(property);
      }
      if (typeof value !== 'string') return value;
      const own = translated(here);
      const text = typeof own === 'string' ? own : value;
      rendered(code, [], text);
      return text;
    },
  });
}
