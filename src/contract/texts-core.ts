/**
 * The texts a handheld needs before a screen opens — the app's frame, login, menus, the errors it shows
 * itself, the outbox, refused scans. Apart from texts.ts so the first download carries these only (its budget:
 * test/tools/bundle-budget.test.ts); `texts` in texts.ts holds them too, beside every screen's (a section both
 * have, `errors` and `settings`, is joined there), and is what the server, the tests and the screens use. The
 * modules of the first download import `coreTexts as texts`. Each section is read in the current language
 * (`localizedSections`, decision 35).
 */

import { localizedSections } from './i18n/localized.ts';

/** A number as a German reader writes it (1.000.000). */
const de = (n: number) => n.toLocaleString('de-DE');

export const coreTexts = localizedSections({
  app: {
    title: 'Lagerscanner',
    back: 'Zurück',
    logout: (name: string) => `${name} abmelden`,
    mainMenu: 'Hauptmenü',
    /** The names a screen reader gives the small buttons beside a field or a count. */
    clearField: (label: string) => `${label} leeren`,
    less: (label: string) => `${label} weniger`,
    more: (label: string) => `${label} mehr`,
    beta: 'Beta',
    loading: 'Lädt …',
    settings: 'Einstellungen',
    /** The installed app's description (web manifest). */
    description: 'Lager- und Versandbuchungen mit dem Barcodescanner',
    /** On a screen that needs the server's answer (stock, inventory, packing, …): it waits for the network. */
    offline: 'Keine Verbindung zum Server. Scans werden erst wieder angenommen, wenn das Netz zurück ist.',
    /** On a capture screen: scans go to the outbox. */
    offlineCapture:
      'Keine Verbindung zum Server. Scans werden gespeichert und gesendet, sobald das Netz zurück ist.',
    /** In the menus: which screens go on without a network. */
    offlineMenu:
      'Keine Verbindung zum Server. Erfassungen werden gespeichert und später gesendet; alles andere geht erst wieder mit Netz.',
    newVersion: 'Neue Version – neu laden',
  },
  /** The two titles the app's frame shows; the settings screen's own texts are in texts.ts (not in the first download). */
  settings: {
    scannerTestTitle: 'Scanner testen',
    testSheetTitle: 'Testbogen Scanner',
  },

  menu: {
    /** Shown to shift leads and admins only (DESIGN §9). */
    leitstand: 'Leitstand',
    batcherfassung: 'Batch',
    kartonagenerfassung: 'Kartonagen',
    paketausgang: 'Paketausgang',
    paketinhalt: 'Paketinhalt',
    inventur: 'Inventur',
    retoure: 'Retoure',
    batch: 'Batch (Lieferschein)',
    container: 'Wechselbrücke',
    transporter: 'Transporter',
    wmsretoure: 'WMS-Retoure',
    zollpaket: 'Zollpaket',
    kommissionierung: 'Kommissionierung',
    /** The menu button's: with a soft hyphen, as the word is wider than half a handheld's screen. */
    kommissionierungButton: 'Kommissio\u00adnierung',
    umbuchung: 'Umbuchung',
    artikelumlagern: 'Artikel umlagern',
    nachschub: 'Nachschub',
    lagercheck: 'Lagerplatzprüfung',
    wareneingang: 'Wareneingang',
  },
  login: {
    heading: 'Anmelden',
    cardPrompt: 'Mitarbeiterkarte scannen',
    cardLabel: 'Karte',
    username: 'Name',
    password: 'Passwort',
    submit: 'Anmelden',
    toCard: 'Mit Karte anmelden',
    toPassword: 'Mit Name und Passwort anmelden',
    failed: 'Benutzer nicht gefunden oder fehlende Rechte!',
    serverError: 'Anmeldung fehlgeschlagen: Systemfehler. Bitte an die IT wenden.',
    tooMany: 'Zu viele Anmeldeversuche. Bitte in einigen Minuten erneut versuchen.',
    /** The device's language switch (its screen reader name). */
    language: 'Sprache',
    /** The worker's (or the device's) language: its catalogue could not be downloaded (decision 35). */
    languageFailed: 'Sprache nicht geladen – die Anzeige bleibt Deutsch.',
  },
  errors: {
    noLogin: 'Kein Login. Seite wird neu geladen.',
    badRequest: 'Ungültige Anfrage.',
    scanNotSaved: 'Scan wurde nicht gespeichert - melde dich neu an!',
    system500: 'Systemfehler (Fehler 500) - Bitte an die IT wenden.',
    network: 'Netzwerkfehler. Bitte erneut versuchen.',
    routeNotFound: 'Diese Adresse gibt es nicht.',
  },
  /** The outbox of capture scans made without a connection (issue 10). */
  outbox: {
    saved: 'Gespeichert – wird gesendet',
    title: 'Ungesendete Scans',
    badge: (pending: number) => (pending === 1 ? '1 Scan nicht gesendet' : `${pending} Scans nicht gesendet`),
    badgeFailed: (failed: number) => `${failed} fehlgeschlagen`,
    badgeOthers: (count: number) => `${count} von anderen Nutzern`,
    logoutTitle: 'Trotzdem abmelden?',
    logoutBody: (pending: number, failed: number, name: string) =>
      [
        pending === 0
          ? ''
          : pending === 1
            ? '1 Scan ist noch nicht gesendet.'
            : `${pending} Scans sind noch nicht gesendet.`,
        failed === 0
          ? ''
          : failed === 1
            ? '1 fehlgeschlagener Scan ist noch nicht gelesen.'
            : `${failed} fehlgeschlagene Scans sind noch nicht gelesen.`,
        pending > 0
          ? `Sie bleiben auf diesem Gerät und werden erst gesendet, wenn ${name} sich wieder anmeldet.`
          : `Sie bleiben auf diesem Gerät, bis ${name} sie gelesen hat.`,
      ]
        .filter((sentence) => sentence !== '')
        .join(' '),
    logoutConfirm: 'Abmelden',
    cancel: 'Abbrechen',
  },
  /** The red banner (src/web/ui/banner.tsx): a burst's earlier refusals listed under the newest. */
  banner: {
    earlier: 'Frühere Meldungen',
    more: (n: number) => (n === 1 ? '… und eine weitere Meldung' : `… und ${de(n)} weitere Meldungen`),
  },
  /** Where a scan goes (src/web/scan): a scan that cannot land says what the screen expects instead. */
  scan: {
    refused: (what: string) => `Scan nicht angenommen – ${what}`,
    expected: (label: string) => `erwartet: ${label}.`,
    digitsOnly: (label: string) => `${label}: nur Ziffern.`,
    above: (label: string, max: number) => `${label}: höchstens ${de(max)}.`,
    typeIn: (label: string) => `${label} bitte eintippen.`,
    nothingHere: 'hier wird nichts gescannt. Bitte zuerst eine Funktion wählen.',
    answerFirst: 'bitte zuerst die Frage beantworten.',
  },
} as const);
