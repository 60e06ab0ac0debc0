/**
 * The longest text each kind of scan may be: the contract's schemas (scanText) and the web app's fields
 * (refused at the scan) read the same numbers. No zod here, so the first bundle can import it.
 */
export const scanLimits = {
  /** Any code: article, location, delivery note, LHM. */
  code: 200,
  batch: 50,
  container: 100,
  tracking: 100,
  cart: 50,
  /** An employee card's text (the demo card has 225 characters). */
  card: 2000,
} as const;

/** Control characters never belong in a scan, except GS (29), the GS1 group separator. */
export function hasForbiddenControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if ((code < 32 && code !== 29) || code === 127) return true;
  }
  return false;
}

/** A batch number has at most this many characters ('Achtung - Batch hat nur sechs Ziffern!'). */
export const BATCH_NUMBER_MAX = 6;
