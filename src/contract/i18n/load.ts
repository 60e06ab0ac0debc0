import type { PartialCatalogue } from './catalogue.ts';
import type { CatalogueLanguage } from './languages.ts';
import { addCatalogue, germanTrees } from './localized.ts';

/** Each catalogue is its own file and, in the web app, its own download (the first one carries German only). */
const loaders: Record<Exclude<CatalogueLanguage, 'de'>, () => Promise<{ default: PartialCatalogue }>> = {
  en: () => import('./catalogues/en.ts'),
  pl: () => import('./catalogues/pl.ts'),
  ro: () => import('./catalogues/ro.ts'),
  uk: () => import('./catalogues/uk.ts'),
  tr: () => import('./catalogues/tr.ts'),
  // The developers' pseudo-language (decision 35): made from the German trees when it is loaded.
  qps: async () => ({ default: (await import('./pseudo.ts')).pseudoTree(germanTrees) }),
};

/** Loads a language's catalogue (once; German needs none), so its texts are read from then on. */
export async function loadCatalogue(language: CatalogueLanguage): Promise<void> {
  if (language === 'de') return;
  addCatalogue(language, (await loaders[language]()).default);
}
