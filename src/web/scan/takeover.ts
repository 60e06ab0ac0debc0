/**
 * Burst takeover: a key that is not held goes where the screen expects the scan.
 *
 * Keys go where they go by themselves when the focus is in a scan field (the worker typing, or a scanner
 * whose field is focused). A burst that starts anywhere else is taken over at its first key (focus on a
 * button, the background, a dialog) or as soon as it is recognised as a scanner's (`burst.ts`: eight keys in
 * a burst and Enter in a field meant for a person, a character an amount field does not take, four digits in
 * a burst and Enter in an amount — an amount is typed, never scanned): the keys it already put there are
 * taken back, and it goes to the current target, or is refused if the amount is the target. So a burst's
 * Enter never presses a button.
 *
 * A target without a field (a receiver, or none) gets the burst collected: handed over whole at its Enter or
 * Tab, or refused out loud — and a late Enter or Tab still ends the burst it follows.
 */
import { GROUP_SEPARATOR } from '../../contract/limits.ts';
import { endsScannersBurst, isScannersBurst } from './burst.ts';
import {
  digitsProblem,
  type FieldRun,
  isAmountField,
  isPressable,
  isTextInput,
  type PressedKey,
  pressKey,
  type RefusalTexts,
  SCAN_ATTRIBUTE,
  startRun,
  swallow,
  takeBack,
  typeText,
} from './fields.ts';
import { fieldOf, refusalFor, type ScanTarget, type Targets } from './targets.ts';
import { BURST_MIN_KEYS, COLLECT_IDLE_MS, SCANNER_MIN_KEYS } from './timing.ts';

export interface Takeover {
  /** A key the router routes now (not held): when it came, whether within the burst before it, its kind. */
  key(event: KeyboardEvent, at: number, inBurst: boolean, character: boolean, terminator: boolean): void;
  /** Text that came without a key of its own (`beforeinput`): swallowed into a burst being collected. */
  text(event: InputEvent): void;
  /** One held scan typed into the current target: its keys, then its Enter or Tab (if it had one). */
  typeHeldScan(keys: PressedKey[], terminator: PressedKey | undefined): void;
  /** What a field holds is no longer what a burst put there (Backspace, an arrow; routing paused). */
  forgetRun(): void;
}

/** `refuse` shows a refusal (the banner, with its sound); `texts` are the app's refusal texts (set at `configure`). */
export function createTakeover(
  targets: Targets,
  texts: RefusalTexts,
  refuse: (message: string) => void,
): Takeover {
  /**
   * A burst taken over for a target without a field: its keys are collected and handed over (or refused) at
   * its end. `refused`: already refused (its keys are only swallowed).
   */
  let collected: { text: string; target: ScanTarget; timer: number; refused: boolean } | null = null;
  /** The keys typed so far into one field in a burst, and what the field held before them. */
  let run: FieldRun | null = null;

  function key(event: KeyboardEvent, at: number, inBurst: boolean, character: boolean, terminator: boolean) {
    if (collected && inBurst) {
      swallow(event);
      if (character) collect(event.key);
      else finishCollected();
      return;
    }
    // The Enter or Tab of a burst taken over, come late (a busy device, a scanner set to wait before its
    // suffix): it ends that burst, and never presses the button or answers the dialog that has the focus.
    if (collected && terminator) {
      swallow(event);
      finishCollected();
      return;
    }
    // A pause: whatever was collected ended with its last key (a scanner without Enter or Tab).
    finishCollected();

    const focused = document.activeElement;
    // A scan field that kept the focus while the screen takes no scan (a cart just closed, its note field still
    // shown): what comes is not for it — taken over below and refused, never sent from that field.
    if (
      isTextInput(focused) &&
      !(focused.getAttribute(SCAN_ATTRIBUTE) === 'scan' && targets.current().kind === 'none')
    ) {
      const kind = focused.getAttribute(SCAN_ATTRIBUTE);
      if (kind === 'scan') {
        run = null;
        // A wedge that sends the GS1 group separator as a key of its own: the browser types no control
        // character, so the field would lose it and a batch would run into the next field's data.
        if (event.key === GROUP_SEPARATOR) {
          swallow(event);
          typeText(focused, event.key);
        }
        return; // a scan field (the screen's or the one the worker tapped) ends its scan at its own Enter
      }
      const target = targets.current();
      const isTarget = fieldOf(target) === focused;
      if (character) {
        if (!run || run.input !== focused || !inBurst) run = startRun(focused);
        run.keys += event.key;
        if (kind !== 'digits' || target.kind !== 'field') return;
        // An amount field never takes a letter or an over-long number: a code scanned into it is taken back
        // at once — refused if the amount is what the screen expects, else sent where the screen expects it.
        const problem = digitsProblem(focused, isTarget ? target.label : '', event.key, texts);
        if (!problem) return;
        swallow(event);
        const typed = run;
        run = null;
        takeBack(typed);
        if (isTarget) refuseRest(problem);
        else takeOver(typed.keys, target);
        return;
      }
      // Enter or Tab in a field typed by a person (a name, a password, an amount): what came in one burst right
      // before it was a scanner's — taken back and sent to the target, whole. An amount is typed, never
      // scanned: a burst of digits there (an article number, 100001) is refused if an amount is what the
      // screen expects; a person typing an amount is far slower than a burst.
      const typed = run;
      run = null;
      const digits = kind === 'digits';
      if (!typed || typed.input !== focused) return;
      if (!endsScannersBurst(typed.keys.length, inBurst, digits ? BURST_MIN_KEYS : SCANNER_MIN_KEYS)) return;
      if (isTarget && !digits) return;
      swallow(event);
      takeBack(typed);
      const targetField = fieldOf(target);
      if (target.kind === 'field' && targetField && isAmountField(targetField)) {
        refuse(texts.refused(texts.typeIn(target.label)));
        return;
      }
      takeOver(typed.keys, target);
      endScan(target, { key: event.key, at });
      return;
    }

    run = null;
    // Focus on a button, a link, the page, a dialog, a slider, a list box: the burst is not for them.
    if (terminator) return; // a person's Enter or Tab on a control
    if (event.key === ' ' && isPressable(focused) && !inBurst) return; // a person's Space presses it
    swallow(event);
    takeOver(event.key, targets.current());
  }

  /** Ends a scan taken over whole: Enter or Tab in the target's field, or the collected code handed over. */
  function endScan(target: ScanTarget, end: PressedKey): void {
    if (collected) {
      finishCollected();
      return;
    }
    const input = fieldOf(target);
    if (input) pressKey(input, end);
  }

  /**
   * Sends the start of a burst to `target`: typed into its field (the rest of the burst follows there by
   * itself), or collected for a target without one.
   */
  function takeOver(text: string, target: ScanTarget): void {
    const input = fieldOf(target);
    if (!input) {
      startCollecting(text, target, false);
      return;
    }
    const problem =
      target.kind === 'field' && isAmountField(input) && digitsProblem(input, target.label, text, texts);
    if (problem) {
      refuseRest(problem);
      return;
    }
    if (document.activeElement !== input) input.focus();
    const typed = startRun(input);
    typeText(input, text);
    typed.keys = text;
    run = typed;
  }

  /** Refuses the scan now and swallows the rest of its burst. */
  function refuseRest(message: string): void {
    startCollecting('', targets.current(), true);
    refuse(message);
  }

  function startCollecting(text: string, target: ScanTarget, refused: boolean): void {
    collected = { text, target, refused, timer: window.setTimeout(finishCollected, COLLECT_IDLE_MS) };
  }

  function collect(key: string): void {
    if (!collected) return;
    collected.text += key;
    window.clearTimeout(collected.timer);
    collected.timer = window.setTimeout(finishCollected, COLLECT_IDLE_MS);
  }

  /** At the burst's Enter or Tab, or when its keys stopped coming. */
  function finishCollected(): void {
    const done = collected;
    if (!done) return;
    collected = null;
    window.clearTimeout(done.timer);
    if (done.refused) return;
    if (done.target.kind === 'receiver') {
      if (done.text.trim() !== '') done.target.receive(done.text);
      return;
    }
    refuse(refusalFor(done.target, texts));
  }

  function typeHeldScan(keys: PressedKey[], terminator: PressedKey | undefined): void {
    const text = keys.map((k) => k.key).join('');
    const target = targets.current();
    const input = fieldOf(target);
    if (!input) {
      // A target without a field: the code is handed over whole, or refused.
      if (text !== '') {
        startCollecting(text, target, false);
        if (terminator) finishCollected();
      }
      return;
    }
    if (document.activeElement !== input) input.focus();
    if (text !== '') {
      const amount = isAmountField(input) && target.kind === 'field';
      // A code with letters is refused as in a field typed live ('nur Ziffern'); a scanner's digits as an
      // article number ('bitte eintippen').
      const problem = !amount
        ? null
        : /^\d+$/.test(text) &&
            terminator &&
            isScannersBurst(
              keys.map((k) => k.at),
              terminator.at,
            )
          ? texts.refused(texts.typeIn(target.label))
          : digitsProblem(input, target.label, text, texts);
      if (problem) {
        refuse(problem);
        return;
      }
      typeText(input, text);
    }
    if (terminator) pressKey(input, terminator);
  }

  return {
    key,
    text(event) {
      if (!collected) return;
      swallow(event);
      for (const key of event.data ?? '') collect(key);
    },
    typeHeldScan,
    forgetRun() {
      run = null;
    },
  };
}
