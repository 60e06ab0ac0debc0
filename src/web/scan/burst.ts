/**
 * Is this a scanner's burst or a person typing? Written once, here, for the router's live keys, for keys held
 * while an answer was on its way, and for a scan field's Tab (`../ui/scan-field.tsx`, through `key-burst.ts`).
 *
 * A keyboard wedge types a code's keys at most BURST_GAP_MS apart and ends it with Enter or Tab; a person types
 * slower. Times are when each key was pressed (an event's `timeStamp`; a held key's own time when it is typed
 * out again), never when a busy page got round to it.
 */
import { BURST_GAP_MS, BURST_MIN_KEYS } from './timing.ts';

/** A key pressed at `at` belongs to the same burst as the key pressed at `before`. */
export function withinBurst(before: number, at: number): boolean {
  return at - before <= BURST_GAP_MS;
}

/**
 * A burst of `keys` keys (each within a burst of the one before), then an Enter or Tab — `endInBurst`: within a
 * burst of the last key — was a scanner's: at least `minKeys` keys, the end in the burst. A person typing is far
 * slower; fewer keys are never taken for a scan (an amount of 1 to 3 digits typed fast stays an amount).
 */
export function endsScannersBurst(keys: number, endInBurst: boolean, minKeys: number): boolean {
  return keys >= minKeys && endInBurst;
}

/** Keys pressed at `pressed`, then an Enter or Tab at `endAt`: one burst, start to end, and a scanner's. */
export function isScannersBurst(
  pressed: readonly number[],
  endAt: number,
  minKeys: number = BURST_MIN_KEYS,
): boolean {
  const all = [...pressed, endAt];
  const oneBurst = all.every((at, i) => i === 0 || withinBurst(all[i - 1] as number, at));
  return oneBurst && endsScannersBurst(pressed.length, true, minKeys);
}
