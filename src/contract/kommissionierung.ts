import { z } from 'zod';
import { amount, endpoint, scanText, successOnly } from './endpoint.ts';
import { localized } from './i18n/localized.ts';
import { deliveryNoteId, deliveryNoteLineId, locationId } from './ids.ts';

/**
 * Kommissionierung (issue 22, decision 25): a delivery note not packed yet is picked before the packing
 * station — claimed by one picker at a time, led location by location in walking order, each pick taking the
 * stock off its location (journalled, exactly once), what is not there reported as a Fehlmenge (a Klärfall).
 *
 * Every call answers the note as it is now (`auftrag`), so the screen never works from a stale plan.
 */

/** The screen's and the calls' German texts (not in texts.ts: loaded with the screen, not with the menu). */
export const kommissionierungTexts = localized('kommissionierung', {
  title: 'Kommissionierung',
  noteLabel: 'Lieferschein',
  next: 'Nächster Auftrag',
  locationLabel: 'Lagerplatz scannen',
  articleLabel: 'Artikel scannen',
  goTo: 'Gehe zu',
  noStock: 'Kein Bestand gefunden',
  noStockHint: 'Diese Artikel liegen auf keinem Lagerplatz: bitte als Fehlmenge melden.',
  linesHere: 'Positionen an diesem Lagerplatz',
  openAmount: (n: number) => `${n} Stück`,
  progress: (done: number, all: number) => `${done} von ${all} Positionen erledigt`,
  picker: (belegnr: string) => `Auftrag ${belegnr}`,
  cancel: 'Abbrechen',
  abandon: 'Auftrag abbrechen',
  picked: 'Entnommen!',
  /** The note is done: every line picked or reported missing. */
  done: (belegnr: string) => `Lieferschein ${belegnr} ist kommissioniert.`,
  doneShort: (belegnr: string) =>
    `Lieferschein ${belegnr} ist kommissioniert – mit Fehlmenge, als Klärfall gemeldet.`,
  wrongLocation: (expected: string) => `Falscher Lagerplatz – bitte ${expected} scannen.`,
  articleNotHere: (x: string, lp: string) => `Artikel ${x} wird auf ${lp} nicht entnommen.`,
  confirmTitle: 'Menge bestätigen',
  confirmBody: (menge: number, nummer: string) => `${menge} × ${nummer} entnehmen?`,
  confirm: 'Bestätigen',
  shortage: 'Fehlmenge',
  shortageFor: (nummer: string) => `Fehlmenge ${nummer}`,
  shortageTitle: (nummer: string) => `Fehlmenge für ${nummer}`,
  shortageBody: (offen: number) =>
    `Wie viele fehlen? Offen sind ${offen}. Es wird ein Klärfall gemeldet; der Rest des Auftrags geht weiter.`,
  shortageAmount: 'Fehlende Menge',
  shortageConfirm: 'Fehlmenge melden',
  shortageAmountInvalid: (offen: number) => `Bitte eine Menge von 1 bis ${offen} eingeben.`,
  shortageDone: 'Fehlmenge gemeldet.',
  /** What a scan is refused for while the stop holds nothing: only a Fehlmenge is left to report. */
  expectsShortage: 'bitte die fehlende Menge eintippen.',
  abandoned: (belegnr: string) => `Auftrag ${belegnr} abgebrochen.`,
  // ── The server's refusals ──
  /** 409: someone else holds the note. */
  claimedBy: (name: string) => `Wird schon von ${name} kommissioniert`,
  /** 409: the caller's claim ran out or was taken over (timeout, logout on another device). */
  notClaimed: (belegnr: string) =>
    `Lieferschein ${belegnr} wird nicht mehr von dir kommissioniert. Bitte neu scannen.`,
  /** 409: 'Abbrechen' of a note someone else is picking (it released nothing and said "success"; issue 39). */
  releaseNotYours: (belegnr: string, name: string) =>
    `Lieferschein ${belegnr} wird von ${name} kommissioniert. Abbrechen kann ihn nur, wer ihn kommissioniert.`,
  alreadyPicked: (belegnr: string) => `Lieferschein ${belegnr} ist schon kommissioniert.`,
  alreadyPacked: (belegnr: string) => `Lieferschein ${belegnr} ist schon gepackt.`,
  noOpenNote: 'Kein offener Auftrag.',
  lineNotInNote: 'Diese Position gehört nicht zu diesem Lieferschein.',
  lineDone: (nummer: string) => `Position ${nummer} ist schon erledigt.`,
  tooMany: (nummer: string, offen: number) => `Von ${nummer} sind nur noch ${offen} offen.`,
  notEnoughStock: (lp: string, available: number, nummer: string) =>
    `Auf ${lp} liegen nur ${available} Stück von Artikel ${nummer}.`,
  /**
   * 409: the same login took the note over on another handheld (by scanning it there); this one books
   * nothing more on it until the note is scanned here again (issue 36).
   */
  otherDevice: (belegnr: string) =>
    `Lieferschein ${belegnr} wird jetzt auf einem anderen Gerät kommissioniert. Zum Weitermachen hier neu scannen.`,
  // ── 'Abbrechen' asks first (issue 36) ──
  abandonTitle: (belegnr: string) => `Auftrag ${belegnr} abbrechen?`,
  abandonBody:
    'Der Auftrag wird freigegeben und kann von jemand anderem weiter kommissioniert werden. Was schon entnommen ist, bleibt entnommen.',
  abandonKeep: 'Weiter kommissionieren',
  // ── What is left after the current stop (issue 36) ──
  restHeading: 'Noch offen',
  /** The open pieces and stops of the whole note, the current one included. */
  rest: (stops: number, pieces: number) =>
    `Noch ${stops} ${stops === 1 ? 'Lagerplatz' : 'Lagerplätze'}, ${pieces} Stück`,
  restNoStock: 'ohne Bestand',
} as const);

/** One line of the note with where to pick it. */
export const pickLine = z.object({
  /** The delivery note line's id. */
  id: z.number().int(),
  artikelId: z.number().int(),
  nummer: z.string(),
  name: z.string(),
  ean: z.string().nullable(),
  herstellernummer: z.string().nullable(),
  lsmenge: z.number().int(),
  kommissioniert: z.number().int(),
  fehlmenge: z.number().int(),
  /** lsmenge − kommissioniert − fehlmenge. */
  offen: z.number().int(),
  /**
   * Where to pick what is open: the first location in walking order holding all of it, else the one holding
   * most; null when no location holds any (only a Fehlmenge is left) or the line is done. A location marked
   * for a count (a picker found less there than its book stock) is not offered until it was counted.
   */
  lagerplatz: z.object({ id: z.number().int(), code: z.string(), bestand: z.number().int() }).nullable(),
});
export type PickLine = z.infer<typeof pickLine>;

/** A note as its picker sees it: open lines first, in walking order (location code), then done ones. */
export const auftrag = z.object({
  id: z.number().int(),
  belegnr: z.string(),
  /** Every line picked or reported missing. */
  fertig: z.boolean(),
  positionen: z.array(pickLine),
});
export type Auftrag = z.infer<typeof auftrag>;

const answer = z.object({ success: z.literal(true), data: auftrag });

/** Claims the scanned note for the caller (or resumes their own claim) and answers it. */
export const pickClaim = endpoint({
  name: 'pickClaim',
  method: 'POST',
  path: '/api/kommissionierung/auftrag',
  body: z.object({ belegnr: scanText() }).strict(),
  response: answer,
});

/** 'Nächster Auftrag': claims the oldest pickable note nobody is picking. */
export const pickNext = endpoint({
  name: 'pickNext',
  method: 'POST',
  path: '/api/kommissionierung/naechster',
  body: z.object({}).strict(),
  response: answer,
});

/** One pick: `menge` of the line's article taken off the location, journalled. */
export const pickTake = endpoint({
  name: 'pickTake',
  method: 'POST',
  path: '/api/kommissionierung/entnahme',
  body: z
    .object({
      id: deliveryNoteId,
      positionId: deliveryNoteLineId,
      lagerplatzId: locationId,
      menge: amount(1),
    })
    .strict(),
  response: answer,
});

/**
 * 'Fehlmenge': `menge` of the line is not there; the line is short and a Klärfall is raised. `lagerplatzId`:
 * where the picker found it missing (the stop's location); that location is marked for a count and named in
 * the Klärfall with its book stock. Without it, the location the plan led to.
 */
export const pickShortage = endpoint({
  name: 'pickShortage',
  method: 'POST',
  path: '/api/kommissionierung/fehlmenge',
  body: z
    .object({
      id: deliveryNoteId,
      positionId: deliveryNoteLineId,
      menge: amount(1),
      lagerplatzId: locationId.optional(),
    })
    .strict(),
  response: answer,
});

/** 'Abbrechen': the caller lets go of the note; what was picked stays picked. */
export const pickRelease = endpoint({
  name: 'pickRelease',
  method: 'POST',
  path: '/api/kommissionierung/abbrechen',
  body: z.object({ id: deliveryNoteId }).strict(),
  response: successOnly,
});
