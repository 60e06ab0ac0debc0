import { z } from 'zod';
import { endpoint, id, scanText, successOnly, text } from './endpoint.ts';
import { deliveryNoteId } from './ids.ts';

export const packageContentRow = z.object({
  id: z.number().int(),
  artikel_id: z.number().int(),
  nummer: z.string(),
  herstellernummer: z.string().nullable(),
  name_de: z.string(),
  ean: z.string().nullable(),
  /** Delivery amount. */
  lsmenge: z.number().int(),
  /** Scanned amount so far. */
  pemenge: z.number().int(),
  /**
   * Ours (not in SPEC §7): how many of the line have left their location — picked, or booked out as the packer
   * scanned them (PACK_UNPICKED=book); below lsmenge, the rest was never picked (issue 36).
   */
  kommissioniert: z.number().int().optional(),
});
export type PackageContentRow = z.infer<typeof packageContentRow>;

export const deliveryNote = z.object({
  id: z.number().int(),
  belegnr: z.string(),
  eu: z.number().int(),
  versandart: z.string(),
  gravurArtikel: z.boolean(),
  paketinhalt: z.array(packageContentRow),
  /**
   * Ours (not in SPEC §7): who picked the note completely before packing, and when (ISO 8601); null: not
   * picked (Kommissionierung, decision 25). Packing checks the content as before either way; a note not
   * picked is refused (PACK_UNPICKED=refuse, 409) or its scanned pieces are booked out of stock (book).
   */
  kommissioniert: z.object({ von: z.string(), am: z.string() }).nullable().optional(),
});

export const packageContent = endpoint({
  name: 'packageContent',
  method: 'GET',
  path: '/api/packagecontent/:belegnr',
  params: z.object({ belegnr: scanText() }),
  response: z.object({ data: deliveryNote }),
});

/**
 * Marks every line of the note as completely scanned, journalled with the user. `code` is what was scanned:
 * only the server knows the configured code (CHEAT_CODE), so it is never part of the web app. SPEC §7 has
 * it; the web app needs it no more, as scanPackageItem recognises the code itself.
 */
export const packageContentCheat = endpoint({
  name: 'packageContentCheat',
  method: 'PUT',
  path: '/api/packagecontent/cheat',
  // The code completes a note without a single item scanned: the shift lead's decision (DESIGN §9).
  role: 'schichtleitung',
  body: z.object({ id: deliveryNoteId, code: text(200, { min: 1, trim: false }) }),
  response: z.object({
    success: z.literal(true),
    data: z.object({ paketinhalt: z.array(packageContentRow) }),
  }),
});

/**
 * One item scan at the packing station; it answers any scan (decision 12). A scan matching no line: the
 * configured cheat code completes the note as packageContentCheat does; another note's belegnr is a 404 with
 * `lieferschein` (errorBody) naming it; the note's own belegnr and anything else are 404s with their message.
 */
export const scanPackageItem = endpoint({
  name: 'scanPackageItem',
  method: 'POST',
  path: '/api/packagecontent/:itemNr',
  params: z.object({ itemNr: scanText() }),
  body: z.object({
    id: deliveryNoteId,
    itemNr: scanText(),
    belegnr: scanText(),
    eu: z.number().int(),
    user_id: id,
    paketinhalt: z.array(z.unknown()).max(1000),
    versandart: text(50, { trim: false, controls: 'typed' }),
  }),
  response: z.object({
    success: z.literal(true),
    data: z.object({ paketinhalt: z.array(packageContentRow) }),
  }),
});

export const klaerfall = endpoint({
  name: 'klaerfall',
  method: 'PUT',
  path: '/api/paketinhalt/klaerfall',
  body: z.object({ id: deliveryNoteId }),
  response: successOnly,
});
