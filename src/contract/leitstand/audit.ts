import { z } from 'zod';
import { endpoint } from '../endpoint.ts';

/**
 * Leitstand › Protokoll (issue 20): every write made in the Leitstand, with who, what and when — newest
 * first, paged by a cursor (keyset on the audit_log's (at, id) index, so the list stays fast however long).
 */

export const auditEntry = z.object({
  id: z.number().int(),
  at: z.iso.datetime({ offset: true }),
  user: z.object({ id: z.number().int(), name: z.string(), username: z.string().nullable() }),
  /** A stable English key: 'user.create', 'token.revoke', 'import.articles', … */
  action: z.string(),
  /** What it was done to: a username, a token's name, a file name. */
  subject: z.string(),
  /** What changed (never a secret). */
  detail: z.record(z.string(), z.unknown()),
});
export type AuditEntry = z.infer<typeof auditEntry>;

/** An opaque position in the list, as `next` answered it. */
const cursor = z.string().regex(/^[A-Za-z0-9_-]{1,200}$/);

export const auditList = endpoint({
  name: 'auditList',
  method: 'GET',
  path: '/api/leitstand/audit',
  role: 'schichtleitung',
  query: z
    .object({
      /** Continue after this entry (the `next` of the page before). */
      before: cursor.optional(),
      limit: z
        .string()
        .regex(/^[0-9]{1,3}$/)
        .transform(Number)
        .pipe(z.number().int().min(1).max(200))
        .optional(),
    })
    .strict(),
  response: z.object({
    entries: z.array(auditEntry),
    /** The cursor of the next (older) page; null on the last one. */
    next: cursor.nullable(),
  }),
});

/** Entries on a page unless the call asks for another number. */
export const AUDIT_PAGE = 50;

export const auditTexts = {
  title: 'Protokoll',
  intro: 'Jede Änderung im Leitstand: wer, was, wann – die neuesten zuerst.',
  columns: { at: 'Zeitpunkt', user: 'Wer', action: 'Was', subject: 'Betreff', detail: 'Einzelheiten' },
  more: 'Ältere laden',
  listTitle: 'Einträge',
  empty: 'Noch keine Einträge.',
  badCursor: 'Diese Seite des Protokolls gibt es nicht. Bitte die Liste neu laden.',
  /** The actions by key (the server's recordAudit takes no other: AuditAction). */
  actions: {
    'user.create': 'Benutzer angelegt',
    'user.role': 'Rolle geändert',
    'user.language': 'Sprache geändert',
    'user.password': 'Passwort neu gesetzt',
    'user.deactivate': 'Benutzer deaktiviert',
    'user.activate': 'Benutzer aktiviert',
    'user.card': 'Neue Karte ausgegeben',
    'token.create': 'Schlüssel angelegt',
    'token.revoke': 'Schlüssel widerrufen',
    'klaerfall.erledigt': 'Klärfall erledigt',
    'klaerfall.zurueck': 'Klärfall zurück ins Packen',
    'minimum.set': 'Mindestbestand gesetzt',
    'minimum.remove': 'Mindestbestand entfernt',
    'zollwagen.close': 'Zollwagen abgeschlossen',
    'pickProfile.create': 'Kommissionierprofil angelegt',
    'pickProfile.update': 'Kommissionierprofil geändert',
    'pickProfile.remove': 'Kommissionierprofil entfernt',
    'wave.release': 'Welle freigegeben',
    'wave.takeOut': 'Lieferschein aus Welle genommen',
    'pickTrip.end': 'Fahrt mit Kommissionierwagen beendet',
    'compartment.empty': 'Fach geleert',
    // Permanente Inventur (issue 42): plans, tasks, differences
    'countPlan.create': 'Zählplan angelegt',
    'countPlan.update': 'Zählplan geändert',
    'countPlan.remove': 'Zählplan entfernt',
    'countTasks.create': 'Zählaufträge angelegt',
    'countTask.assign': 'Zählauftrag zugewiesen',
    'countTask.discard': 'Zählauftrag verworfen',
    'countDifference.post': 'Inventurdifferenz gebucht',
    'countDifference.recount': 'Nachzählung angeordnet',
    'abc.compute': 'ABC-Klassen berechnet',
    'countClass.update': 'Zählklasse geändert',
    'printer.create': 'Drucker angelegt',
    'printer.update': 'Drucker geändert',
    'printer.remove': 'Drucker entfernt',
    'print.job': 'Etiketten gedruckt',
    'print.badge': 'Ausweise erstellt',
    'access.denied': 'Zugriff verweigert',
    /** `import.<kind>`: any kind. */
    import: 'CSV importiert',
  },
  /** An entry's detail, key by key: its German name (a key without one is shown as it is). */
  detailKeys: {
    name: 'Name',
    role: 'Rolle',
    language: 'Sprache',
    password: 'Passwort',
    card: 'Karte',
    from: 'vorher',
    to: 'nachher',
    endedLogins: 'Anmeldungen beendet',
    kind: 'Art',
    rows: 'Zeilen',
    written: 'geschrieben',
    encoding: 'Kodierung',
    klaerfall: 'Klärfall',
    kommentar: 'Kommentar',
    lagerplatz: 'Lagerplatz',
    artikel: 'Artikel',
    vorher: 'vorher',
    nachher: 'nachher',
    bezeichnung: 'Bezeichnung',
    pakete: 'Pakete',
    geoeffnetAm: 'geöffnet am',
    host: 'Adresse',
    port: 'Port',
    dpi: 'Auflösung (dpi)',
    groesse: 'Etikettengröße',
    before: 'vorher',
    after: 'nachher',
    refusedRows: 'abgelehnte Zeilen',
    outcome: 'Ergebnis',
    reason: 'Grund',
    labels: 'Etiketten',
    format: 'Format',
    profil: 'Profil',
    welle: 'Welle',
    lieferschein: 'Lieferschein',
    lieferscheine: 'Lieferscheine',
    versandart: 'Versandart',
    maxPositionen: 'höchstens Positionen',
    eu: 'EU',
    eingangVor: 'eingegangen vor',
    proWagen: 'je Wagen',
    fahrt: 'Fahrt',
    kommissionierer: 'Kommissionierer',
    verlassen: 'vom Wagen genommen',
    bleiben: 'bleiben im Fach',
    fach: 'Fach',
    // Permanente Inventur (issue 42)
    art: 'Art',
    von: 'von',
    bis: 'bis',
    tage: 'Tage',
    klasse: 'ABC-Klasse',
    faelligInTagen: 'fällig in Tagen',
    zugewiesen: 'zugewiesen',
    offeneAuftraege: 'offene Zählaufträge',
    angelegt: 'angelegt',
    uebersprungen: 'übersprungen (schon offen)',
    faellig: 'fällig',
    zaehlauftrag: 'Zählauftrag',
    nachzaehlung: 'Nachzählung',
    ergebnis: 'Ergebnis',
    lagerplaetze: 'Lagerplätze',
    frequenzTage: 'zählen alle … Tage',
    toleranzStueck: 'Toleranz Stück',
    toleranzProzent: 'Toleranz %',
  } as Record<string, string>,
  /** An entry's `outcome`: done, or refused (a refused write, a call the role does not allow). */
  outcomes: { done: 'ausgeführt', refused: 'abgelehnt' } as Record<string, string>,
  /** The action of a refused entry ('CSV importiert – abgelehnt'): nothing of it took effect. */
  refusedAction: (label: string) => `${label} – abgelehnt`,
  yes: 'ja',
  no: 'nein',
} as const;

/**
 * Detail keys recorded for IT and not shown on the page: a Klärfall's database id means nothing to a reader
 * ('Klärfall: 1'); the entry's subject names its delivery note, and its time tells two of a note apart.
 */
export const AUDIT_HIDDEN_DETAIL_KEYS: readonly string[] = ['klaerfall'];

/** What the audit list records: a key of auditTexts.actions, or `import.<kind>`. */
export type AuditAction = Exclude<keyof typeof auditTexts.actions, 'import'> | `import.${string}`;

/** The German label of an entry's action; a refused one says so ('Rolle geändert – abgelehnt'). */
export function actionLabel(action: string, detail: Record<string, unknown> = {}): string {
  const labels: Record<string, string> = auditTexts.actions;
  const label = labels[action] ?? labels[action.split('.')[0] ?? ''] ?? action;
  return detail.outcome === 'refused' && action !== 'access.denied' ? auditTexts.refusedAction(label) : label;
}
