import type { PartialCatalogue } from '../catalogue.ts';

/**
 * Polski (pl): the first texts, written for warehouse staff (short imperative, a picker's words: a Lagerplatz
 * is a „lokalizacja“, an LHM a „nośnik ładunku“); every text not here yet falls back to German. A translator
 * fills the rest (decision 35); catalogues.test.ts lists this language among those still incomplete until
 * every key is here.
 */
export default {
  lookup: {
    articleNotFound: (x) => `Nie znaleziono artykułu "${x}"!`,
    articleAmbiguous: (x) => `Numer "${x}" nie jest jednoznaczny!`,
    locationNotFound: (x) => `Nie znaleziono lokalizacji "${x}"!`,
    unknownLocation: 'Nie znaleziono lokalizacji.',
    unknownArticle: 'Nie znaleziono artykułu.',
    lhmNotFound: (x) => `Nie znaleziono nośnika ładunku "${x}"!`,
    articleOnNoLocation: 'Artykułu nie ma na żadnej lokalizacji!',
    locationEmpty: 'Brak artykułów na tej lokalizacji!',
  },
  wareneingang: {
    notFound: (nummer) => `Nie znaleziono przyjęcia towaru "${nummer}"!`,
  },
} satisfies PartialCatalogue;
