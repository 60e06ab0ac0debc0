import { GROUP_SEPARATOR } from '../../../contract/limits.ts';

/**
 * The scanner self-test's alignment: how a received text fits the expected one, character by character
 * (scanner-test.ts reads layout, case, group separator and framing problems from the differences). Its own
 * module as it is its own algorithm — an edit distance with a free prefix and suffix and a group separator
 * that matches whatever stands in its place.
 */

/** `i`: the expected character's index; `char` pairs it with a received one, equal or not. */
type Op =
  | { kind: 'char'; i: number; got: string }
  | { kind: 'missing'; i: number }
  | { kind: 'extra'; got: string; at: number }
  | { kind: 'gs'; got: string };

/** What one character too many, too few or different costs. */
export const EDIT = 100;
/** What the group separator arrived as costs almost nothing: it may be anything up to this long. */
const GS_SPAN_MAX = 8;
const GS_SPAN_CHAR = 1;
const DIAGONAL = -1;
const UP = -2;
const LEFT = -3;

/**
 * The received text's best fit to the expected one (edit distance, with anything before and after free —
 * that is a prefix or suffix — and the group separator matching whatever stands in its place). Returns
 * where the code starts and ends in the received text and the differences.
 */
export function align(
  expected: string,
  received: string,
): { cost: number; start: number; end: number; ops: Op[] } {
  const m = expected.length;
  const n = received.length;
  const cost = Array.from({ length: m + 1 }, () => new Float64Array(n + 1));
  // Per cell, how it was reached: DIAGONAL, UP (expected character missing), LEFT (received character
  // extra), or for a group separator the received index its stand-in starts at (≥ 0).
  const move = Array.from({ length: m + 1 }, () => new Int32Array(n + 1));
  for (let i = 1; i <= m; i++) {
    const e = expected[i - 1];
    const row = cost[i] as Float64Array;
    const above = cost[i - 1] as Float64Array;
    const moves = move[i] as Int32Array;
    for (let j = 0; j <= n; j++) {
      if (e === GROUP_SEPARATOR) {
        let best = Number.POSITIVE_INFINITY;
        let from = j;
        for (let k = j; k >= Math.max(0, j - GS_SPAN_MAX); k--) {
          const c = (above[k] as number) + (j - k) * GS_SPAN_CHAR;
          if (c < best) {
            best = c;
            from = k;
          }
        }
        row[j] = best;
        moves[j] = from;
        continue;
      }
      let best = (above[j] as number) + EDIT;
      let how = UP;
      if (j > 0) {
        const diagonal = (above[j - 1] as number) + (e === received[j - 1] ? 0 : EDIT);
        if (diagonal <= best) {
          best = diagonal;
          how = DIAGONAL;
        }
        const left = (row[j - 1] as number) + EDIT;
        if (left < best) {
          best = left;
          how = LEFT;
        }
      }
      row[j] = best;
      moves[j] = how;
    }
  }
  const last = cost[m] as Float64Array;
  let end = 0;
  // On a tie the fit reaching further: a stray character inside the code is an extra, not a suffix.
  for (let j = 1; j <= n; j++) if ((last[j] as number) <= (last[end] as number)) end = j;

  const ops: Op[] = [];
  let i = m;
  let j = end;
  while (i > 0) {
    const how = (move[i] as Int32Array)[j] as number;
    if (how >= 0) {
      ops.push({ kind: 'gs', got: received.slice(how, j) });
      j = how;
      i--;
    } else if (how === DIAGONAL) {
      ops.push({ kind: 'char', i: i - 1, got: received[j - 1] as string });
      i--;
      j--;
    } else if (how === UP) {
      ops.push({ kind: 'missing', i: i - 1 });
      i--;
    } else {
      ops.push({ kind: 'extra', got: received[j - 1] as string, at: j - 1 });
      j--;
    }
  }
  ops.reverse();
  return { cost: last[end] as number, start: j, end, ops };
}
