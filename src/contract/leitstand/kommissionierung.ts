import { z } from 'zod';
import { endpoint, idParam, successOnly, text } from '../endpoint.ts';
import { deliveryNoteId } from '../ids.ts';

/**
 * Rollende Kommissionierung in the Leitstand (issue 41, decision 33): the shift lead's pick profiles
 * (Kommissionierprofile: which pickable notes go on a cart together), 'Welle freigeben' (the notes a profile
 * matches now, released as a wave the handhelds' carts are filled from), each wave's progress live and a
 * note taken out of its wave before any cart held it; and the pick carts with what lies in each compartment.
 */

/** The pages' and calls' German texts (not in texts.ts: the handheld's first download does not need them). */
export const kommissionierungLeitstandTexts = {
  title: 'Wellen',
  profiles: 'Kommissionierprofile',
  noProfiles: 'Noch kein Profil. Ein Profil legt fest, welche Lieferscheine zusammen auf einen Wagen gehen.',
  name: 'Name',
  versandart: 'Versandart',
  versandartHint: 'Anfang des Versandart-Codes: „DHL“ nimmt DHL037 und DHL042',
  maxPositionen: 'Höchstens Positionen',
  eu: 'EU',
  euChoices: { beide: 'EU und Nicht-EU', eu: 'nur EU', nichtEu: 'nur Nicht-EU' },
  eingangVor: 'Eingegangen vor',
  eingangVorHint: 'Uhrzeit: Lieferscheine, die heute vor dieser Uhrzeit oder früher eingegangen sind',
  proWagen: 'Lieferscheine je Wagen',
  any: 'alle',
  changed: 'Geändert',
  actions: 'Aktionen',
  add: 'Profil anlegen',
  addSubmit: 'Anlegen',
  save: 'Speichern',
  saveLabel: (name: string) => `Profil „${name}“ speichern`,
  fieldOf: (field: string, name: string) => `${field} von „${name}“`,
  release: 'Welle freigeben',
  releaseLabel: (name: string) => `Welle aus „${name}“ freigeben`,
  remove: 'Entfernen',
  removeLabel: (name: string) => `Profil „${name}“ entfernen`,
  removeTitle: (name: string) => `Profil „${name}“ entfernen?`,
  removeBody: 'Freigegebene Wellen dieses Profils bleiben, wie sie sind.',
  cancel: 'Abbrechen',
  waves: 'Wellen',
  noWaves: 'Keine offene Welle. Eine Welle entsteht mit „Welle freigeben“ an einem Profil.',
  wavesHint: 'Offene Wellen und die der letzten 7 Tage, die neuesten zuerst. Die Zahlen laufen live mit.',
  waveName: (id: number, profile: string) => `Welle ${id} · ${profile}`,
  released: (name: string, at: string) => `freigegeben von ${name}, ${at}`,
  notes: 'Lieferscheine',
  open: 'offen',
  onCart: 'auf Wagen',
  picked: 'kommissioniert',
  short: 'mit Fehlmenge',
  done: 'erledigt',
  carts: 'Wagen',
  cartBy: (cart: string, picker: string) => `${cart}: ${picker}`,
  showNotes: (id: number) => `Lieferscheine von Welle ${id} zeigen`,
  hideNotes: (id: number) => `Lieferscheine von Welle ${id} ausblenden`,
  note: 'Lieferschein',
  lines: 'Positionen',
  state: 'Stand',
  where: 'Wo',
  takeOut: 'Herausnehmen',
  takeOutLabel: (belegnr: string) => `${belegnr} aus der Welle nehmen`,
  states: {
    offen: 'offen',
    aufWagen: 'auf Wagen',
    kommissioniert: 'kommissioniert',
    gepackt: 'gepackt',
  },
  inCompartment: (fach: string, picker: string | null) => (picker ? `${fach} (${picker})` : fach),
  emptyWave: 'Keine Lieferscheine mehr in dieser Welle.',
  // The Kommissionierwagen page
  cartsTitle: 'Kommissionierwagen',
  noCarts: 'Noch keine Kommissionierwagen. Sie kommen per Import (Art „pick-carts“).',
  cartsHint: 'Wagen und Fächer kommen per Import; ihre Etiketten gibt es unter',
  labelsLink: 'Etiketten',
  compartment: 'Fach',
  content: 'Inhalt',
  emptyCompartment: 'leer',
  trip: (picker: string, since: string) => `in Arbeit: ${picker}, seit ${since}`,
  noTrip: 'frei',
  loggedOut: 'Anmeldung abgelaufen – diese Fahrt beendet niemand mehr am Gerät.',
  compartmentStates: {
    inArbeit: 'wird kommissioniert',
    kommissioniert: 'fertig zum Packen',
    imPacken: 'im Packen',
  },
  endTrip: 'Fahrt beenden',
  endTripLabel: (cart: string) => `Fahrt mit ${cart} beenden`,
  endTripTitle: (cart: string, picker: string) => `Fahrt von ${picker} mit ${cart} beenden?`,
  endTripBody:
    'Die Fahrt endet wie „Abbrechen“ am Handscanner: Lieferscheine, aus denen noch nichts im Fach liegt, ' +
    'verlassen den Wagen und können wieder kommissioniert werden; Lieferscheine mit Ware im Fach bleiben ' +
    'dort bis zum Packen. Das Gerät des Kommissionierers meldet beim nächsten Scan, dass die Fahrt beendet ist.',
  emptyCompartmentAction: 'Fach leeren',
  emptyCompartmentLabel: (fach: string) => `Fach ${fach} leeren`,
  emptyCompartmentTitle: (fach: string, belegnr: string) => `Fach ${fach} leeren (${belegnr})?`,
  emptyCompartmentBody:
    'Nur, wenn die Ware von Hand aus dem Fach genommen wurde: Das Fach gilt danach als leer und wird bei der ' +
    'nächsten Fahrt neu belegt. Der Lieferschein selbst bleibt, wie er ist.',
  // Answers of the writes, in the page's status line
  created: (name: string) => `Profil „${name}“ angelegt.`,
  saved: (name: string) => `Profil „${name}“ gespeichert.`,
  removed: (name: string) => `Profil „${name}“ entfernt.`,
  releasedWave: (id: number, count: number) =>
    `Welle ${id} freigegeben: ${count} ${count === 1 ? 'Lieferschein' : 'Lieferscheine'}.`,
  tookOut: (belegnr: string, wave: number) => `${belegnr} aus Welle ${wave} genommen.`,
  tripEnded: (cart: string) => `Fahrt mit ${cart} beendet.`,
  /** In the Protokoll's entry of 'Fahrt beenden': no note left the cart, or none stays. */
  noNotes: 'keine',
  compartmentEmptied: (fach: string) => `Fach ${fach} ist leer.`,
  // Refusals
  duplicate: (name: string) => `Ein Profil „${name}“ gibt es schon.`,
  profileNotFound: 'Dieses Profil gibt es nicht mehr. Bitte die Seite neu laden.',
  noMatch: 'Keine Lieferscheine passen zu diesem Profil.',
  releaseRunning: 'Diese Welle wird noch freigegeben. Bitte die Seite gleich neu laden.',
  waveNotFound: 'Diese Welle gibt es nicht.',
  notInWave: (wave: number) => `Dieser Lieferschein ist nicht in Welle ${wave}.`,
  onCartAlready: (belegnr: string) => `${belegnr} liegt schon auf einem Wagen und bleibt in der Welle.`,
  tripNotFound: 'Diese Fahrt gibt es nicht.',
  tripAlreadyEnded: (cart: string) => `Die Fahrt mit ${cart} ist schon beendet.`,
  compartmentNotFound: 'Dieses Fach gibt es nicht.',
  compartmentAlreadyFree: (fach: string, belegnr: string) =>
    `${belegnr} liegt nicht mehr in Fach ${fach}. Bitte die Seite neu laden.`,
  tripStillOpen: (fach: string, cart: string) =>
    `Die Fahrt mit ${cart} läuft noch – bitte zuerst die Fahrt beenden, dann Fach ${fach} leeren.`,
} as const;

const T = kommissionierungLeitstandTexts;

/** A time of day as the page's time field sends it ('14:00'). */
const timeOfDay = z.string().regex(/^([01][0-9]|2[0-3]):[0-5][0-9]$/);

/**
 * A profile as the page edits it. A filter left empty (null) takes any note: `versandart` a prefix of the
 * note's Versandart code (case aside), `maxPositionen` the note's number of lines, `eu` EU or not,
 * `eingangVor` a time of day in the site's time zone (TIME_ZONE): notes that arrived before it today, and
 * all older ones.
 */
export const profilForm = z.object({
  name: text(60, { min: 1, controls: 'typed' }),
  versandart: text(20, { controls: 'typed' }).nullable(),
  maxPositionen: z.number().int().min(1).max(999).nullable(),
  eu: z.boolean().nullable(),
  eingangVor: timeOfDay.nullable(),
  proWagen: z.number().int().min(1).max(99),
});
export type ProfilForm = z.infer<typeof profilForm>;

export const profilRow = z.object({
  id: z.number().int(),
  name: z.string(),
  versandart: z.string().nullable(),
  maxPositionen: z.number().int().nullable(),
  eu: z.boolean().nullable(),
  eingangVor: z.string().nullable(),
  proWagen: z.number().int(),
  geaendertVon: z.string(),
  geaendertAm: z.iso.datetime({ offset: true }),
});
export type ProfilRow = z.infer<typeof profilRow>;

/** A cart holding notes of a wave now, and who is picking it. */
const welleWagen = z.object({ wagen: z.string(), kommissionierer: z.string() });

/** A wave with its progress: every note of it counted once by its state; `fehlmenge` counts across. */
export const welleRow = z.object({
  id: z.number().int(),
  profil: z.string(),
  proWagen: z.number().int(),
  freigegebenVon: z.string(),
  freigegebenAm: z.iso.datetime({ offset: true }),
  lieferscheine: z.number().int(),
  /** In the wave, lying on no cart, not picked. */
  offen: z.number().int(),
  /** Lying on a cart whose trip is open, not picked yet. */
  aufWagen: z.number().int(),
  /** Picked (every line picked or short), packed or not. */
  kommissioniert: z.number().int(),
  /** With a line reported short (Fehlmenge), whatever its state. */
  fehlmenge: z.number().int(),
  wagen: z.array(welleWagen),
});
export type WelleRow = z.infer<typeof welleRow>;

export const zustand = z.enum(['offen', 'aufWagen', 'kommissioniert', 'gepackt']);
export type Zustand = z.infer<typeof zustand>;

export const welleLieferschein = z.object({
  id: z.number().int(),
  belegnr: z.string(),
  versandart: z.string(),
  positionen: z.number().int(),
  zustand,
  fehlmenge: z.boolean(),
  /** The compartment it lies in now (`KW01-3`), and who picks that cart; null: on no cart. */
  fach: z.string().nullable(),
  kommissionierer: z.string().nullable(),
  /** No cart ever held it from this wave: it may still be taken out. */
  herausnehmbar: z.boolean(),
});
export type WelleLieferschein = z.infer<typeof welleLieferschein>;

export const fachRow = z.object({
  id: z.number().int(),
  nummer: z.number().int(),
  code: z.string(),
  /** The note lying in it now (until packed); null: empty. */
  lieferschein: z
    .object({
      id: z.number().int(),
      belegnr: z.string(),
      zustand: z.enum(['inArbeit', 'kommissioniert', 'imPacken']),
      /** The trip that put it there is still open: 'Fach leeren' waits for its end. */
      fahrtOffen: z.boolean(),
    })
    .nullable(),
});
export const wagenRow = z.object({
  id: z.number().int(),
  code: z.string(),
  faecher: z.array(fachRow),
  /**
   * The open trip: which, who, since when, and whether its login is still on (false: logged out elsewhere,
   * switched off, or idle past SESSION_IDLE_MINUTES — nobody will finish it, 'Fahrt beenden' is the way out);
   * null: nobody is picking with it.
   */
  fahrt: z
    .object({
      id: z.number().int(),
      kommissionierer: z.string(),
      seit: z.iso.datetime({ offset: true }),
      angemeldet: z.boolean(),
    })
    .nullable(),
});
export type WagenRow = z.infer<typeof wagenRow>;

const answer = successOnly.extend({ message: z.string() });
const profileId = z.object({ id: idParam });

/** The profiles, by name. */
export const kommissionierProfile = endpoint({
  name: 'kommissionierProfile',
  method: 'GET',
  path: '/api/leitstand/kommissionierung/profile',
  role: 'schichtleitung',
  response: z.object({ data: z.object({ profile: z.array(profilRow) }) }),
});

export const kommissionierProfilAnlegen = endpoint({
  name: 'kommissionierProfilAnlegen',
  method: 'POST',
  path: '/api/leitstand/kommissionierung/profile',
  role: 'schichtleitung',
  body: profilForm,
  response: answer.extend({ id: z.number().int() }),
});

export const kommissionierProfilAendern = endpoint({
  name: 'kommissionierProfilAendern',
  method: 'PUT',
  path: '/api/leitstand/kommissionierung/profile/:id',
  role: 'schichtleitung',
  params: profileId,
  body: profilForm,
  response: answer,
});

/** Removes a profile; its waves stay (they keep the profile's name). */
export const kommissionierProfilEntfernen = endpoint({
  name: 'kommissionierProfilEntfernen',
  method: 'PUT',
  path: '/api/leitstand/kommissionierung/profile/:id/entfernen',
  role: 'schichtleitung',
  params: profileId,
  body: z.strictObject({}),
  response: answer,
});

/**
 * 'Welle freigeben': every note the profile matches now — pickable, in no wave, on no cart, held by no
 * picker — released as one wave. 409 when none matches.
 */
export const welleFreigeben = endpoint({
  name: 'welleFreigeben',
  method: 'POST',
  path: '/api/leitstand/kommissionierung/profile/:id/freigeben',
  role: 'schichtleitung',
  params: profileId,
  body: z.strictObject({}),
  response: answer.extend({ welleId: z.number().int(), lieferscheine: z.number().int() }),
});

/** The waves open now or released in the last WAVE_DAYS days, newest first, with their progress. */
export const wellen = endpoint({
  name: 'wellen',
  method: 'GET',
  path: '/api/leitstand/kommissionierung/wellen',
  role: 'schichtleitung',
  response: z.object({ data: z.object({ wellen: z.array(welleRow) }) }),
});

/** A wave's notes with their state, by number. */
export const welleLieferscheine = endpoint({
  name: 'welleLieferscheine',
  method: 'GET',
  path: '/api/leitstand/kommissionierung/wellen/:id',
  role: 'schichtleitung',
  params: z.object({ id: idParam }),
  response: z.object({ data: z.object({ lieferscheine: z.array(welleLieferschein) }) }),
});

/** Takes a note out of its wave — only while no cart ever held it from the wave (409 then). */
export const welleHerausnehmen = endpoint({
  name: 'welleHerausnehmen',
  method: 'PUT',
  path: '/api/leitstand/kommissionierung/wellen/:id/herausnehmen',
  role: 'schichtleitung',
  params: z.object({ id: idParam }),
  body: z.object({ lieferscheinId: deliveryNoteId }),
  response: answer,
});

/** The pick carts with each compartment's note now and the open trip (read-only: carts come by import). */
export const kommissionierwagen = endpoint({
  name: 'kommissionierwagen',
  method: 'GET',
  path: '/api/leitstand/kommissionierwagen',
  role: 'schichtleitung',
  response: z.object({ data: z.object({ wagen: z.array(wagenRow) }) }),
});

/**
 * 'Fahrt beenden': ends a cart's open trip as the handheld's 'Abbrechen' does — notes with nothing in their
 * compartment leave the cart, picked ones stay until packed, the trip's claims end. Names the trip, not the
 * cart: a stale page cannot end the cart's next trip. 409 when it has ended already.
 */
export const fahrtBeenden = endpoint({
  name: 'fahrtBeenden',
  method: 'PUT',
  path: '/api/leitstand/kommissionierwagen/fahrten/:id/beenden',
  role: 'schichtleitung',
  params: z.object({ id: idParam }),
  body: z.strictObject({}),
  response: answer,
});

/**
 * 'Fach leeren': the compartment is free again, its note left as it is (the goods were taken out by hand).
 * Names the note it holds, so a stale page cannot empty the compartment's next note. 409 while the note's
 * trip is open, and when the note does not lie in it any more.
 */
export const fachLeeren = endpoint({
  name: 'fachLeeren',
  method: 'PUT',
  path: '/api/leitstand/kommissionierwagen/faecher/:id/leeren',
  role: 'schichtleitung',
  params: z.object({ id: idParam }),
  body: z.object({ lieferscheinId: deliveryNoteId }),
  response: answer,
});

/** Waves done (nothing open, nothing on a cart) still listed this many days after their release. */
export const WAVE_DAYS = 7;
/** At most this many waves are listed (the newest). */
export const WAVES_MAX = 100;

/** The German label of a profile's EU filter. */
export const euLabel = (eu: boolean | null) =>
  eu === null ? T.euChoices.beide : eu ? T.euChoices.eu : T.euChoices.nichtEu;
