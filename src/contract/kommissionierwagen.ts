import { z } from 'zod';
import { amount, endpoint, id, scanText, successOnly } from './endpoint.ts';
import { localized } from './i18n/localized.ts';
import { deliveryNoteLineId, locationId } from './ids.ts';

/**
 * Rollende Kommissionierung (issue 41, decision 33): a picker scans a pick cart (Kommissionierwagen) on the
 * Kommissionierung screen instead of a delivery note; the server fills its free compartments (Fächer) with up
 * to one note each — from the oldest wave the shift lead released, or else the oldest pickable notes — and
 * claims each note for the picker exactly as a single note is claimed (decision 25). The picker walks one
 * route over all notes' lines, merged per location in walking order: location, article, then the
 * compartment's barcode confirms where the pieces went ('Fach 3: 2 Stück'). Every put is one exactly-once
 * booking, journalled with its compartment and trip.
 *
 * Every call answers the trip as it is now (`fahrt`), so the screen never works from a stale plan.
 */

/** The cart flow's German texts (loaded with the Kommissionierung screen). */
export const kommissionierwagenTexts = localized('kommissionierwagen', {
  cart: (code: string) => `Wagen ${code}`,
  /** What goes where at a stop: 'Fach 3: 2 Stück'. */
  put: (fach: number, menge: number) => `Fach ${fach}: ${menge} Stück`,
  compartmentLabel: 'Fach scannen',
  compartment: (nummer: number) => `Fach ${nummer}`,
  compartmentEmpty: 'leer',
  compartmentComplete: 'komplett',
  compartmentShort: 'mit Fehlmenge',
  /** What is left on the whole cart, and per compartment. */
  rest: (stops: number, pieces: number) =>
    `Noch ${stops} ${stops === 1 ? 'Lagerplatz' : 'Lagerplätze'}, ${pieces} Stück`,
  compartmentRest: (pieces: number) => `noch ${pieces} Stück`,
  defer: 'Später',
  deferred: 'zurückgestellt',
  undo: 'Rückgängig',
  undoTitle: (menge: number, nummer: string, fach: number) =>
    `${menge} × ${nummer} aus Fach ${fach} zurücklegen?`,
  undoBody: (lagerplatz: string) => `Die Stücke gehen zurück auf ${lagerplatz}.`,
  undoConfirm: 'Zurücklegen',
  undone: 'Zurückgelegt.',
  finish: 'Wagen fertig',
  finishedTitle: (code: string) => `Wagen ${code} fertig`,
  abandonTitle: (code: string) => `Wagen ${code} abbrechen?`,
  abandonBody:
    'Aufträge, von denen noch nichts entnommen ist, werden freigegeben. Was schon entnommen ist, bleibt im Fach bei seinem Auftrag.',
  abandonKeep: 'Weiter kommissionieren',
  abandonConfirm: 'Wagen abbrechen',
  abandoned: (code: string) => `Wagen ${code} abgebrochen.`,
  // ── The screen's own words ──
  compartmentsHeading: 'Fächer',
  putsHeading: 'Entnahmen auf diesem Wagen',
  /** A put of this trip in its list: '2 × 100007 in Fach 3'. */
  putEntry: (menge: number, nummer: string, fach: number) => `${menge} × ${nummer} in Fach ${fach}`,
  /** The 'Rückgängig' button of one put, as a screen reader names it. */
  undoFor: (menge: number, nummer: string, fach: number) =>
    `Rückgängig: ${menge} × ${nummer} aus Fach ${fach}`,
  /** The 'Fehlmenge' button of one line at a stop (several notes' lines may share the article). */
  shortageFor: (nummer: string, fach: number) => `Fehlmenge ${nummer} für Fach ${fach}`,
  allDone: 'Alle Positionen erledigt.',
  /** What a scan is refused for once every line is done. */
  expectsFinish: 'bitte „Wagen fertig“ antippen.',
  // ── The server's refusals ──
  /** 404: no cart has this code (the screen's list of carts was older than an import that removed it). */
  unknownCart: (code: string) => `Wagen ${code} nicht gefunden.`,
  /** 409: another picker has an open trip with this cart. */
  cartInUse: (code: string, name: string) => `Wagen ${code} wird schon von ${name} kommissioniert.`,
  /** 409: the caller has an open trip with another cart. */
  otherCartOpen: (code: string) =>
    `Du hast noch Wagen ${code} offen. Bitte erst fertig machen oder abbrechen.`,
  /** 409: every compartment still holds a note not packed yet. */
  cartFull: (code: string) => `Alle Fächer von Wagen ${code} sind belegt. Bitte erst packen.`,
  /** 409: a compartment other than the one the line goes into was scanned; nothing is booked. */
  wrongCompartment: (expected: string) => `Falsches Fach – bitte ${expected} scannen.`,
  /** 409: the trip is over (finished, abandoned, or its login gone). */
  tripOver: (code: string) => `Wagen ${code} ist nicht mehr in Arbeit. Bitte den Wagen neu scannen.`,
  /** 409: 'Wagen fertig' while lines are still open. */
  stillOpen: (lines: number) => `Noch ${lines} ${lines === 1 ? 'Position' : 'Positionen'} offen.`,
  /** 409: a put reversed twice, or after its note was packed. */
  cannotUndo: 'Diese Entnahme kann nicht mehr zurückgelegt werden.',
} as const);

const wagen = z.object({ id: id, code: z.string() });

/** One line of a note on the cart, as the route shows it at its stop. */
export const cartLine = z.object({
  /** The delivery note line's id. */
  positionId: z.number().int(),
  auftragId: z.number().int(),
  belegnr: z.string(),
  /** The compartment the note lies in. */
  fach: z.object({ id: id, nummer: z.number().int(), code: z.string() }),
  artikelId: z.number().int(),
  nummer: z.string(),
  name: z.string(),
  ean: z.string().nullable(),
  herstellernummer: z.string().nullable(),
  lsmenge: z.number().int(),
  kommissioniert: z.number().int(),
  fehlmenge: z.number().int(),
  /** lsmenge − kommissioniert − fehlmenge: what goes into the compartment from this stop. */
  offen: z.number().int(),
  /**
   * The book stock of this line's article at its stop's location (0 in `ohneBestand`): a put takes what is
   * open, or this if less. The stop's `bestand` sums every article picked there.
   */
  bestand: z.number().int(),
});
export type CartLine = z.infer<typeof cartLine>;

/** A stop of the route: one location and every open line of every note on the cart picked there. */
export const cartStop = z.object({
  lagerplatz: z.object({ id: id, code: z.string(), bestand: z.number().int() }),
  /** The picker moved it to the end of the route ('Später'). */
  zurueckgestellt: z.boolean(),
  positionen: z.array(cartLine),
});
export type CartStop = z.infer<typeof cartStop>;

/** A compartment and the note in it. */
export const cartCompartment = z.object({
  id: id,
  nummer: z.number().int(),
  code: z.string(),
  /** Null: nothing was put in it on this trip (the cart had fewer notes than compartments). */
  auftrag: z
    .object({
      id: z.number().int(),
      belegnr: z.string(),
      /** Every line picked or reported missing. */
      fertig: z.boolean(),
      /** Some line reported missing (a Klärfall). */
      fehlmenge: z.boolean(),
      /** Open pieces and stops of this note. */
      offenStueck: z.number().int(),
      offenStopps: z.number().int(),
    })
    .nullable(),
});
export type CartCompartment = z.infer<typeof cartCompartment>;

/** A put made on this trip that the picker may still reverse (newest first). */
export const cartPut = z.object({
  /** The journal row (movements.id) of the put. */
  bewegungId: z.number().int(),
  positionId: z.number().int(),
  belegnr: z.string(),
  fach: z.object({ id: id, nummer: z.number().int(), code: z.string() }),
  nummer: z.string(),
  lagerplatz: z.string(),
  menge: z.number().int(),
});
export type CartPut = z.infer<typeof cartPut>;

/** One trip with a cart, as its picker sees it now. */
export const fahrt = z.object({
  id: id,
  wagen,
  faecher: z.array(cartCompartment),
  /** The open stops, in walking order (location code); stops put off with 'Später' at the end, in that order. */
  route: z.array(cartStop),
  /** Open lines no location holds (not marked for a count): only a Fehlmenge is left for them. */
  ohneBestand: z.array(cartLine),
  /** Puts of this trip not reversed, newest first. */
  entnahmen: z.array(cartPut),
  /** Every line of every note picked or reported missing: 'Wagen fertig'. */
  fertig: z.boolean(),
});
export type Fahrt = z.infer<typeof fahrt>;

const answer = z.object({ success: z.literal(true), data: fahrt });
const fahrtId = id;

/** The site's pick carts: the screen knows a cart's code from a note's number by this list. */
export const cartList = endpoint({
  name: 'cartList',
  method: 'GET',
  path: '/api/kommissionierung/wagen',
  response: z.object({
    success: z.literal(true),
    data: z.array(z.object({ code: z.string(), faecher: z.number().int() })),
  }),
});

/**
 * The cart scanned: resumes the caller's open trip with it, or starts one — its free compartments filled
 * (oldest released wave first, then the oldest pickable notes outside any wave), each note claimed for the
 * caller. 409: another picker's cart, the caller's other cart still open, every compartment taken, nothing
 * to pick (kommissionierungTexts.noOpenNote). 404: no such cart.
 */
export const cartStart = endpoint({
  name: 'cartStart',
  method: 'POST',
  path: '/api/kommissionierung/wagen',
  body: z.object({ code: scanText() }).strict(),
  response: answer,
});

/**
 * One put: `menge` of the line's article off the location into the compartment scanned (`fach`, its code) —
 * one booking, journalled with compartment and trip. A compartment other than the note's is refused (409,
 * wrongCompartment) and nothing is booked.
 */
export const cartPutAway = endpoint({
  name: 'cartPutAway',
  method: 'POST',
  path: '/api/kommissionierung/wagen/ablage',
  body: z
    .object({
      fahrtId,
      positionId: deliveryNoteLineId,
      lagerplatzId: locationId,
      fach: scanText(),
      menge: amount(1),
    })
    .strict(),
  response: answer,
});

/** 'Fehlmenge' for one line on the cart: as the single note's (a Klärfall for that note; the others go on). */
export const cartShortage = endpoint({
  name: 'cartShortage',
  method: 'POST',
  path: '/api/kommissionierung/wagen/fehlmenge',
  body: z
    .object({
      fahrtId,
      positionId: deliveryNoteLineId,
      menge: amount(1),
      lagerplatzId: locationId.optional(),
    })
    .strict(),
  response: answer,
});

/** 'Später': the stop at this location moves to the end of the route (again: to the end again). */
export const cartDefer = endpoint({
  name: 'cartDefer',
  method: 'POST',
  path: '/api/kommissionierung/wagen/zurueckstellen',
  body: z.object({ fahrtId, lagerplatzId: locationId }).strict(),
  response: answer,
});

/**
 * 'Rückgängig': a put of this trip reversed before the cart is done — its own booking (the pieces back onto
 * the location, the line's picked amount down), never a delete. 409 cannotUndo for one reversed already.
 */
export const cartUndo = endpoint({
  name: 'cartUndo',
  method: 'POST',
  path: '/api/kommissionierung/wagen/storno',
  body: z.object({ fahrtId, bewegungId: id }).strict(),
  response: answer,
});

/** The summary of a finished cart, one row per compartment that held a note. */
export const cartSummary = z.object({
  wagen,
  faecher: z.array(
    z.object({
      nummer: z.number().int(),
      code: z.string(),
      belegnr: z.string(),
      status: z.enum(['komplett', 'fehlmenge']),
    }),
  ),
});
export type CartSummary = z.infer<typeof cartSummary>;

/**
 * 'Wagen fertig': every line picked or reported missing (else 409 stillOpen). The trip ends; its notes stay in
 * their compartments until packed (the packing station opens a note by its compartment's code).
 */
export const cartFinish = endpoint({
  name: 'cartFinish',
  method: 'POST',
  path: '/api/kommissionierung/wagen/fertig',
  body: z.object({ fahrtId }).strict(),
  response: z.object({ success: z.literal(true), data: cartSummary }),
});

/**
 * 'Abbrechen': the trip ends; notes nothing was picked for leave their compartments and are released; a note
 * with something picked stays in its compartment (its goods lie there) and is released for the single-note
 * flow and the packing station.
 */
export const cartRelease = endpoint({
  name: 'cartRelease',
  method: 'POST',
  path: '/api/kommissionierung/wagen/abbrechen',
  body: z.object({ fahrtId }).strict(),
  response: successOnly,
});
