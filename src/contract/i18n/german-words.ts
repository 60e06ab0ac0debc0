/**
 * German words that no other language of the handheld shares (issue 43: no German left in a translation). Each
 * is from the German texts a worker reads; left out on purpose: words that are English, Polish, Romanian,
 * Turkish or Ukrainian too (Paket is Turkish, Kamera and Projekt Polish, Code, Scanner, Name, Position, Test,
 * Charge English, leer is English, Profil everywhere), product terms kept as they are (Lagerscanner, EAN,
 * GS1, SSCC, LHM, MHD, Batch) and short words a code or an abbreviation may spell. A translator keeping a
 * German word on purpose takes it off this list and says why here.
 */
export const GERMAN_WORDS = [
  // the things on the floor
  'Lagerplatz',
  'Lagerplätze',
  'Artikel',
  'Lieferschein',
  'Retoure',
  'Wechselbrücke',
  'Menge',
  'Fehlmenge',
  'Stück',
  'Wareneingang',
  'Klärfall',
  'Nachschub',
  'Zählauftrag',
  'Zählung',
  'Inventur',
  'Bestand',
  'Kartonagen',
  'Kartonage',
  'Etikett',
  'Etiketten',
  'Drucker',
  'Wagen',
  'Fach',
  'Fächer',
  'Mitarbeiterkarte',
  'Trackingnummer',
  'Kennzeichen',
  'Plombe',
  'Ladungsträger',
  'Gerät',
  'Einstellungen',
  'Passwort',
  // what the worker does and is told
  'scannen',
  'gescannt',
  'gefunden',
  'gebucht',
  'buchen',
  'gezählt',
  'kommissioniert',
  'umlagern',
  'umgebucht',
  'gespeichert',
  'Speichern',
  'drucken',
  'gedruckt',
  'gepackt',
  'erledigt',
  'bestätigen',
  'eingeben',
  'antippen',
  'versuchen',
  'erneut',
  'Abbrechen',
  'Zurück',
  'Fertig',
  'Weiter',
  'Anmelden',
  'abmelden',
  'Achtung',
  'Fehler',
  'Verbindung',
  'ungültig',
  'erwartet',
  'fehlt',
  'zuerst',
  'höchstens',
  'mindestens',
  'Ziffern',
  'Zeichen',
  'vorhanden',
  'möglich',
  'Nächster',
  'Falscher',
  // the small words of a German sentence
  'nicht',
  'bitte',
  'und',
  'oder',
  'schon',
  'noch',
  'nur',
  'wird',
  'werden',
  'kein',
  'keine',
  'einen',
  'diesem',
] as const;

const lowerCase = new Set<string>(GERMAN_WORDS.map((word) => word.toLowerCase()));

/** Sample arguments a text function is called with: a text first (as check.ts does), a number if that fails. */
const samples = [(i: number) => `«${i}»`, () => 2];

/**
 * Every German word of the list in a catalogue's texts, as `key: „word“` — whole words, any case; a function
 * is read with sample arguments (a scanned value shows as «0», no word). A text a function cannot make with
 * either kind of sample (one taking an object) is read as far as German's own check reads it: not at all.
 */
export function germanWordsIn(catalogue: object, path: string[] = []): string[] {
  const found: string[] = [];
  for (const [key, value] of Object.entries(catalogue)) {
    const here = [...path, key];
    if (value !== null && typeof value === 'object') {
      found.push(...germanWordsIn(value, here));
      continue;
    }
    const text = typeof value === 'function' ? sampleText(value as (...params: unknown[]) => unknown) : value;
    for (const word of String(text ?? '').match(/\p{L}+/gu) ?? [])
      if (lowerCase.has(word.toLowerCase())) found.push(`${here.join('.')}: „${word}“`);
  }
  return found;
}

function sampleText(text: (...params: unknown[]) => unknown): string | undefined {
  for (const sample of samples) {
    try {
      return String(text(...Array.from({ length: text.length }, (_, i) => sample(i))));
    } catch {
      // the next kind of sample
    }
  }
  return undefined;
}
