// Over 400 lines: the German texts and the calls of three Leitstand pages that share them (plans, tasks, differences).
import { z } from 'zod';
import { endpoint, id, idParam, successOnly, text } from '../endpoint.ts';

/**
 * Permanente Inventur in the Leitstand (issue 42, decision 34): the shift lead's count plans (Zählpläne: which
 * locations to count, due when, for whom) and 'Aufträge anlegen' from one; the count tasks (Zählaufträge) with
 * 'Zuweisen' and 'Verwerfen'; and the differences above tolerance (Differenzen) a lead posts ('Buchen') or
 * has counted again ('Nachzählen'). The ABC classes, tolerances, coverage and the Inventurliste are
 * `inventur-auswertung.ts`.
 */

export const PLAN_KINDS = ['bereich', 'nicht_gezaehlt', 'null_oder_korrigiert', 'abc'] as const;
export type PlanKind = (typeof PLAN_KINDS)[number];
export const ABC_CLASSES = ['A', 'B', 'C'] as const;
export const TASK_STATUSES = [
  'offen',
  'in_arbeit',
  'nachzaehlung',
  'wartet',
  'gebucht',
  'veraltet',
  'verworfen',
] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];
export const TASK_REASONS = ['plan', 'fehlmenge', 'nachzaehlung'] as const;
export type TaskReason = (typeof TASK_REASONS)[number];

/** The pages' and calls' German texts (not in texts.ts: the handheld's first download does not need them). */
export const inventurLeitstandTexts = {
  plansTitle: 'Zählpläne',
  tasksTitle: 'Zählaufträge',
  differencesTitle: 'Differenzen',
  noPlans: 'Noch kein Zählplan. Ein Plan legt fest, welche Lagerplätze gezählt werden.',
  name: 'Name',
  art: 'Art',
  kinds: {
    bereich: 'Bereich (Lagerplätze von–bis)',
    nicht_gezaehlt: 'Seit Tagen nicht gezählt',
    null_oder_korrigiert: 'Auf null gegangen oder korrigiert',
    abc: 'ABC-Klasse fällig',
  } satisfies Record<PlanKind, string>,
  kindHints: {
    bereich: 'Alle Lagerplätze, deren Code zwischen „von“ und „bis“ liegt (beide eingeschlossen).',
    nicht_gezaehlt:
      'Lagerplätze, die seit so vielen Tagen nicht gezählt wurden (auch nie); von–bis grenzt sie optional ein.',
    null_oder_korrigiert:
      'Lagerplätze, an denen in so vielen Tagen ein Artikel auf null ging oder eine Inventur/Korrektur gebucht wurde.',
    abc: 'Lagerplätze der Klasse, die innerhalb ihrer Zählfrequenz nicht gezählt wurden; von–bis optional.',
  } satisfies Record<PlanKind, string>,
  von: 'Lagerplatz von',
  bis: 'Lagerplatz bis',
  tage: 'Tage',
  klasse: 'ABC-Klasse',
  faelligInTagen: 'Fällig in Tagen',
  zuweisen: 'Zuweisen an',
  nobody: 'alle',
  changed: (by: string, at: string) => `Angelegt von ${by}, geändert ${at}`,
  fieldOf: (field: string, name: string) => `${field} (${name})`,
  add: 'Zählplan anlegen',
  addSubmit: 'Anlegen',
  save: 'Speichern',
  saveLabel: (name: string) => `Zählplan „${name}“ speichern`,
  createTasks: 'Aufträge anlegen',
  createTasksLabel: (name: string) => `Aufträge aus „${name}“ anlegen`,
  remove: 'Entfernen',
  removeLabel: (name: string) => `Zählplan „${name}“ entfernen`,
  removeTitle: (name: string) => `Zählplan „${name}“ entfernen?`,
  removeBody: (open: number) =>
    open === 0
      ? 'Der Plan hat keine offenen Zählaufträge.'
      : `Seine ${open === 1 ? 'offene Zählauftrag bleibt' : `${open} offenen Zählaufträge bleiben`} und ` +
        'kann weiter gezählt werden; in der Liste steht er dann ohne Plan.',
  openTasks: (n: number) => `${n} offen`,
  cancel: 'Abbrechen',
  // Zählaufträge
  status: 'Status',
  statuses: {
    offen: 'offen',
    in_arbeit: 'in Arbeit',
    nachzaehlung: 'zur Nachzählung',
    wartet: 'wartet auf Freigabe',
    gebucht: 'gebucht',
    veraltet: 'veraltet',
    verworfen: 'verworfen',
  } satisfies Record<TaskStatus, string>,
  reasons: {
    plan: 'Zählplan',
    fehlmenge: 'Fehlmenge',
    nachzaehlung: 'Nachzählung',
  } satisfies Record<TaskReason, string>,
  anyStatus: 'alle',
  openStatus: 'offen und in Arbeit',
  plan: 'Zählplan',
  anyPlan: 'alle',
  platz: 'Lagerplatz beginnt mit',
  faelligBis: 'Fällig bis',
  lagerplatz: 'Lagerplatz',
  grund: 'Grund',
  faellig: 'Fällig',
  zugewiesen: 'Zugewiesen',
  gezaehltVon: 'Gezählt von',
  actions: 'Aktionen',
  noTasks: 'Keine Zählaufträge zu diesem Filter.',
  tasksCount: (n: number) => `${n} ${n === 1 ? 'Zählauftrag' : 'Zählaufträge'}`,
  previous: 'Zurück',
  next: 'Weiter',
  page: (page: number, pages: number) => `Seite ${page} von ${pages}`,
  assign: 'Zuweisen',
  assignLabel: (code: string) => `Zählauftrag ${code} zuweisen`,
  assignTo: (code: string) => `Zählauftrag ${code} zuweisen an`,
  discard: 'Verwerfen',
  discardLabel: (code: string) => `Zählauftrag ${code} verwerfen`,
  discardTitle: (code: string) => `Zählauftrag ${code} verwerfen?`,
  discardBody: 'Der Lagerplatz wird dann nicht gezählt; ein neuer Plan kann ihn wieder aufnehmen.',
  // Differenzen
  noDifferences: 'Keine Differenz wartet. Zählungen über der Toleranz erscheinen hier, sobald sie kommen.',
  differencesHint:
    'Nachzählungen über der Toleranz warten hier auf Freigabe; die Liste läuft live mit. ' +
    '„Buchen“ setzt den Bestand auf die letzte Zählung, „Nachzählen“ schickt den Platz an eine weitere Person.',
  artikel: 'Artikel',
  gezaehlt: 'Gezählt',
  buchbestand: 'Buchbestand',
  differenz: 'Differenz',
  fruehere: 'Frühere Zählungen',
  counted: (who: string, at: string) => `gezählt von ${who}, ${at}`,
  earlier: (who: string, amount: number) => `${who}: ${amount}`,
  platzLeer: 'Platz leer gemeldet',
  book: 'Buchen',
  bookLabel: (code: string) => `Differenz an ${code} buchen`,
  bookTitle: (code: string) => `Differenz an ${code} buchen?`,
  bookBody: 'Der Bestand wird auf die gezählten Mengen gesetzt; die Buchung steht im Journal (Art Inventur).',
  recount: 'Nachzählen',
  recountLabel: (code: string) => `${code} nachzählen lassen`,
  recountTitle: (code: string) => `${code} noch einmal zählen lassen?`,
  // True to the rule (domain/count-tasks.ts orderRecount): named, it goes to one who has not counted this
  // place yet (the list offers no one else); for 'alle', to whoever comes first but the last counter.
  recountBody:
    'Ein neuer Zählauftrag, fällig heute. Mit „alle“ nimmt ihn, wer zuerst kommt – nur nicht, wer zuletzt gezählt hat.',
  staleTitle: 'Veraltete Zählungen',
  staleHint:
    'Während dieser Zählungen wurde auf dem Platz gebucht: nichts wurde gebucht, ein Nachzählauftrag ist angelegt.',
  noStale: (days: number) => `Keine veraltete Zählung in den letzten ${days} Tagen.`,
  recountState: (status: string) => `Nachzählung: ${status}`,
  noRecount: 'keine Nachzählung',
  // Answers of the writes
  created: (name: string) => `Zählplan „${name}“ angelegt.`,
  saved: (name: string) => `Zählplan „${name}“ gespeichert.`,
  removed: (name: string, open: number) =>
    open === 0
      ? `Zählplan „${name}“ entfernt.`
      : `Zählplan „${name}“ entfernt; ${open} offene Zählaufträge bleiben.`,
  tasksCreated: (created: number, skipped: number) =>
    `${created} ${created === 1 ? 'Zählauftrag' : 'Zählaufträge'} angelegt` +
    (skipped > 0 ? `, ${skipped} übersprungen (schon offen).` : '.'),
  assigned: (code: string, user: string | null) =>
    user === null ? `Zählauftrag ${code} ist für alle frei.` : `Zählauftrag ${code} an ${user} zugewiesen.`,
  discarded: (code: string) => `Zählauftrag ${code} verworfen.`,
  posted: (code: string) => `Differenz an ${code} gebucht.`,
  postedStale: (code: string) =>
    `An ${code} wurde seit der Zählung gebucht: nichts gebucht, ${code} wird heute nachgezählt.`,
  recountOrdered: (code: string) => `Nachzählung für ${code} angelegt, fällig heute.`,
  // Refusals
  duplicate: (name: string) => `Einen Zählplan „${name}“ gibt es schon.`,
  planNotFound: 'Diesen Zählplan gibt es nicht mehr. Bitte die Seite neu laden.',
  rangeNeeded: 'Für einen Bereich bitte „Lagerplatz von“ und „Lagerplatz bis“ angeben.',
  rangeHalf: 'Bitte „Lagerplatz von“ und „Lagerplatz bis“ beide angeben oder beide leer lassen.',
  rangeOrder: '„Lagerplatz von“ muss vor „Lagerplatz bis“ liegen.',
  daysNeeded: 'Bitte die Tage angeben.',
  classNeeded: 'Bitte die ABC-Klasse angeben.',
  userNotFound: 'Diesen Benutzer gibt es nicht oder er ist deaktiviert.',
  assigneeInactive:
    'Der Plan ist einem deaktivierten Benutzer zugewiesen – bitte zuerst „Zuweisen an“ im Plan ändern.',
  creating: 'Die Aufträge werden noch angelegt. Bitte die Seite gleich neu laden.',
  taskNotFound: 'Diesen Zählauftrag gibt es nicht.',
  notOpen: (code: string, status: string) =>
    `Zählauftrag ${code} ist nicht mehr offen (${status}). Bitte die Seite neu laden.`,
  notForUser: (user: string) =>
    `${user} hat diesen Platz schon gezählt; die Nachzählung muss jemand anderes machen.`,
} as const;

const T = inventurLeitstandTexts;

/** A location code as typed into a plan's range. */
const code = text(200, { controls: 'typed' });

/**
 * A plan as the page edits it. The range (`von`–`bis`, both included, in the codes' byte order) is the
 * whole plan for 'bereich' and an optional filter for the others; `tage` is the number of days for
 * 'nicht_gezaehlt' and 'null_oder_korrigiert'; `klasse` the class for 'abc'. Fields the kind does not use are
 * stored empty. Due: today plus `faelligInTagen`, at 'Aufträge anlegen'.
 */
export const planForm = z.object({
  name: text(60, { min: 1, controls: 'typed' }),
  art: z.enum(PLAN_KINDS),
  von: code.nullable(),
  bis: code.nullable(),
  tage: z.number().int().min(1).max(3650).nullable(),
  klasse: z.enum(ABC_CLASSES).nullable(),
  faelligInTagen: z.number().int().min(0).max(365),
  benutzerId: id.nullable(),
});
export type PlanForm = z.infer<typeof planForm>;

export const planRow = z.object({
  id: z.number().int(),
  name: z.string(),
  art: z.enum(PLAN_KINDS),
  von: z.string().nullable(),
  bis: z.string().nullable(),
  tage: z.number().int().nullable(),
  klasse: z.enum(ABC_CLASSES).nullable(),
  faelligInTagen: z.number().int(),
  benutzerId: z.number().int().nullable(),
  benutzer: z.string().nullable(),
  /** Its tasks not counted yet (offen or in Arbeit). */
  offen: z.number().int(),
  angelegtVon: z.string(),
  geaendertAm: z.iso.datetime({ offset: true }),
});
export type PlanRow = z.infer<typeof planRow>;

/** A user a task may be given to: active, a login that can count (any role). */
export const zaehler = z.object({ id: z.number().int(), name: z.string() });
export type Zaehler = z.infer<typeof zaehler>;

export const taskRow = z.object({
  id: z.number().int(),
  lagerplatz: z.string(),
  grund: z.enum(TASK_REASONS),
  plan: z.string().nullable(),
  /** YYYY-MM-DD. */
  faellig: z.string(),
  status: z.enum(TASK_STATUSES),
  zugewiesen: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  /** Who holds it now (in Arbeit), or who counted it. */
  gezaehltVon: z.string().nullable(),
  /** Who must not count it (a recount: the one who counted before); the page leaves them out of 'Zuweisen'. */
  nichtBenutzerId: z.number().int().nullable(),
});
export type TaskRow = z.infer<typeof taskRow>;

/** A count of a location (a task) as a difference shows it: per article counted and book, who, when. */
export const zaehlung = z.object({
  auftragId: z.number().int(),
  status: z.enum(TASK_STATUSES),
  gezaehltVon: z.string().nullable(),
  gezaehltAm: z.iso.datetime({ offset: true }).nullable(),
});

export const differenzArtikel = z.object({
  artikelId: z.number().int(),
  nummer: z.string(),
  name: z.string(),
  gezaehlt: z.number().int(),
  /** Book stock when the count finished. */
  buchbestand: z.number().int(),
  differenz: z.number().int(),
  /** Difference in percent of the book stock; null when the book stock is 0. */
  prozent: z.number().nullable(),
  /** The same article in the earlier counts of the recount chain, oldest first (null: not counted there). */
  frueher: z.array(z.number().int().nullable()),
});
export type DifferenzArtikel = z.infer<typeof differenzArtikel>;

export const differenzRow = z.object({
  id: z.number().int(),
  lagerplatz: z.string(),
  gezaehltVon: z.string().nullable(),
  gezaehltAm: z.iso.datetime({ offset: true }).nullable(),
  /** The earlier counts of the chain, oldest first (the first count, then each recount). */
  frueher: z.array(zaehlung),
  artikel: z.array(differenzArtikel),
  /** Users who counted this location in the chain (a recount goes to somebody else). */
  gezaehltVonIds: z.array(z.number().int()),
});
export type DifferenzRow = z.infer<typeof differenzRow>;

export const veraltetRow = z.object({
  id: z.number().int(),
  lagerplatz: z.string(),
  gezaehltVon: z.string().nullable(),
  gezaehltAm: z.iso.datetime({ offset: true }).nullable(),
  nachzaehlung: z.object({ id: z.number().int(), status: z.enum(TASK_STATUSES) }).nullable(),
});
export type VeraltetRow = z.infer<typeof veraltetRow>;

const answer = successOnly.extend({ message: z.string() });
const planId = z.object({ id: idParam });
const taskId = z.object({ id: idParam });

export const zaehlplaene = endpoint({
  name: 'zaehlplaene',
  method: 'GET',
  path: '/api/leitstand/inventur/plaene',
  role: 'schichtleitung',
  response: z.object({ data: z.object({ plaene: z.array(planRow), zaehler: z.array(zaehler) }) }),
});

export const zaehlplanAnlegen = endpoint({
  name: 'zaehlplanAnlegen',
  method: 'POST',
  path: '/api/leitstand/inventur/plaene',
  role: 'schichtleitung',
  body: planForm,
  response: answer.extend({ id: z.number().int() }),
});

export const zaehlplanAendern = endpoint({
  name: 'zaehlplanAendern',
  method: 'PUT',
  path: '/api/leitstand/inventur/plaene/:id',
  role: 'schichtleitung',
  params: planId,
  body: planForm,
  response: answer,
});

/** Removes a plan; its tasks stay as they are (open ones can still be counted), without a plan. */
export const zaehlplanEntfernen = endpoint({
  name: 'zaehlplanEntfernen',
  method: 'PUT',
  path: '/api/leitstand/inventur/plaene/:id/entfernen',
  role: 'schichtleitung',
  params: planId,
  body: z.strictObject({}),
  response: answer,
});

/**
 * 'Aufträge anlegen': one task per location the plan matches now that has no task open (offen, in Arbeit)
 * or waiting for approval; a stepped write behind the floor, exactly once per key.
 */
export const zaehlauftraegeAnlegen = endpoint({
  name: 'zaehlauftraegeAnlegen',
  method: 'POST',
  path: '/api/leitstand/inventur/plaene/:id/auftraege',
  role: 'schichtleitung',
  params: planId,
  body: z.strictObject({}),
  response: answer.extend({ angelegt: z.number().int(), uebersprungen: z.number().int() }),
});

/** Tasks on a page of the list. */
export const TASKS_PAGE = 50;

const numberText = (max: number) =>
  z
    .string()
    .regex(/^[0-9]{1,9}$/)
    .transform(Number)
    .pipe(z.number().int().min(1).max(max));

export const taskQuery = z.strictObject({
  /** A status, or 'aktiv' (offen and in Arbeit); none: every status. */
  status: z.enum([...TASK_STATUSES, 'aktiv']).optional(),
  plan: numberText(2_147_483_647).optional(),
  /** The start of the location code (an aisle: 'A-01'). */
  platz: text(200, { controls: 'typed' }).optional(),
  faelligBis: z.iso.date().optional(),
  seite: numberText(100_000).optional(),
});

/** The tasks by due date, then location code, a page at a time. */
export const zaehlauftraege = endpoint({
  name: 'zaehlauftraege',
  method: 'GET',
  path: '/api/leitstand/inventur/auftraege',
  role: 'schichtleitung',
  query: taskQuery,
  response: z.object({
    data: z.object({ auftraege: z.array(taskRow), gesamt: z.number().int(), seite: z.number().int() }),
  }),
});

/** Gives an open task to one user (null: to everybody); refused for whom the task must not go to. */
export const zaehlauftragZuweisen = endpoint({
  name: 'zaehlauftragZuweisen',
  method: 'PUT',
  path: '/api/leitstand/inventur/auftraege/:id/zuweisen',
  role: 'schichtleitung',
  params: taskId,
  body: z.object({ benutzerId: id.nullable() }),
  response: answer,
});

/** Discards an open task (not in work): the location is not counted by it. */
export const zaehlauftragVerwerfen = endpoint({
  name: 'zaehlauftragVerwerfen',
  method: 'PUT',
  path: '/api/leitstand/inventur/auftraege/:id/verwerfen',
  role: 'schichtleitung',
  params: taskId,
  body: z.strictObject({}),
  response: answer,
});

/** Stale counts shown this many days after they ended. */
export const STALE_DAYS = 7;

/** The counts waiting for approval, oldest first, and the stale counts of the last STALE_DAYS days. */
export const differenzen = endpoint({
  name: 'differenzen',
  method: 'GET',
  path: '/api/leitstand/inventur/differenzen',
  role: 'schichtleitung',
  response: z.object({
    data: z.object({
      differenzen: z.array(differenzRow),
      veraltet: z.array(veraltetRow),
      zaehler: z.array(zaehler),
    }),
  }),
});

/** 'Buchen': the counted amounts become the stock, journalled; a count is posted once (409 after). */
export const differenzBuchen = endpoint({
  name: 'differenzBuchen',
  method: 'PUT',
  path: '/api/leitstand/inventur/differenzen/:id/buchen',
  role: 'schichtleitung',
  params: taskId,
  body: z.strictObject({}),
  response: answer,
});

/** 'Nachzählen': a new recount task due today, optionally given to a user who has not counted the chain. */
export const differenzNachzaehlen = endpoint({
  name: 'differenzNachzaehlen',
  method: 'PUT',
  path: '/api/leitstand/inventur/differenzen/:id/nachzaehlen',
  role: 'schichtleitung',
  params: taskId,
  body: z.object({ benutzerId: id.nullable() }),
  response: answer.extend({ auftragId: z.number().int() }),
});

/** The German label of a plan's kind, for the list and the Protokoll. */
export const kindLabel = (kind: PlanKind) => T.kinds[kind];
