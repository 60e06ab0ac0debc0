import { z } from 'zod';
import { endpoint, text } from '../endpoint.ts';
import { articleCode, locationCode } from '../ids.ts';
import { AMOUNT_MAX, scanLimits } from '../limits.ts';
import { replenishmentRow } from '../nachschub.ts';

/**
 * Replenishment minimums in the Leitstand (issue 20.5): every minimum per location and article with the
 * stock there, edited in place (what `npm run minimum` does, while the server runs), and what is below its
 * minimum now — the handheld's Nachschub list, the same rule (src/server/repositories/replenishment.repository.ts).
 */

/** The Nachschub page's and calls' texts (not in texts.ts: the handheld's first download does not need them). */
export const nachschubTexts = {
  title: 'Nachschub',
  minima: 'Mindestbestände',
  noMinima: 'Keine Mindestbestände.',
  noMatch: 'Kein Mindestbestand passt zur Suche.',
  search: 'Suche (Lagerplatz, Artikelnummer oder Name)',
  more: (shown: number) => `Nur die ersten ${shown} – bitte die Suche eingrenzen.`,
  location: 'Lagerplatz',
  article: 'Artikel',
  stock: 'Bestand',
  minimum: 'Minimum',
  actions: 'Aktionen',
  minimumOf: (nummer: string, location: string) => `Minimum von ${nummer} auf ${location}`,
  save: 'Speichern',
  saveLabel: (nummer: string, location: string) => `Minimum von ${nummer} auf ${location} speichern`,
  remove: 'Entfernen',
  removeLabel: (nummer: string, location: string) => `Minimum von ${nummer} auf ${location} entfernen`,
  removeTitle: (nummer: string, location: string) => `Minimum von ${nummer} auf ${location} entfernen?`,
  removeBody: 'Der Platz kommt danach nicht mehr auf die Nachschubliste, wie niedrig sein Bestand auch ist.',
  removeConfirm: 'Entfernen',
  cancel: 'Abbrechen',
  add: 'Mindestbestand setzen',
  addHint:
    'Lagerplatz und Artikel (Nummer, EAN oder Herstellernummer) wie gescannt; 0 entfernt einen Mindestbestand.',
  addSubmit: 'Setzen',
  below: 'Unter Minimum',
  noneBelow: 'Alle Plätze mit Mindestbestand sind darüber.',
  missing: 'Fehlt',
  source: 'Von',
  noSource: 'kein Bestand',
  /** Answers of the write, in the page's status line. */
  set: (nummer: string, location: string, minimum: number) =>
    `Minimum von ${nummer} auf ${location} ist jetzt ${minimum}.`,
  removed: (nummer: string, location: string) => `Minimum von ${nummer} auf ${location} entfernt.`,
  hadNone: (nummer: string, location: string) => `${nummer} auf ${location} hatte kein Minimum.`,
} as const;

/** At most this many minimums are listed at once (narrow them with the search). */
export const MINIMA_MAX = 500;

export const minimumRow = z.object({
  lagerplatzId: z.number().int(),
  lagerplatz: z.string(),
  artikelId: z.number().int(),
  nummer: z.string(),
  name: z.string(),
  minimum: z.number().int(),
  /** The stock of the article on the location now (all charges and MHDs). */
  bestand: z.number().int(),
});
export type MinimumRow = z.infer<typeof minimumRow>;

/** The minimums (by location, then article), and what is below its minimum now. */
export const nachschubMinima = endpoint({
  name: 'nachschubMinima',
  method: 'GET',
  path: '/api/leitstand/nachschub',
  role: 'schichtleitung',
  query: z.object({
    suche: text(scanLimits.code)
      .optional()
      .describe('Only minimums whose location code, article nummer or name contains this'),
  }),
  response: z.object({
    data: z.object({
      minima: z.array(minimumRow),
      /** More minimums match than MINIMA_MAX. */
      weitere: z.boolean(),
      /** The handheld's Nachschub list (GET /api/nachschub), most urgent first. */
      unterMinimum: z.array(replenishmentRow),
    }),
  }),
});

/** Sets the minimum of an article (as scanned) on a location (its code); 0 removes it. */
export const nachschubMinimumSetzen = endpoint({
  name: 'nachschubMinimumSetzen',
  method: 'PUT',
  path: '/api/leitstand/nachschub/minimum',
  role: 'schichtleitung',
  body: z.object({
    lagerplatz: locationCode(),
    artikel: articleCode(),
    minimum: z.number().int().min(0).max(AMOUNT_MAX),
  }),
  response: z.object({ success: z.literal(true), message: z.string() }),
});
