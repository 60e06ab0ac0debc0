/**
 * A scan field's own record of the burst under way (its scanner's Tab, `ui/scan-field.tsx`), judged by the one
 * rule in `burst.ts`. A module of its own so that the first download (the router) does not carry it.
 */
import { isScannersBurst, withinBurst } from './burst.ts';
import { BURST_MIN_KEYS } from './timing.ts';

/** The keys of the burst under way in one place (a field), as they come. */
export interface KeyBurst {
  /** A character key pressed at `at`: it goes on the burst, or starts a new one after a pause. */
  add(at: number): void;
  /** An Enter or Tab pressed at `at` ends a scanner's burst of at least `minKeys` keys. */
  endsScan(at: number, minKeys?: number): boolean;
}

export function createKeyBurst(): KeyBurst {
  let pressed: number[] = [];
  return {
    add(at) {
      const last = pressed[pressed.length - 1];
      if (last === undefined || !withinBurst(last, at)) pressed = [];
      pressed.push(at);
    },
    endsScan(at, minKeys = BURST_MIN_KEYS) {
      return isScannersBurst(pressed, at, minKeys);
    },
  };
}
