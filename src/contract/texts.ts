// Over 400 lines on purpose: every German sentence staff see, one catalogue read top to bottom (by whoever
// checks them against SPEC, and by a translator, issue 43).
import { joined } from './i18n/joined.ts';
import { localized, localizedSections } from './i18n/localized.ts';
import { coreTexts } from './texts-core.ts';

/**
 * Every German text the staff sees, in one place. SPEC.md gives most of them verbatim; keep them letter for
 * letter. Texts with placeholders are functions. Server messages and the web UI both import from here.
 */

/** A number as a German reader writes it (1.000.000). */
const de = (n: number) => n.toLocaleString('de-DE');

const ownTexts = localizedSections({
  /** The outbox list's own texts (the badge and the logout's warning are in the first download, texts-core.ts). */
  outbox: {
    failed: 'Fehlgeschlagen',
    pending: 'Wird gesendet, sobald das Netz zurück ist',
    none: 'Alle Scans sind gesendet.',
    sendNow: 'Jetzt senden',
    acknowledge: 'Gelesen',
    othersHeading: (name: string) => `Von ${name} – wird erst gesendet, wenn ${name} sich anmeldet`,
    at: (time: string) => `gescannt ${time}`,
    calls: {
      paketausgang: 'Paketausgang',
      retourenerfassung: 'Retoure',
      captureBatch: 'Batch',
      captureContainer: 'Wechselbrücke',
      captureTransporter: 'Transporter',
    },
  },
  /** The settings screen's texts (the app's frame has the titles, texts-core.ts). */
  settings: {
    /** The worker's own language (issue 43): kept with the user, not the device. */
    language: 'Meine Sprache',
    languageHint: 'Gilt für dich auf jedem Gerät, auf dem du dich anmeldest.',
    languageFailed: 'Sprache nicht geladen – nichts geändert. Bitte erneut versuchen.',
    sound: 'Ton',
    volume: 'Lautstärke',
    vibration: 'Vibration',
    deviceName: 'Gerätename',
    deviceNameHint: 'z. B. Scanner 3 Wareneingang',
    prefix: 'Präfix des Scanners',
    suffix: 'Suffix des Scanners',
    groupSeparatorAs: 'Gruppentrenner (GS) kommt als',
    doubleRead: 'Doppelt gelesen, wenn derselbe Code innerhalb von … ms kommt',
    scannerHint:
      'Nur ausfüllen, wenn der Scanner Zeichen vor oder nach jedem Code sendet oder den GS1-Gruppentrenner als anderes Zeichen tippt.',
    testSuccess: 'Test: Erfolg',
    testError: 'Test: Fehler',
    saved: 'Gespeichert – gilt für dieses Gerät.',
    scannerTest: 'Scanner testen',
    testSheet: 'Testbogen drucken',
  },
  errors: {
    // Only the server sends these (and the screens' own checks of a field): the handheld shows its words, so
    // they are not in the first download.
    /** 403: the login's role is below what the call needs (DESIGN §9). */
    role: {
      mitarbeiter: 'Keine Berechtigung für diesen Vorgang.',
      schichtleitung: 'Das darf nur die Schichtleitung.',
      admin: 'Das darf nur die IT-Administration.',
    },
    /**
     * A field the server refused, named by its label on the screen (`fieldLabels` below), with what is wrong
     * where the worker can act on it (src/contract/input-errors.ts picks the text).
     */
    input: {
      missing: (field: string) => `${field} fehlt.`,
      tooLong: (field: string, max: number) => `${field} ist zu lang: höchstens ${de(max)} Zeichen.`,
      tooShort: (field: string, min: number) => `${field} ist zu kurz: mindestens ${de(min)} Zeichen.`,
      controlCharacter: (field: string) =>
        `${field} enthält ein unzulässiges Steuerzeichen. Bitte erneut scannen.`,
      /** The same in a typed field (a name, a password): nothing to scan again. */
      controlCharacterTyped: (field: string) => `${field} enthält ein unzulässiges Steuerzeichen.`,
      notANumber: (field: string) => `${field} muss eine Zahl sein.`,
      notAWholeNumber: (field: string) => `${field} muss eine ganze Zahl sein.`,
      tooSmall: (field: string, min: number) => `${field} muss mindestens ${de(min)} sein.`,
      tooBig: (field: string, max: number) => `${field} darf höchstens ${de(max)} sein.`,
      step: (field: string, step: number) => `${field} geht nur in Schritten von ${de(step)}.`,
      tooMany: (field: string, max: number) => `${field}: höchstens ${de(max)} Einträge.`,
      notADate: (field: string) => `${field} ist kein gültiges Datum.`,
      notAnId: (field: string) => `${field} ist keine gültige Nummer.`,
      invalid: (field: string) => `${field} ist ungültig.`,
    },
    csrf: 'Sicherheitstoken ungültig. Bitte Seite neu laden.',
    unauthorized: 'Nicht angemeldet oder Sitzung abgelaufen. Bitte neu anmelden.',
    forbidden: 'Keine Berechtigung für diesen Vorgang.',
    notFound: 'Nicht gefunden.',
    urlTooLong: 'Die Adresse ist zu lang.',
    badUrl: 'Die Adresse ist ungültig.',
    invalidJson: 'Die Anfrage ist kein gültiges JSON.',
    bodyTooLarge: 'Die Anfrage ist zu groß.',
    unsupportedMediaType: 'Die Anfrage muss JSON sein.',
    missingIdempotencyKey:
      'Die Anfrage hat keinen gültigen Idempotenz-Schlüssel (X-Idempotency-Key, UUID v4).',
    idempotencyConflict: 'Dieser Vorgang wurde schon mit anderen Daten gesendet. Bitte neu eingeben.',
    unavailable: 'Der Server ist gerade nicht bereit. Bitte gleich erneut versuchen.',
    /**
     * 503 when more scans arrive than the server can serve (decision 26): the handheld shows the server's own
     * words, so this text travels in the answer and is not part of the first download.
     */
    overloaded: 'Server ausgelastet – bitte in ein paar Sekunden noch einmal versuchen.',
    heavyBusy:
      'Gerade läuft schon ein großer Export, Import oder Etikettendruck. Bitte in einer Minute noch einmal versuchen.',
  },
  lookup: {
    articleNotFound: (x: string) => `Artikel "${x}" nicht gefunden!`,
    articleAmbiguous: (x: string) => `Nummer "${x}" nicht eindeutig!`,
    locationNotFound: (x: string) => `Lagerplatz "${x}" nicht gefunden!`,
    /** A location or article named by its id (a booking's field), not by a scan (decision 32: one refusal). */
    unknownLocation: 'Lagerplatz nicht gefunden.',
    unknownArticle: 'Artikel nicht gefunden.',
    lhmNotFound: (x: string) => `LHM"${x}" nicht gefunden!`,
    articleOnNoLocation: 'Artikel auf keinen Lagerplätzen vorhanden!',
    locationEmpty: 'Keine Artikel auf diesem Lagerplatz!',
  },
  inventur: {
    heading: 'Inventur',
    location: 'Lagerplatz',
    article: 'Artikel',
    amount: 'Menge',
    submit: 'Buchen',
    clear: 'Leeren',
    confirm: 'Ist das korrekt?',
    confirmDetail: (article: string, lp: string, amount: number) =>
      `Artikel ${article} auf ${lp}: Menge ${amount}.`,
    cancel: 'Abbrechen',
    chooseLocation: 'Bitte zuerst einen Lagerplatz scannen.',
    chooseArticle: 'Bitte einen Artikel scannen.',
    amountInvalid: 'Bitte eine Menge von 0 oder mehr eingeben.',
    success: 'Gezählt!',
    historyHeading: 'Letzte Scans',
    historyTime: 'Zeit',
    historyArticle: 'Artikel',
    historyLp: 'LP',
    historyAmount: 'Menge',
    historyEmpty: 'Noch keine Scans.',
  },
  umlagern: {
    article: 'Artikel',
    source: 'Lagerplatz',
    amount: 'Menge',
    setAmount: 'Setzen',
    target: 'Ziel-Lagerplatz',
    submit: 'Umlagern',
    confirmTitle: 'Umlagerung bestätigen',
    confirmBody: (amount: number, article: string, from: string, to: string) =>
      `${amount} × ${article} von ${from} nach ${to} umlagern?`,
    confirm: 'Umlagern',
    cancel: 'Abbrechen',
    success: 'Umgelagert!',
    maxAmount: (max: number) => `höchstens ${max}`,
    amountRange: (max: number) => `Bitte eine Menge von 1 bis ${max} eingeben.`,
    nothingOnSource: 'Dieser Artikel liegt nicht auf diesem Lagerplatz.',
    infoHeading: 'Lagerplätze des Artikels',
    infoLocation: 'Lagerplatz',
    infoType: 'Lagertyp',
    infoAmount: 'Menge',
    missingFields: 'Bitte Artikel, Lagerplatz, Menge und Ziel-Lagerplatz angeben.',
    sameLocation: 'Quell- und Ziel-Lagerplatz sind gleich.',
    readyToMove: 'bitte „Umlagern“ antippen oder ein Feld mit ✕ leeren.',
    notEnoughStock: (lp: string, available: number, nummer: string) =>
      `Nicht genug Bestand: auf ${lp} liegen nur ${available} Stück von Artikel ${nummer}.`,
  },
  /** Every booking that adds stock (src/server/domain/stock.ts). */
  stock: {
    overMaximum: (nummer: string, lp: string, max: number) =>
      `Bestand von Artikel ${nummer} auf ${lp} würde die Höchstmenge von ${de(max)} überschreiten.`,
  },
  umbuchung: {
    from: 'Von Lagerplatz',
    to: 'Nach Lagerplatz',
    submit: 'Alles umbuchen',
    contentHeading: 'Inhalt',
    number: 'Nummer',
    name: 'Name',
    amount: 'Menge',
    bothNeeded: 'Bitte beide Lagerplätze scannen.',
    readyToMove: 'bitte „Alles umbuchen“ antippen oder einen Lagerplatz mit ✕ leeren.',
    confirmTitle: 'Es werden alle Artikel umgebucht!',
    confirmBody: (from: string, to: string) => `Von ${from} nach ${to}.\nIst das korrekt?`,
    confirmButton: 'Umbuchen',
    cancel: 'Abbrechen',
    done: (count: number, from: string, to: string) => `${count} Artikel von ${from} nach ${to} umgebucht.`,
  },
  lagercheck: {
    location: 'Lagerplatz',
    number: 'Nummer',
    name: 'Name',
    amount: 'Menge',
    contentOf: (code: string) => `Inhalt von ${code}`,
  },
  nachschub: {
    taskButton: (start: string, nummer: string, location: string) => `${start}: ${nummer} nach ${location}`,
    heading: 'Nachschub',
    empty: 'Alle Kommissionierplätze sind über ihrem Mindestbestand.',
    location: 'Platz',
    article: 'Artikel',
    stock: 'Bestand',
    minimum: 'Minimum',
    source: 'Von',
    noSource: 'kein Bestand',
    start: 'Nachschub holen',
    task: (nummer: string, target: string) => `Artikel ${nummer} nach ${target}`,
    scanSource: 'Quell-Lagerplatz',
    scanArticle: 'Artikel',
    amount: 'Menge',
    scanTarget: 'Ziel-Lagerplatz',
    submit: 'Buchen',
    cancel: 'Abbrechen',
    wrongArticle: (expected: string) => `Falscher Artikel gescannt: erwartet ${expected}.`,
    wrongTarget: (expected: string) => `Falscher Ziel-Lagerplatz gescannt: erwartet ${expected}.`,
    success: 'Nachschub gebucht!',
    reload: 'Aktualisieren',
    chooseTask: 'bitte zuerst eine Aufgabe mit „Nachschub holen“ wählen.',
    readyToBook: 'bitte „Buchen“ antippen oder ein Feld mit ✕ leeren.',
  },
  batch: {
    tooLong: 'Achtung - Batch hat nur sechs Ziffern!',
    notDetermined: 'Batch konnte nicht ermittelt werden. IT Kontaktieren',
    notFound: (x: string) => `Batch ${x} nicht gefunden!`,
    captured: (x: string) => `Batch ${x} erfasst.`,
    employeeUnknown: 'Mitarbeiterkarte nicht erkannt.',
    /** 429: too many unknown cards scanned by this worker or from this address (decision 14). */
    tooManyCards: 'Zu viele unbekannte Mitarbeiterkarten. Bitte in einigen Minuten erneut versuchen.',
    assigned: (batch: string, name: string) => `Batch ${batch} an ${name} übergeben.`,
    label: 'Batch',
    done: 'Erfasst!',
    noteLabel: 'Lieferschein',
    employeeLabel: 'Mitarbeiterkarte',
    batchOfNote: (batch: string) => `Batch ${batch}`,
  },
  container: {
    chooseOption: 'Option auswählen!',
    captured: (container: string, batch: string) => `Batch ${batch} auf ${container} erfasst.`,
    gls: 'GLS',
    dhl: 'DHL',
    glsProd: 'GLS Prod',
    diakonie: 'Diakonie',
    wechselbruecke: 'Wechselbrücke',
    batchLabel: 'Batch',
    change: 'Andere Option',
  },
  transporter: {
    kennzeichenMissing: 'Kennzeichen fehlt!',
    plombeMissing: 'Plombe fehlt!',
    containerMissing: 'Wechselbrücke fehlt!',
    captured: (kennzeichen: string) => `Transporter ${kennzeichen} erfasst.`,
    kennzeichen: 'Kennzeichen',
    fill: 'Füllstand',
    plombe: 'Plombe',
    container: 'Wechselbrücke',
    submit: 'Erfassen',
  },
  paketinhalt: {
    deliveryNoteNotFound: (x: string) => `Lieferschein ${x} kann nicht gefunden werden.`,
    noContent: 'Lieferschein hat keinen Inhalt. Bitte an die IT wenden.',
    /** SPEC §5's 'wurde schon gescannt', after the article it is about (issue 36.9: a burst left it unsaid). */
    alreadyScanned: (nummer: string, name: string) => `${nummer} ${name} wurde schon gescannt`,
    notInDeliveryNote: 'Artikel nicht im Lieferschein enthalten',
    maxReached: (x: string) => `Maximale Menge für Artikel ${x} erreicht`,
    itemNotInNote: (x: string) => `ArtikelNr/EAN: ${x} nicht im Lieferschein vorhanden.`,
    /** An item scan that is another delivery note's number: the 404 also carries `lieferschein`. */
    otherNoteScanned: (belegnr: string) =>
      `Lieferschein ${belegnr} gescannt – zu diesem Lieferschein wechseln?`,
    /** An item scan that is the number of the note being packed. */
    ownNoteScanned: 'Das ist der Lieferschein, der gerade gepackt wird – bitte Artikel scannen.',
    itemNrMismatch: 'Artikelnummer in Adresse und Daten passen nicht zusammen.',
    warenpostInternational: 'Warenpost International Premium!',
    warenpostNational: 'Warenpost National!',
    customsPapers: 'Es werden Zollpapiere benötigt!',
    engraving: 'Enthält Gravurartikel!',
    scanAllPositions: 'Bitte alle Positionen scannen!',
    klaerfallTitle: 'Achtung!',
    klaerfallWrite: 'Klärfallzettel schreiben!',
    cheatRefused: 'Dieser Code ist nicht gültig.',
    /** 403: the right cheat code, scanned by a login below schichtleitung (DESIGN §9). */
    cheatNeedsLead: 'Den Abkürzungscode darf nur die Schichtleitung scannen.',
    /** 429: too many wrong cheat codes, or item scans matching nothing while a cheat code is set (decision 14). */
    tooManyCodes: 'Zu viele unbekannte Codes. Bitte in einigen Minuten erneut versuchen.',
    noteLabel: 'Lieferschein',
    itemLabel: 'Artikel scannen',
    klaerfall: 'Klärfall',
    klaerfallBody: 'Lieferschein als Klärfall markieren? Das Paket wird nicht versendet.',
    klaerfallConfirm: 'Klärfall melden',
    /** 409: the note waits for the shift lead (decision 20); also its item scans, cheat and cartons. */
    klaerfallOpen: 'Lieferschein hat einen offenen Klärfall!',
    /** 409: the shift lead closed the note's Klärfall as 'Erledigt': it is not packed (decision 20). */
    klaerfallClosed: 'Lieferschein ist als Klärfall erledigt und wird nicht gepackt.',
    cancel: 'Abbrechen',
    continue: 'Weiter',
    nummer: 'Nummer',
    herstellernummer: 'Herst.-Nr.',
    name: 'Name',
    ean: 'EAN',
    lsmenge: 'Soll',
    pemenge: 'Ist',
    confirmAmountTitle: 'Menge bestätigen',
    confirmAmountBody: (amount: number, nummer: string) => `${amount} × ${nummer} im Paket?`,
    confirmAmount: 'Bestätigen',
    /** Under the scan field after each counted item: the line it counted (it may lie below the screen). */
    lastCounted: (nummer: string) => `Gezählt: ${nummer}`,
    lastCountedAmount: (ist: number, soll: number) => `${ist} von ${soll}`,
    complete: 'Alle Positionen gescannt.',
    otherNote: 'Anderer Lieferschein',
    /** The note was picked completely before packing (Kommissionierung). */
    picked: (name: string) => `Kommissioniert von ${name}`,
    /**
     * The note was not picked completely (issue 36): PACK_UNPICKED=book (the default) books the stock out as
     * the items are scanned; the lines still not picked are named.
     */
    notPicked: 'Nicht kommissioniert – der Bestand wird beim Packen ausgebucht.',
    /** In a line's Ist cell: pieces of it that never left a location (not picked, not packed yet). */
    notPickedLine: (n: number) => `${n} nicht kommissioniert`,
    /** After 'Bitte alle Positionen scannen!' when open lines were not picked: which, and how many. */
    notPickedLines: (lines: string) => `Nicht kommissioniert: ${lines}.`,
    /** 409 with PACK_UNPICKED=refuse: the note must be picked before it is packed. */
    notPickedRefused: (belegnr: string) =>
      `Lieferschein ${belegnr} ist nicht kommissioniert. Bitte zuerst kommissionieren.`,
    switchTitle: 'Lieferschein wechseln?',
    switchConfirm: 'Wechseln',
  },
  kartonagen: {
    noCartons: 'Projekt hat keine Kartonagen zugewiesen. Bitte an die IT wenden.',
    notInProject: (id: number) => `Kartonage ${id} gehört nicht zum Projekt dieses Lieferscheins.`,
    idMismatch: 'Lieferschein in Adresse und Daten passen nicht zusammen.',
    saved: 'Kartonagen gespeichert!',
    save: 'Speichern',
    countThenSave: 'Kartonagen mit + und − zählen, dann „Speichern“ antippen.',
    dimensions: (h: number, w: number, d: number) => `${w} × ${d} × ${h} mm`,
    image: (name: string) => `Bild von ${name}`,
    close: 'Schließen',
  },
  paketausgang: {
    trackingMismatch: (x: string) =>
      `Trackingnummer ${x} stimmt nicht mit Lieferschein überein oder ist nicht vorhanden.`,
    trackingNotFound: (x: string) => `Trackingnummer ${x} kann nicht gefunden werden.`,
    tracking: 'Trackingnummer',
    captured: 'Erfasst!',
    compareFor: (belegnr: string) => `Paket für Lieferschein ${belegnr} scannen`,
    carrierImage: (carrier: string) => `Versanddienstleister ${carrier}`,
  },
  retoure: {
    tracking: 'Trackingnummer',
    captured: 'Retoure erfasst!',
    recorded: (tracking: string) => `Retoure ${tracking} erfasst.`,
  },
  wmsretoure: {
    amountInvalid: 'Menge korrigieren!',
    chargeMissing: 'Charge fehlt!',
    mhdMissing: 'MHD fehlt!',
    notLhm: 'Dieser Lagerplatz ist kein Ladungsträger (LHM).',
    booked: (amount: number, nummer: string, lhm: string) => `${amount} × ${nummer} auf ${lhm} gebucht.`,
    article: 'Artikel',
    charge: 'Charge',
    mhd: 'MHD',
    mhdHint: 'TT.MM.JJJJ, TTMMJJ oder JJJJ-MM-TT',
    mhdInvalid: 'MHD ungültig. Bitte als TT.MM.JJJJ eingeben.',
    lhm: 'LHM',
    amount: 'Menge',
    quality: 'Qualität',
    needsCharge: 'Charge nötig',
    needsMhd: 'MHD nötig',
    submit: 'Buchen',
    confirmTitle: 'Retoure buchen',
    confirmBody: (amount: number, nummer: string, lhm: string) => `${amount} × ${nummer} auf ${lhm} buchen?`,
    confirm: 'Buchen',
    cancel: 'Abbrechen',
    success: 'Gebucht!',
    lhmMissing: 'Bitte ein LHM scannen.',
    articleMissing: 'Bitte einen Artikel scannen.',
  },
  zollpaket: {
    newCartHeading: 'Neuen Wagen erstellen',
    newCart: 'Neu',
    pressNew: 'bitte zuerst „Neu“ antippen.',
    scanCartHeading: 'Wagen scannen',
    cartPlaceholder: 'Wagennummer',
    scanCart: 'Wagen scannen',
    scanNoteHeading: 'Lieferschein scannen',
    cartLabel: (name: string) => `Wagen: ${name}`,
    notePlaceholder: 'Lieferschein',
    close: 'Abschließen',
    scan: 'Scannen',
    confirmTitle: 'Bitte einmal bestätigen',
    confirmBody: 'Wagen ist voll gepackt, eingewickelt und kann wirklich abgeschlossen werden?',
    cancel: 'Abbrechen',
    confirmButton: 'Bestätigen',
    captured: 'Erfasst!',
    cartClosed: 'Wagen abgeschlossen!',
    cartStillOpen: (name: string) => `Wagen ${name} ist noch offen, bitte abschließen!`,
    cartNotFound: (x: string) => `Wagen ${x} nicht gefunden!`,
    cartNotOpen: (x: string) => `Wagen ${x} ist nicht offen.`,
    cartAlreadyClosed: (x: string) => `Wagen ${x} ist schon abgeschlossen.`,
    noteOnCart: (note: string, cart: string) => `Lieferschein ${note} liegt schon auf Wagen ${cart}.`,
    noteMissing: 'Bitte einen Lieferschein scannen.',
    historyHeading: 'Gescannte Pakete',
    historyTime: 'Zeit',
    historyNote: 'Lieferschein',
    historyCart: 'Wagen',
  },
  camera: {
    // Not "Mit Kamera scannen": it would hold the name of Zollpaket's 'Scannen' button beside it.
    open: 'Kamera-Scan',
    hint: 'Code ins Bild halten',
    starting: 'Kamera startet …',
    cancel: 'Abbrechen',
    denied:
      'Kamera nicht erlaubt. Bitte den Kamerazugriff für diese Seite in den Browser-Einstellungen erlauben.',
    missing: 'Keine Kamera gefunden.',
    busy: 'Die Kamera wird gerade von einer anderen App benutzt.',
    insecure: 'Die Kamera geht nur über eine sichere Verbindung (https://). Bitte die IT fragen.',
    failed: 'Kamera-Scan nicht möglich. Bitte mit dem Scanner oder der Tastatur eingeben.',
    loadFailed: 'Kamera-Scan konnte nicht geladen werden. Bitte die Verbindung prüfen.',
  },
  /**
   * A GS1 code's problems, each naming the field (AI) it is about (src/contract/gs1.ts). A broken key (GTIN,
   * SSCC) refuses the code; any other broken or unknown field is left out and named, the rest is used.
   */
  gs1: {
    unreadable: 'GS1-Code nicht lesbar. Bitte erneut scannen.',
    unknownAi: (ai: string) => `GS1-Code: unbekannter Datenbezeichner (${ai}).`,
    tooShort: (ai: string) => `GS1-Code: Feld (${ai}) ist zu kurz.`,
    tooLong: (ai: string) => `GS1-Code: Feld (${ai}) ist zu lang.`,
    empty: (ai: string) => `GS1-Code: Feld (${ai}) ist leer.`,
    notDigits: (ai: string) => `GS1-Code: Feld (${ai}) darf nur Ziffern enthalten.`,
    badCharacters: (ai: string) => `GS1-Code: Feld (${ai}) enthält unzulässige Zeichen.`,
    checkDigit: (ai: string) => `GS1-Code: Prüfziffer in Feld (${ai}) falsch. Bitte erneut scannen.`,
    badDate: (ai: string) => `GS1-Code: Datum in Feld (${ai}) ungültig.`,
    badTime: (ai: string) => `GS1-Code: Uhrzeit in Feld (${ai}) ungültig.`,
    badValue: (ai: string) => `GS1-Code: Wert in Feld (${ai}) ungültig.`,
    twice: (ai: string) => `GS1-Code: Feld (${ai}) steht zweimal mit verschiedenen Werten.`,
    notWith: (ai: string, other: string) => `GS1-Code: Feld (${ai}) darf nicht mit Feld (${other}) stehen.`,
    /** `needs('10', [['01'], ['02']])`: 'GS1-Code: Feld (10) braucht Feld (01) oder (02).' */
    needs: (ai: string, alternatives: readonly (readonly string[])[]) => {
      const named = alternatives.map((all) => all.map((a) => `(${a})`).join(' und '));
      const list = named.length > 1 ? `${named.slice(0, -1).join(', ')} oder ${named.at(-1)}` : named[0];
      return `GS1-Code: Feld (${ai}) braucht Feld ${list}.`;
    },
    misplaced: (ai: string) => `GS1-Code: Feld (${ai}) steht im Link an falscher Stelle.`,
  },
} as const);

/** Every text: the first download's (coreTexts) with every screen's and the server's. */
export const texts = {
  ...coreTexts,
  ...ownTexts,
  errors: joined(coreTexts.errors, ownTexts.errors),
  settings: joined(coreTexts.settings, ownTexts.settings),
  outbox: joined(coreTexts.outbox, ownTexts.outbox),
};

/** A field's name on the screen; a field may also have its own text for a scan that is too long. */
export type FieldLabel = string | { readonly label: string; readonly tooLong: string };

/** The batch fields: SPEC's own text for a batch too long ('Achtung - Batch hat nur sechs Ziffern!'). */
const batchField = { label: texts.batch.label, tooLong: texts.batch.tooLong } as const;

/**
 * The German name of every input field of the scanner calls, as the worker sees it on the screen: a server
 * message names a field by it ('Lagerplatz ist zu lang: …'), never by the API's key (`code`). `byKey` is a
 * key's meaning; `byEndpoint` overrides it on the one call where the same key means something else.
 * src/contract/input-errors.test.ts fails for a field of any scanner call without a label here. A catalogue of
 * its own (`localized`): a label is read when a message is made, in the caller's language.
 */
export const fieldLabels = localized('fieldLabels', {
  byKey: {
    // Lookups (Inventur, Umbuchung, Artikel umlagern, Nachschub, Lagerplatzprüfung, WMS-Retoure)
    number: texts.inventur.article,
    code: texts.inventur.location,
    lpId: texts.inventur.location,
    articleId: texts.inventur.article,
    /** The article a Zählauftrag counts (issue 42). */
    artikelId: texts.inventur.article,
    lhm: texts.wmsretoure.lhm,
    // Bookings
    lp: texts.inventur.location,
    article: texts.inventur.article,
    amount: texts.inventur.amount,
    from: texts.umbuchung.from,
    to: texts.umbuchung.to,
    lagerplatz: texts.inventur.location,
    charge: texts.wmsretoure.charge,
    mhd: texts.wmsretoure.mhd,
    quality: texts.wmsretoure.quality,
    // Capture
    batch: batchField,
    belegnr: texts.paketinhalt.noteLabel,
    lieferschein: texts.paketinhalt.noteLabel,
    qrcode: texts.batch.employeeLabel,
    container: texts.transporter.container,
    kennzeichen: texts.transporter.kennzeichen,
    plombe: texts.transporter.plombe,
    value: texts.transporter.fill,
    tracking: texts.paketausgang.tracking,
    // Packing station: `id` is the delivery note's; the rest comes from the note the screen loaded.
    id: texts.paketinhalt.noteLabel,
    itemNr: texts.inventur.article,
    eu: 'EU-Versand',
    user_id: 'Mitarbeiter',
    paketinhalt: texts.menu.paketinhalt,
    versandart: 'Versandart',
    kartonagen: texts.menu.kartonagenerfassung,
    packageid: 'Kartonage',
    // Kommissionierung: `id` is the delivery note's, as at the packing station
    positionId: 'Position',
    lagerplatzId: texts.inventur.location,
    menge: texts.inventur.amount,
    // Kommissionierwagen (issue 41): the trip with the cart, the compartment scanned, the put reversed
    fahrtId: 'Wagen',
    fach: 'Fach',
    bewegungId: 'Entnahme',
    // Login; the worker's own language (Einstellungen, decision 35)
    language: 'Sprache',
    stechuhrdevice: texts.batch.employeeLabel,
    username: texts.login.username,
    password: texts.login.password,
    // Zollpaket
    wagennummer: texts.zollpaket.cartPlaceholder,
    close: texts.zollpaket.close,
    // Leitstand (issue 20): a period, a search, a replenishment minimum
    tage: 'Zeitraum in Tagen',
    suche: 'Suche',
    artikel: texts.inventur.article,
    minimum: texts.nachschub.minimum,
    klaerfallId: 'Klärfall',
    kommentar: 'Kommentar',
    // Leitstand, admin pages: users, integration tokens, the import upload; the audit list's pages
    name: 'Name',
    role: 'Rolle',
    newCard: 'Neue Karte',
    active: 'Aktiv',
    kind: 'Importart',
    fileName: 'Dateiname',
    content: 'Datei',
    before: 'Seite',
    limit: 'Einträge je Seite',
    // Leitstand, Bestand and the movement journal's filters (a search, a location, who, which kind, when)
    q: 'Suche',
    benutzer: 'Benutzer',
    art: 'Art',
    von: 'Von',
    bis: 'Bis',
    cursor: 'Seite',
    // Wareneingang (issue 22): the receipt, its line, the confirmed over-delivery
    wareneingang: 'Wareneingang',
    position: 'Position',
    mehrmenge: 'Mehr als erwartet',
    // Labels (issue 21): which records, the label size, the ZPL resolution, a location label's arrow
    codes: 'Codes',
    groesse: 'Etikettengröße',
    dpi: 'Auflösung (dpi)',
    pfeil: 'Pfeil',
    karten: 'Ausweiskarten',
    format: 'Format',
    printer: 'Drucker',
    host: 'Adresse',
    port: 'Port',
    // Rollende Kommissionierung in the Leitstand (issue 41): a pick profile's filters, a note of a wave
    maxPositionen: 'Höchstens Positionen',
    eingangVor: 'Eingegangen vor',
    proWagen: 'Lieferscheine je Wagen',
    lieferscheinId: texts.paketinhalt.noteLabel,
    // Permanente Inventur in the Leitstand (issue 42): a count plan's fields, the task list's filters
    klasse: 'ABC-Klasse',
    faelligInTagen: 'Fällig in Tagen',
    benutzerId: 'Benutzer',
    status: 'Status',
    plan: 'Zählplan',
    platz: 'Lagerplatz',
    faelligBis: 'Fällig bis',
    seite: 'Seite',
  },
  byEndpoint: {
    /** The cheat code is scanned into the item field. */
    packageContentCheat: { code: texts.inventur.article },
    /** Artikel umlagern and Nachschub: source and target of one article. */
    moveArticle: { from: texts.nachschub.scanSource, to: texts.umlagern.target },
    /** SPEC's field name: it carries the batch of the delivery note. */
    assignBatch: { lieferschein: batchField },
    /** WMS-Retoure books onto a load carrier. */
    bookWmsRetoure: { lagerplatz: texts.wmsretoure.lhm },
    /** The handheld's Zählauftrag (issue 42): a count task by id. */
    zaehlauftragPlatz: { id: 'Zählauftrag' },
    zaehlauftragZaehlung: { id: 'Zählauftrag' },
    zaehlauftragLeer: { id: 'Zählauftrag' },
    zaehlauftragFertig: { id: 'Zählauftrag' },
    zaehlauftragAbbrechen: { id: 'Zählauftrag' },
    /** The Leitstand's customs cart, by its id. */
    zollwagenAbschliessen: { id: texts.zollpaket.historyCart },
    /** The Leitstand's user page: a user by id, a new one's username (the login screen says 'Name'). */
    createUser: { username: 'Benutzername' },
    setUserRole: { id: 'Benutzer' },
    setUserLanguage: { id: 'Benutzer' },
    setUserPassword: { id: 'Benutzer', password: 'Neues Passwort' },
    setUserActive: { id: 'Benutzer' },
    newUserCard: { id: 'Benutzer' },
    /** Labels: which kind of label; a printer by id. */
    drucken: { kind: 'Etikettenart' },
    druckerAendern: { id: 'Drucker' },
    druckerEntfernen: { id: 'Drucker' },
    /** Rollende Kommissionierung: a profile, a wave by id. */
    kommissionierProfilAendern: { id: 'Profil' },
    kommissionierProfilEntfernen: { id: 'Profil' },
    welleFreigeben: { id: 'Profil' },
    welleLieferscheine: { id: 'Welle' },
    welleHerausnehmen: { id: 'Welle' },
    /** Permanente Inventur: a count plan, a count task by id; a plan's range ends. */
    zaehlplanAnlegen: { von: 'Lagerplatz von', bis: 'Lagerplatz bis', tage: 'Tage' },
    zaehlplanAendern: { id: 'Zählplan', von: 'Lagerplatz von', bis: 'Lagerplatz bis', tage: 'Tage' },
    zaehlplanEntfernen: { id: 'Zählplan' },
    zaehlauftraegeAnlegen: { id: 'Zählplan' },
    zaehlauftragZuweisen: { id: 'Zählauftrag' },
    zaehlauftragVerwerfen: { id: 'Zählauftrag' },
    differenzBuchen: { id: 'Zählauftrag' },
    differenzNachzaehlen: { id: 'Zählauftrag' },
    /** Permanente Inventur's numbers (issue 42): a class's settings, the coverage's year. */
    klasseAendern: {
      klasse: 'ABC-Klasse',
      frequenzTage: 'Zählen alle … Tage',
      toleranzStueck: 'Toleranz Stück',
      toleranzProzent: 'Toleranz %',
    },
    abdeckung: { jahr: 'Jahr' },
  },
} as const satisfies {
  byKey: Record<string, FieldLabel>;
  byEndpoint: Record<string, Record<string, FieldLabel>>;
});
