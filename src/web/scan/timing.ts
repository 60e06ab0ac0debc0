/** A keyboard wedge types a code's keys at most this far apart; a person types slower. */
export const BURST_GAP_MS = 50;
/**
 * This many keys that close together, then Tab, are a scanner's (a person's Tab moves on); so are this many
 * digits, then Enter or Tab, in an amount field (an article number, not a count: an amount is typed).
 */
export const BURST_MIN_KEYS = 4;
/**
 * In a field a person types into (a name, a password), a burst is taken for a scanner's only when this long
 * and ended by Enter or Tab within the burst: a fast typist's short word is not (a card or a code is longer).
 */
export const SCANNER_MIN_KEYS = 8;
/** A burst collected for a target without a field ends at Enter or Tab, or when no key came for this long. */
export const COLLECT_IDLE_MS = 300;
