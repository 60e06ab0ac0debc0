import { z } from 'zod';
import { amount, endpoint, id, idParam, successOnly } from './endpoint.ts';
import { localized } from './i18n/localized.ts';
import { articleId, locationCode } from './ids.ts';

/**
 * Permanente Inventur on the handheld (issue 42, decision 34): 'Zählauftrag' in the Inventur menu. 'Nächster
 * Zählauftrag' claims the next count task — one location — for the caller (assigned to them first, then the
 * earliest due, then walking order); nobody else counts that location meanwhile. The worker scans the
 * location, then every article found there with its amount — a **blind count**: no answer ever carries the
 * book stock, an expected amount or a difference — and ends with 'Fertig' (or 'Platz leer' when nothing is
 * there). The server then posts the count at once (within tolerance), hands the location to another person
 * for a recount, leaves it to the shift lead, or, if something was booked on the location during the count,
 * posts nothing and orders a recount. The free Inventur stays as it is.
 *
 * Every write is applied exactly once (X-Idempotency-Key, as every handheld write).
 */

/** The screen's and the calls' German texts (loaded with the screen, not with the menu). */
export const zaehlauftragTexts = localized('zaehlauftrag', {
  // ── The screen's own words ──
  heading: 'Zählauftrag',
  next: 'Nächster Zählauftrag',
  noTask: 'Keine Zählaufträge offen.',
  scanLocation: (code: string) => `Lagerplatz ${code} scannen`,
  location: 'Lagerplatz',
  article: 'Artikel',
  amount: 'Menge',
  count: 'Zählen',
  empty: 'Platz leer',
  finish: 'Fertig',
  abandon: 'Abbrechen',
  abandonTitle: (code: string) => `Zählung von ${code} abbrechen?`,
  abandonBody: 'Was schon gezählt ist, wird verworfen. Der Zählauftrag geht zurück in die Liste.',
  abandonKeep: 'Weiter zählen',
  abandoned: 'Zählung abgebrochen.',
  countedHeading: 'Gezählt',
  /** A line of the worker's own count: '12 × 100007'. */
  countedEntry: (menge: number, nummer: string) => `${menge} × ${nummer}`,
  nothingCounted: 'Noch nichts gezählt.',
  reason: { plan: 'Zählplan', fehlmenge: 'Fehlmenge', nachzaehlung: 'Nachzählung' },
  due: (datum: string) => `fällig ${datum}`,
  // ── The handheld screen's (issue 42) ──
  /** A scan while no task is in work: refused with this. */
  expectsNext: 'bitte „Nächster Zählauftrag“ antippen.',
  goTo: 'Gehe zu',
  counted: 'Gezählt!',
  amountInvalid: 'Bitte eine Menge von 1 oder mehr eingeben.',
  emptyTitle: 'Platz leer?',
  emptyBody: (code: string) => `Auf ${code} ist nichts gezählt. Ist der Lagerplatz leer?`,
  emptyKeep: 'Weiter zählen',
  // ── What 'Fertig' / 'Platz leer' did (never the difference) ──
  outcome: {
    gebucht: 'Gezählt und gebucht.',
    nachzaehlung: 'Gezählt. Der Lagerplatz wird von einer anderen Person nachgezählt.',
    wartet: 'Gezählt. Die Schichtleitung prüft die Zählung.',
    veraltet:
      'Während der Zählung wurde auf diesem Lagerplatz gebucht. Die Zählung wird nicht gebucht; der Lagerplatz wird nachgezählt.',
  },
  // ── The server's refusals ──
  /** 404: no count task has this id. */
  unknownTask: 'Zählauftrag nicht gefunden.',
  /** 409: another counter holds the task. */
  otherCounter: (name: string) => `Dieser Zählauftrag wird schon von ${name} gezählt.`,
  /** 409: the task is not in work (finished, abandoned, or its claim was taken over). */
  notInWork: 'Dieser Zählauftrag ist nicht mehr in Arbeit. Bitte „Nächster Zählauftrag“ antippen.',
  /** 409: a location other than the task's was scanned; nothing is recorded. */
  wrongLocation: (expected: string) => `Falscher Lagerplatz – bitte ${expected} scannen.`,
  /** 409: an article (or 'Fertig') before the location was scanned. */
  locationFirst: (expected: string) => `Bitte zuerst den Lagerplatz ${expected} scannen.`,
  /** 409: 'Platz leer' after articles were counted. */
  notEmpty: 'Es sind schon Artikel gezählt – bitte „Fertig“ antippen.',
  /** 409: 'Fertig' with nothing counted. */
  nothingYet: 'Noch nichts gezählt – bitte Artikel scannen oder „Platz leer“ antippen.',
  /** 409: one article's count would go above what a location may hold. */
  tooMany: 'So viele Stück passen nicht auf einen Lagerplatz. Bitte die Menge prüfen.',
  /** 409 (Leitstand): a count posted already — by the handheld at once, or by another lead. */
  alreadyPosted: 'Diese Zählung ist bereits gebucht.',
  /** 409 (Leitstand): 'Buchen'/'Nachzählen' for a count that does not wait for approval. */
  notWaiting: 'Diese Zählung wartet nicht auf Freigabe.',
} as const);

/** Why a count task exists. */
export const zaehlGrund = z.enum(['plan', 'fehlmenge', 'nachzaehlung']);
export type ZaehlGrund = z.infer<typeof zaehlGrund>;

/** What 'Fertig' / 'Platz leer' did with the count. */
export const zaehlErgebnis = z.enum(['gebucht', 'nachzaehlung', 'wartet', 'veraltet']);
export type ZaehlErgebnis = z.infer<typeof zaehlErgebnis>;

/** An article the worker counted on this task: only their own count, never the book stock. */
export const zaehlPosition = z
  .object({
    artikelId: id,
    nummer: z.string(),
    name: z.string(),
    gezaehlt: z.number().int(),
  })
  .strict();
export type ZaehlPosition = z.infer<typeof zaehlPosition>;

/** The caller's task in work. `.strict()`: an answer with a book or expected amount fails the contract. */
export const zaehlauftrag = z
  .object({
    id: id,
    lagerplatz: z.object({ id: id, code: z.string() }).strict(),
    grund: zaehlGrund,
    /** The due date, ISO (2026-11-28). */
    faellig: z.string(),
    /** The location was scanned: articles may be counted now. */
    platzGescannt: z.boolean(),
    /** The caller's count so far, in the order first scanned. */
    positionen: z.array(zaehlPosition),
  })
  .strict();
export type Zaehlauftrag = z.infer<typeof zaehlauftrag>;

const answer = z.object({ success: z.literal(true), data: zaehlauftrag });
const params = z.object({ id: idParam });

/**
 * 'Nächster Zählauftrag': the caller's task in work, or else claims the next one — assigned to the caller
 * first, then unassigned ones by due date, then walking order (location code); never a recount of the
 * caller's own count; a task held by a login that is gone is taken over. `data: null`: nothing to count.
 */
export const zaehlauftragNaechster = endpoint({
  name: 'zaehlauftragNaechster',
  method: 'POST',
  path: '/api/zaehlauftrag/naechster',
  body: z.object({}).strict(),
  response: z.object({ success: z.literal(true), data: zaehlauftrag.nullable() }),
});

/** The caller's task in work, to resume after a reload; `data: null`: none. */
export const zaehlauftragAktuell = endpoint({
  name: 'zaehlauftragAktuell',
  method: 'GET',
  path: '/api/zaehlauftrag/aktuell',
  response: z.object({ success: z.literal(true), data: zaehlauftrag.nullable() }),
});

/**
 * The location scanned: it must be the task's (409 wrongLocation, nothing recorded). The count starts here:
 * a booking on the location from now until 'Fertig' makes the count stale. Scanning it again changes nothing.
 */
export const zaehlauftragPlatz = endpoint({
  name: 'zaehlauftragPlatz',
  method: 'POST',
  path: '/api/zaehlauftrag/:id/platz',
  params,
  body: z.object({ lagerplatz: locationCode() }).strict(),
  response: answer,
});

/**
 * One count: `menge` pieces of the article found on the location, added to what the caller counted of it on
 * this task. An article without stock there is counted too.
 */
export const zaehlauftragZaehlung = endpoint({
  name: 'zaehlauftragZaehlung',
  method: 'POST',
  path: '/api/zaehlauftrag/:id/zaehlung',
  params,
  body: z.object({ artikelId: articleId, menge: amount(1) }).strict(),
  response: answer,
});

/** What 'Fertig' or 'Platz leer' did, with its sentence for the worker (never the difference). */
const ended = z.object({
  success: z.literal(true),
  data: z.object({ ergebnis: zaehlErgebnis, meldung: z.string() }).strict(),
});

/** 'Platz leer': nothing on the location (409 notEmpty once articles were counted). */
export const zaehlauftragLeer = endpoint({
  name: 'zaehlauftragLeer',
  method: 'POST',
  path: '/api/zaehlauftrag/:id/leer',
  params,
  body: z.object({}).strict(),
  response: ended,
});

/** 'Fertig': the location is counted (409 nothingYet with nothing counted: that is 'Platz leer'). */
export const zaehlauftragFertig = endpoint({
  name: 'zaehlauftragFertig',
  method: 'POST',
  path: '/api/zaehlauftrag/:id/fertig',
  params,
  body: z.object({}).strict(),
  response: ended,
});

/** 'Abbrechen': the count so far is dropped and the task goes back to be claimed again. */
export const zaehlauftragAbbrechen = endpoint({
  name: 'zaehlauftragAbbrechen',
  method: 'POST',
  path: '/api/zaehlauftrag/:id/abbrechen',
  params,
  body: z.object({}).strict(),
  response: successOnly,
});
