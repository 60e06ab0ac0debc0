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
 * Which control characters (C0, U+0000–U+001F, and DEL) a text field refuses; NUL always (PostgreSQL cannot
 * hold it in text, and a NUL in a login answered a 500). `scan`: all but GS (U+001D), the GS1 group separator
 * a scanner types inside a code. `typed`: all (a name typed by a person). `secret`: NUL only — a password is
 * hashed, never stored or shown, and refusing a character `npm run user` accepted would lock its user out.
 */
export type ControlRule = 'scan' | 'typed' | 'secret';

/** Whether the text holds a control character the rule refuses (a scan: any but GS, ASCII 29). */
export function hasForbiddenControlCharacter(text: string, rule: ControlRule = 'scan'): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0) return true;
    if (rule === 'secret') continue;
    if ((code < 32 && (code !== 29 || rule === 'typed')) || code === 127) return true;
  }
  return false;
}
