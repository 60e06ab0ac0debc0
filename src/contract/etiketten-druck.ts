import { z } from 'zod';
import { endpoint, scanText, text } from './endpoint.ts';
import { localized } from './i18n/localized.ts';
import { MAX_PRINT, scanLimits } from './limits.ts';

/**
 * What the handheld needs of the labels (issue 21, decision 23): printing one label from a screen
 * ('Etikett drucken') and choosing the station's printer in Einstellungen. Apart from `etiketten.ts` (which
 * re-exports all of it) so that a handheld screen with the button does not load the Leitstand's label page
 * contract and texts: WMS-Retoure's download was 22.4 KB gzip with them, over the 20 KB a screen may add.
 */

/** `kommissionierwagen` and `fach`: a pick cart and its compartments (issue 41, decision 33). */
export const LABEL_KINDS = [
  'lagerplatz',
  'lhm',
  'artikel',
  'zollwagen',
  'kommissionierwagen',
  'fach',
  'ausweis',
] as const;
export type LabelKind = (typeof LABEL_KINDS)[number];

/**
 * Label sizes in millimetres: two A4 sheet grids (70×36 mm, 3×8, e.g. Avery Zweckform 3475; 105×48 mm, 2×6,
 * e.g. Avery Zweckform 3424) and two roll sizes (100×50 mm, 57×32 mm), one label per PDF page or ZPL label.
 */
export const LABEL_SIZES = {
  'a4-70x36': { width: 70, height: 36, sheet: { columns: 3, rows: 8 } },
  'a4-105x48': { width: 105, height: 48, sheet: { columns: 2, rows: 6 } },
  '100x50': { width: 100, height: 50, sheet: null },
  '57x32': { width: 57, height: 32, sheet: null },
} as const;
export type LabelSize = keyof typeof LABEL_SIZES;
/** ZPL labels are single labels on a roll: the sheet sizes are for office printers (PDF only). */
export const ROLL_SIZES = ['100x50', '57x32'] as const satisfies readonly LabelSize[];

/** The handheld's label texts (the Leitstand's are in `etiketten.ts`, which includes these). */
export const druckTexts = localized('druck', {
  handheldPrint: 'Etikett drucken',
  handheldNoPrinter: 'Kein Drucker gewählt: bitte in den Einstellungen einen Drucker wählen.',
  handheldPrinting: 'Etikett wird gedruckt …',
  settingsPrinter: 'Etikettendrucker',
  settingsNone: 'keiner',
  settingsHint: 'Der Drucker dieser Station für „Etikett drucken“.',
  printerLabel: (p: { name: string; groesse: string; dpi: number }) =>
    `${p.name} (${p.groesse.replace('x', ' × ')} mm, ${p.dpi} dpi)`,
} as const);

/** A printer's name, as the admin gives it. */
export const printerName = text(50, { min: 1, controls: 'typed' });

/** A printer as the handheld and the Leitstand choose it: no address (the server sends the job). */
export const druckerEintrag = z.object({
  name: z.string(),
  dpi: z.union([z.literal(203), z.literal(300)]),
  groesse: z.enum(ROLL_SIZES),
  quelle: z
    .enum(['leitstand', 'umgebung'])
    .describe('leitstand: set up by an admin; umgebung: from PRINTERS'),
});
export type DruckerEintrag = z.infer<typeof druckerEintrag>;

/** The printers every login may send labels to (the handheld's device settings pick one). */
export const druckerListe = endpoint({
  name: 'druckerListe',
  method: 'GET',
  path: '/api/etiketten/drucker',
  response: z.object({ success: z.literal(true), drucker: z.array(druckerEintrag) }),
});

export const druckBody = z.strictObject({
  printer: printerName,
  kind: z.enum(LABEL_KINDS),
  codes: z.array(scanText(scanLimits.card)).min(1).max(MAX_PRINT).optional(),
  from: scanText().optional(),
  to: scanText().optional(),
  pfeil: z.enum(['hoch', 'runter']).optional(),
});
export type DruckBody = z.output<typeof druckBody>;

/**
 * Sends labels to a network printer (raw TCP) in its label size and resolution, exactly once per
 * X-Idempotency-Key. A worker prints a location, LHM or cart label (at most HANDHELD_MAX); the shift lead
 * also articles and ranges; badges only the admin. A printer that does not take the job answers 409 in German.
 */
export const drucken = endpoint({
  name: 'drucken',
  method: 'POST',
  path: '/api/etiketten/druck',
  body: druckBody,
  response: z.object({ success: z.literal(true), message: z.string(), etiketten: z.number().int() }),
});
