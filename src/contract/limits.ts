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

/**
 * The most of one article one location may hold, all its charges and MHDs together. Stock amounts are 32-bit
 * integers in the database (at most 2,147,483,647, also in the sums per location); a booking that would go
 * above this is refused. It stays below the integer limit by more than its own size, so even two bookings
 * that each open a new slot at the same moment (which row locks cannot see) cannot reach it.
 */
export const MAX_STOCK_PER_LOCATION = 1_000_000_000;

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

/** A batch number has at most this many characters ('Achtung - Batch hat nur sechs Ziffern!'). */
export const BATCH_NUMBER_MAX = 6;

/**
 * The most one booking, count or return may name (the contract's `amount()` and the WMS return): 1,000,000.
 * The web app's amount fields read it too, so a worker cannot type what the server refuses.
 */
export const AMOUNT_MAX = 1_000_000;

/**
 * Packing (SPEC §4): a line whose delivery amount is above this is completed by one confirmed scan instead of
 * one scan per piece. The packing screen asks to confirm; the server sets the scanned amount to the delivery
 * amount.
 */
export const CONFIRM_WHOLE_LINE_ABOVE = 5;

/**
 * Labels (etiketten.ts, etiketten-druck.ts): the most labels one location range may print, what a worker may
 * print from the handheld (one record's label, a few at most), and the most one print job sends to a printer.
 * Here, not there: every language's texts name them, and a catalogue must not bring the labels' contract.
 */
export const MAX_RANGE = 20_000;
export const HANDHELD_MAX = 10;
export const MAX_PRINT = 1000;
