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

/**
 * The GS1 group separator (ASCII 29) that ends a variable-length field. Here, not in gs1.ts, so that the first
 * bundle (scan settings) does not pull in the GS1 reader and its AI table.
 */
export const GROUP_SEPARATOR = '\u001d';

/** Control characters never belong in a scan, except GS (29), the GS1 group separator. */
export function hasForbiddenControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if ((code < 32 && text[i] !== GROUP_SEPARATOR) || code === 127) return true;
  }
  return false;
}
