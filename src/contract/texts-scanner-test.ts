import { localized } from './i18n/localized.ts';

/**
 * The texts of the scanner self-test and its printed test sheet (German, as staff read them). Apart from
 * texts.ts because only those two screens need them: they stay out of the bundle every scanner loads first.
 */
export const scannerTestTexts = localized('scannerTest', {
  sheetIntro:
    'Ausdrucken, dann unter Einstellungen → „Scanner testen“ die drei Codes scannen (Reihenfolge egal).',
  print: 'Drucken',
  intro:
    'Den gedruckten Testbogen nehmen und die drei Codes in dieses Feld scannen. Das Ergebnis steht darunter.',
  field: 'Hier scannen',
  codes: {
    code128: 'Code 1: Code 128 mit Sonderzeichen',
    gs1: 'Code 2: GS1-128 mit Gruppentrenner',
    qr: 'Code 3: langer QR-Code',
  },
  checks: {
    code128: 'Prüft das Tastaturlayout: y/z und @ " - / _ # ; : \' [ ]',
    gs1: 'Prüft den Gruppentrenner (GS) zwischen Charge (10) und MHD (17).',
    qr: (length: number) => `Prüft, ob lange Codes vollständig ankommen (${length} Zeichen).`,
  },
  notScanned: 'Noch nicht gescannt.',
  ok: '✓ In Ordnung',
  received: (text: string) => `Empfangen: ${text}`,
  unknownCode: 'Kein Code des Testbogens erkannt.',
  verdictOk: '✓ Der Scanner ist richtig eingestellt.',
  verdictPending: (count: number) => `Noch ${count} von 3 Codes scannen.`,
  verdictProblems: 'Bitte im Scanner ändern und den Test wiederholen:',
  take: 'Übernehmen',
  restart: 'Test neu starten',
  findings: {
    terminatorTab: 'Der Scanner beendet den Code mit Tab statt mit Enter.',
    terminatorNone: 'Nach dem Code kommt kein Enter.',
    terminatorAdvice: 'Suffix im Scanner auf Enter (CR) stellen.',
    slow: (medianMs: number, maxMs: number) =>
      `Die Zeichen kommen langsam: ${medianMs} ms Abstand im Mittel, längste Pause ${maxMs} ms.`,
    stalls: (maxMs: number) => `Die Übertragung stockt: längste Pause ${maxMs} ms.`,
    timingAdvice:
      'Zeichenverzögerung (Inter-Character Delay) im Scanner auf 0 stellen; bei Bluetooth die schnellste Übertragung wählen.',
    layout: (pairs: string) => `Zeichen kommen vertauscht an: ${pairs}.`,
    layoutAdviceDe: 'Tastaturlayout des Scanners auf Deutsch (DE) stellen – wie das Gerät.',
    layoutAdviceUs:
      'Tastaturlayout des Scanners auf Englisch (US) stellen – wie das Gerät – oder das Gerät auf Deutsch umstellen.',
    caseSwapped: (pairs: string) => `Groß- und Kleinbuchstaben sind vertauscht: ${pairs}.`,
    caseAdvice:
      'Feststelltaste (Caps Lock) am Gerät ausschalten oder im Scanner „Groß-/Kleinschreibung unverändert“ einstellen.',
    pair: (expected: string, got: string) =>
      got === '' ? `„${expected}“ fehlt` : `„${expected}“ als „${got}“`,
    gsLost: 'Der Gruppentrenner (GS) zwischen Charge und MHD fehlt.',
    gsLostCtrl: 'Der Gruppentrenner (GS) kommt als Tastenkombination Strg+] und geht dabei verloren.',
    gsLostUnidentified:
      'Der Gruppentrenner (GS) kommt als Taste ohne Zeichen („Unidentified“) und geht verloren.',
    gsLostAdvice:
      'Im Scanner den Gruppentrenner (GS, ASCII 29) durch ein Ersatzzeichen ersetzen lassen (z. B. <GS>) und es unter Einstellungen bei „Gruppentrenner (GS) kommt als“ eintragen.',
    gsAs: (text: string) => `Der Gruppentrenner (GS) kommt als „${text}“.`,
    gsAsAdvice: (text: string) => `„${text}“ bei „Gruppentrenner (GS) kommt als“ eintragen.`,
    prefix: (text: string) => `Vor dem Code kommt „${text}“.`,
    prefixAdvice: (text: string) =>
      `Präfix im Scanner abschalten oder „${text}“ als Präfix des Scanners eintragen.`,
    suffix: (text: string) => `Nach dem Code kommt „${text}“.`,
    suffixAdvice: (text: string) =>
      `Suffix im Scanner auf nur Enter (CR) stellen oder „${text}“ als Suffix des Scanners eintragen.`,
    codeId: (text: string) => `Vor dem Code kommt die Code-Kennung „${text}“.`,
    codeIdAdvice: 'Im Scanner „Code-ID / AIM-ID senden“ ausschalten.',
    characters: (missing: number, duplicated: number, other: number) =>
      `${[
        missing > 0 ? `${missing} Zeichen fehlen` : '',
        duplicated > 0 ? `${duplicated} Zeichen doppelt` : '',
        other > 0 ? `${other} Zeichen falsch oder zu viel` : '',
      ]
        .filter((part) => part !== '')
        .join(', ')}.`,
    charactersAdvice:
      'Im Scanner „Zeichen als Tastaturereignisse senden“ einschalten (Zebra DataWedge: „Send characters as events“) oder eine kleine Zeichenverzögerung (5–10 ms) einstellen.',
  },
} as const);
