/**
 * Key holding: while an answer is on its way, or a screen's code is loading, or the app has not started yet,
 * keys are held and typed out afterwards into the target of the state the answer leads to, with the time each
 * key was really pressed.
 *
 * Held keys are typed out a scan at a time (up to its Enter or Tab): the next waits until the screen has taken
 * the one before — the answer it started painted, or the next paint — and keys without an Enter or Tab at the
 * end wait until no key came for a moment, so a burst is never split between two targets nor glued to the
 * next (issue 36).
 */
import { withinBurst } from './burst.ts';
import type { PressedKey } from './fields.ts';
import { BURST_GAP_MS } from './timing.ts';

interface HeldKey extends PressedKey {
  /** When the router took it (`performance.now()`): how long ago the last held key came. */
  received?: number;
}

export interface Hold {
  /** Keys are held now: before the app started, while an answer is on its way, while held keys are typed out. */
  holding(): boolean;
  /** A key (or text without a key: each of its characters) to type out later. */
  push(key: string, at: number): void;
  holdKeys(): () => void;
  holdKeysWhile(answer: Promise<unknown>, field: Element, afterPaint: (go: () => void) => void): void;
  holdKeysUntil(answer: Promise<unknown>, afterPaint: (go: () => void) => void): void;
  /** Types out what is held (the app has started: `configure`). */
  replay(): void;
  /**
   * A tap on a button while keys are held or still being typed out: `go` (the tap again) runs once they are
   * typed out and what they did is on screen, and the answer is true — the caller stops the tap for now.
   * False when nothing is held: the tap goes on at once.
   */
  deferTap(go: () => void): boolean;
}

/**
 * `started`: the app has started (the router is configured) — until then every key is held. `paused`: routing
 * is paused (a desk page) — held keys are the browser's, typed before it opened. `typeScan` types one held
 * scan into the current target; `afterScreenChanged` runs `go` once what the screen did with it is on screen
 * (the app: after the next paint).
 */
export function createHold(
  started: () => boolean,
  paused: () => boolean,
  typeScan: (keys: PressedKey[], terminator: PressedKey | undefined) => void,
  afterScreenChanged: (go: () => void) => void,
): Hold {
  /** Answers on their way (holdKeys) and the keys that came meanwhile. */
  let inFlight = 0;
  /**
   * Held keys are being typed out, a scan at a time: keys that come meanwhile are held too, behind them, so
   * no scan overtakes another and none is typed into a screen that has not yet taken the one before.
   */
  let replaying = false;
  const held: HeldKey[] = [];
  /** Typed-out keys whose effect is not on screen yet (until the next paint after the last). */
  let settling = false;
  /** Taps that came while keys were held (`deferTap`), in their order. */
  const taps: (() => void)[] = [];

  /**
   * Nothing held, nothing on its way: once the screen has shown what the typed-out keys did, the taps that
   * came meanwhile go on — a worker who scans and taps 'Erfassen' at once means the scan, then the tap.
   */
  function settle(): void {
    if (inFlight > 0 || replaying || held.length > 0) return;
    settling = true;
    afterScreenChanged(() => {
      settling = false;
      // Held again before the paint: taps wait for that hold's end, which settles again (a replay's end, or a
      // release with nothing held and taps waiting). Left set, a hold released with nothing held and no tap
      // waiting would never settle, and every later tap would wait for ever.
      if (inFlight > 0 || replaying || held.length > 0) return;
      for (const tap of taps.splice(0)) tap();
    });
  }

  /**
   * Holds keystrokes until the returned function is called (once; later calls do nothing): while an answer is
   * on its way, or a screen's code is loading. Then they are typed into the current target.
   */
  function holdKeys(): () => void {
    inFlight++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      // Nothing held: the hold ends now. The worker tapped another field while the answer was on its way, and
      // what they type next is for that field, not for the target the answer leads to.
      if (held.length === 0) {
        inFlight--;
        if (taps.length > 0) settle();
        return;
      }
      // In a task of its own: the focus moves inside React's commit, where typed text would be reset to the
      // state not yet rendered. Keys arriving until then are still held, so their order is kept.
      setTimeout(() => {
        inFlight--;
        replay();
      });
    };
  }

  /**
   * Types the held keys out, one scan at a time (the keys up to an Enter or Tab), into the target current
   * when its turn comes: after each scan the next waits until the screen has taken it — the answer it waited
   * for painted, or (a scan the screen takes at once) the screen's next paint — so two scans are never typed
   * into one field, nor one into the field the scan before it leads away from. Keys without an Enter or Tab
   * at the end are typed at once — unless they end in a scanner's burst still coming, which is waited for, so
   * a burst is never split between two targets — and what a person typed meanwhile is in the field before
   * their next tap.
   */
  function replay(): void {
    if (inFlight > 0 || replaying || held.length === 0) return; // a hold still on, a replay under way, or nothing
    if (paused()) {
      // A desk page (the Leitstand) opened meanwhile: its keys are the browser's, typed before it was there.
      held.length = 0;
      settle();
      return;
    }
    replaying = true;
    replayNext();
  }

  function replayNext(): void {
    if (inFlight > 0 || held.length === 0) {
      // A replayed scan started a hold of its own (its release replays the rest), or nothing is left.
      replaying = false;
      settle();
      return;
    }
    const end = held.findIndex((k) => k.key === 'Enter' || k.key === 'Tab');
    if (end === -1 && burstComing()) {
      setTimeout(replayNext, BURST_GAP_MS + 1);
      return;
    }
    const keys = held.splice(0, end === -1 ? held.length : end);
    const terminator = held.shift();
    typeScan(keys, terminator);
    if (!terminator || inFlight > 0 || held.length === 0) {
      replayNext();
      return;
    }
    afterScreenChanged(replayNext);
  }

  /**
   * The held keys end in a scanner's burst still coming: its last two keys within a burst, the last one come
   * just now. (A single key is a person's, typed into the field at once: a tap may follow it.)
   */
  function burstComing(): boolean {
    const last = held[held.length - 1];
    const before = held[held.length - 2];
    if (!last || !before) return false;
    return withinBurst(before.at, last.at) && performance.now() - (last.received ?? 0) < BURST_GAP_MS;
  }

  return {
    holding: () => !started() || inFlight > 0 || replaying,
    push(key, at) {
      held.push({ key, at, received: performance.now() });
    },
    holdKeys,
    /**
     * Holds keystrokes until `answer` has settled and been painted — or until the focus moves on before that
     * (the screen answered already, or the worker tapped another field). An Enter among them starts the next
     * scan, and the keys after it wait for that one in turn.
     */
    holdKeysWhile(answer, field, afterPaint) {
      const release = holdKeys();
      const onFocus = (event: FocusEvent) => {
        if (event.target !== field) done();
      };
      const done = () => {
        document.removeEventListener('focusin', onFocus, true);
        release();
      };
      document.addEventListener('focusin', onFocus, true);
      const settled = () => afterPaint(done);
      answer.then(settled, settled);
    },
    /**
     * Holds keystrokes until `answer` has settled and its result is painted (`afterPaint`): a call that a
     * tapped button started (a booking's yes, 'Neu', 'Speichern') leads to the state whose target takes the
     * next scan.
     */
    holdKeysUntil(answer, afterPaint) {
      const release = holdKeys();
      const settled = () => afterPaint(release);
      answer.then(settled, settled);
    },
    replay,
    deferTap(go) {
      if (held.length === 0 && !replaying && !settling && taps.length === 0) return false; // taps keep their order
      taps.push(go);
      return true;
    },
  };
}
