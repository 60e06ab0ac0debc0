/**
 * Where a scan goes (DESIGN §8): one rule for the whole app, whatever has the focus.
 *
 * A keyboard-wedge scanner types a code as a burst of keys (≤ 50 ms apart) and ends it with Enter or Tab. It
 * does not look at the screen: the focus may be on a button the worker just tapped, on the page background,
 * in a dialog, under a success view, or in the amount field. So every key passes this module first (a
 * capture listener on the window) and the screen only says, per state, what its *current scan target* is
 * (`use-scan-target.ts`):
 *
 * - a field (`ScanField`, an amount field, the card field): the scan is typed into it and ends there as a
 *   person's Enter would; the field gets the focus whenever it becomes the target;
 * - a receiver without a field of its own (a card login on the password form): the burst is collected and
 *   handed over whole;
 * - nothing: the screen says what it expects instead, and a scan is refused out loud — error sound,
 *   vibration and 'Scan nicht angenommen – …' in the banner — never dropped in silence.
 *
 * Keys go where they go by themselves when the focus is in a scan field (the worker typing, or a scanner
 * whose field is focused). A burst that starts anywhere else is taken over at its first key (focus on a
 * button, the background, a dialog) or as soon as it is recognised as a scanner's (eight keys in a burst and
 * Enter in a field meant for a person, a character an amount field does not take, four digits in a burst and
 * Enter in an amount — an amount is typed, never scanned): the keys it already put there are taken back, and
 * it goes to the current target, or is refused if the amount is the target. So a burst's Enter never presses
 * a button.
 *
 * While a scan's answer is on its way, the next keys are held and typed out once the answer is on screen,
 * into what is the current target by then (`holdKeysWhile`, started by the field that scanned).
 */
import { GROUP_SEPARATOR } from '../../contract/limits.ts';
import { BURST_GAP_MS, BURST_MIN_KEYS, COLLECT_IDLE_MS, SCANNER_MIN_KEYS } from './timing.ts';

export type ScanTarget =
  | {
      kind: 'field';
      /** The field's label as the worker sees it. */
      label: string;
      input: () => HTMLInputElement | null;
    }
  | {
      kind: 'receiver';
      label: string;
      receive: (text: string) => void;
    }
  | {
      kind: 'none';
      /** What the screen expects instead, after 'Scan nicht angenommen – '. */
      expects: string;
    };

/** A dialog's target (usually 'none': answer the question first) is current over the screen's. */
export type ScanLevel = 'screen' | 'dialog';

interface Registration {
  readonly id: number;
  readonly level: ScanLevel;
  target: ScanTarget;
}

/** How an input takes keys (`data-scan`): 'scan' a scan field, 'digits' an amount; unmarked: typed by a person. */
export const SCAN_ATTRIBUTE = 'data-scan';

/** The refusals' texts and how they are shown (the banner, with its sound): set once by the app. */
export interface RefusalTexts {
  /** 'Scan nicht angenommen – …' */
  refused(what: string): string;
  /** What a field target expects: its label. */
  expected(label: string): string;
  digitsOnly(label: string): string;
  /** An amount field's value would be above its maximum (`data-max`). */
  above(label: string, max: number): string;
  /** A scanner's burst of digits (an article number) came where an amount is typed. */
  typeIn(label: string): string;
  /** What a screen without any target expects (a menu: choose a function first). */
  nothingHere: string;
}

let nextId = 1;
const registrations: Registration[] = [];
let focusedFor: number | null = null;
let show: (message: string) => void = () => {};
/** Runs `go` once what the screen did with a replayed scan is on screen (the app: after the next paint). */
let afterScreenChanged: (go: () => void) => void = (go) => setTimeout(go, 0);
/** Keys dispatched by a script are routed too (a test of this module; never set by the app). */
let routeSyntheticKeys = false;
let words: RefusalTexts = {
  refused: (what) => what,
  expected: (label) => label,
  digitsOnly: (label) => label,
  above: (label) => label,
  typeIn: (label) => label,
  nothingHere: '',
};

export function configureScanRouter(options: {
  show: (message: string) => void;
  texts: RefusalTexts;
  afterPaint?: (go: () => void) => void;
  syntheticKeys?: boolean;
}): void {
  show = options.show;
  words = options.texts;
  if (options.afterPaint) afterScreenChanged = options.afterPaint;
  routeSyntheticKeys = options.syntheticKeys ?? false;
  if (!configured) {
    configured = true;
    // What was scanned while the page was starting: to its screen, once that is there (a screen whose code
    // still loads holds it on: HoldKeysWhileLoading).
    if (held.length > 0) setTimeout(replayHeldKeys);
  }
}

/**
 * Until the app has mounted (and configured this module), keys are held: a scan while the page starts
 * would find no screen yet and be refused for nothing.
 */
let configured = false;

function currentRegistration(): Registration | undefined {
  return (
    findLast(registrations, (r) => r.level === 'dialog') ??
    findLast(registrations, (r) => r.level === 'screen')
  );
}

function current(): ScanTarget {
  return currentRegistration()?.target ?? { kind: 'none', expects: words.nothingHere };
}

function findLast<T>(list: T[], test: (item: T) => boolean): T | undefined {
  for (let i = list.length - 1; i >= 0; i--) {
    const item = list[i] as T;
    if (test(item)) return item;
  }
  return undefined;
}

export interface ScanTargetHandle {
  update(target: ScanTarget): void;
  remove(): void;
}

/** Declares a target; the latest of a level is current. Its field gets the focus when it becomes current. */
export function registerScanTarget(target: ScanTarget, level: ScanLevel = 'screen'): ScanTargetHandle {
  const registration: Registration = { id: nextId++, level, target };
  registrations.push(registration);
  focusSoon();
  return {
    update(next) {
      registration.target = next;
      focusSoon(); // its field may take the focus now (it was disabled)
    },
    remove() {
      const at = registrations.indexOf(registration);
      if (at >= 0) registrations.splice(at, 1);
      focusSoon();
    },
  };
}

/**
 * After a scan into a field that is not the current target (the worker tapped it): the focus goes back to
 * the target, so the next scan lands where the screen expects it.
 */
export function refocusTarget(): void {
  focusedFor = null;
  focusSoon();
}

/**
 * The focus follows the target: each time another target becomes current, its field is focused — once the
 * screen's whole change is done (one target goes and the next comes in the same render), so no field in
 * between gets the focus for a moment.
 */
let focusPending = false;
function focusSoon(): void {
  if (focusPending) return;
  focusPending = true;
  queueMicrotask(() => {
    focusPending = false;
    const registration = currentRegistration();
    if (!registration || registration.id === focusedFor) return;
    if (registration.target.kind === 'field') {
      const input = fieldOf(registration.target);
      if (!input) return; // not there or disabled yet: again at the next change
      if (document.activeElement !== input) input.focus();
    }
    focusedFor = registration.id;
  });
}

/** The target's field when it can take keys now. */
function fieldOf(target: ScanTarget): HTMLInputElement | null {
  if (target.kind !== 'field') return null;
  const input = target.input();
  return input && !input.disabled && !input.readOnly && input.isConnected ? input : null;
}

function refusalFor(target: ScanTarget): string {
  if (target.kind === 'none') return words.refused(target.expects);
  return words.refused(words.expected(target.label));
}

/** Why an amount field cannot take these keys (null: it can). */
function digitsProblem(input: HTMLInputElement, label: string, typed: string): string | null {
  if (!/^\d*$/.test(typed)) return words.refused(words.digitsOnly(label));
  const start = input.selectionStart ?? input.value.length;
  const end = input.selectionEnd ?? input.value.length;
  const next = input.value.slice(0, start) + typed + input.value.slice(end);
  const max = Number(input.dataset.max);
  if (Number.isFinite(max) && Number(next) > max) return words.refused(words.above(label, max));
  return null;
}

// ── Keys ────────────────────────────────────────────────────────────────────────────────────────────────

interface HeldKey {
  key: string;
  at: number;
  /** When this module took it (`performance.now()`): how long ago the last held key came. */
  received?: number;
}

/**
 * A burst taken over for a target without a field: its keys are collected and handed over (or refused) at
 * its end. `refused`: already refused (its keys are only swallowed).
 */
let collected: { text: string; target: ScanTarget; timer: number; refused: boolean } | null = null;
/** The keys typed so far into one field in a burst, and what the field held before them. */
let run: { input: HTMLInputElement; before: string; start: number; end: number; keys: string } | null = null;
let lastKeyAt = Number.NEGATIVE_INFINITY;
/** Answers on their way (holdKeysWhile) and the keys that came meanwhile. */
let inFlight = 0;
/**
 * Held keys are being typed out, a scan at a time: keys that come meanwhile are held too, behind them, so
 * no scan overtakes another and none is typed into a screen that has not yet taken the one before.
 */
let replaying = false;
const held: HeldKey[] = [];

function holding(): boolean {
  return !configured || inFlight > 0 || replaying;
}
const replayedAt = new WeakMap<Event, number>();

/** Whether this key event is a held key typed out again (it came while a scan's answer was on its way). */
export function isReplayed(event: Event): boolean {
  return replayedAt.has(event);
}

/** When the key of this event was pressed: a held key's own time, not when it was typed out again. */
export function pressedAt(event: Event): number {
  return replayedAt.get(event) ?? event.timeStamp;
}

const TEXT_TYPES = new Set(['text', 'search', 'password', 'number', 'tel', 'url', 'email']);

function isTextInput(element: Element | null): element is HTMLInputElement {
  return (
    element instanceof HTMLInputElement &&
    TEXT_TYPES.has(element.type) &&
    !element.disabled &&
    !element.readOnly
  );
}

/** A control a person works with Space (a button, a checkbox, a link). */
function isPressable(element: Element | null): boolean {
  return (
    element instanceof HTMLButtonElement ||
    element instanceof HTMLAnchorElement ||
    (element instanceof HTMLInputElement && !TEXT_TYPES.has(element.type))
  );
}

let pausedBy = 0;

/**
 * Leaves every key where the browser puts it while a page that is no handheld screen is open (the
 * Leitstand: a desk with a keyboard, whose fields take typed and scanned text alike). Answers the resume.
 */
export function pauseScanRouting(): () => void {
  pausedBy++;
  run = null;
  let resumed = false;
  return () => {
    if (resumed) return;
    resumed = true;
    pausedBy--;
  };
}

function onKeyDown(event: KeyboardEvent): void {
  if (pausedBy > 0) return;
  if (!(event.isTrusted || (routeSyntheticKeys && !replayedAt.has(event)))) return;
  if (event.ctrlKey || event.altKey || event.metaKey) return;
  const character = event.key.length === 1;
  const terminator = event.key === 'Enter' || event.key === 'Tab';
  if (!character && !terminator) {
    run = null; // Backspace, an arrow: what a field holds is no longer what a burst put there
    return;
  }
  const at = event.timeStamp;
  const inBurst = at - lastKeyAt <= BURST_GAP_MS;
  lastKeyAt = at;

  if (holding()) {
    swallow(event);
    held.push({ key: event.key, at, received: performance.now() });
    return;
  }
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
    !(focused.getAttribute(SCAN_ATTRIBUTE) === 'scan' && current().kind === 'none')
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
    const target = current();
    const isTarget = fieldOf(target) === focused;
    if (character) {
      if (!run || run.input !== focused || !inBurst) run = startRun(focused);
      run.keys += event.key;
      if (kind !== 'digits' || target.kind !== 'field') return;
      // An amount field never takes a letter or an over-long number: a code scanned into it is taken back
      // at once — refused if the amount is what the screen expects, else sent where the screen expects it.
      const problem = digitsProblem(focused, isTarget ? target.label : '', event.key);
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
    if (!typed || typed.input !== focused || !inBurst) return;
    if (typed.keys.length < (digits ? BURST_MIN_KEYS : SCANNER_MIN_KEYS)) return;
    if (isTarget && !digits) return;
    swallow(event);
    takeBack(typed);
    const amountExpected =
      target.kind === 'field' && fieldOf(target)?.getAttribute(SCAN_ATTRIBUTE) === 'digits';
    if (target.kind === 'field' && amountExpected) {
      refuseNow(words.refused(words.typeIn(target.label)));
      return;
    }
    takeOver(typed.keys, target);
    endScan(target, event.key, at);
    return;
  }

  run = null;
  // Focus on a button, a link, the page, a dialog, a slider, a list box: the burst is not for them.
  if (terminator) return; // a person's Enter or Tab on a control
  if (event.key === ' ' && isPressable(focused) && !inBurst) return; // a person's Space presses it
  swallow(event);
  takeOver(event.key, current());
}

/** Ends a scan taken over whole: Enter or Tab in the target's field, or the collected code handed over. */
function endScan(target: ScanTarget, key: string, at: number): void {
  if (collected) {
    finishCollected();
    return;
  }
  const input = fieldOf(target);
  if (input) pressKey(input, { key, at });
}

function startRun(input: HTMLInputElement) {
  return {
    input,
    before: input.value,
    start: input.selectionStart ?? input.value.length,
    end: input.selectionEnd ?? input.value.length,
    keys: '',
  };
}

function swallow(event: Event): void {
  event.preventDefault();
  event.stopImmediatePropagation();
}

/** Puts a field back as it was before a burst's first key. */
function takeBack(typed: { input: HTMLInputElement; before: string; start: number; end: number }): void {
  const { input } = typed;
  if (input.value !== typed.before) setValue(input, typed.before);
  try {
    input.setSelectionRange(typed.start, typed.end);
  } catch {
    // number inputs have no selection
  }
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
  if (input.getAttribute(SCAN_ATTRIBUTE) === 'digits' && target.kind === 'field') {
    const problem = digitsProblem(input, target.label, text);
    if (problem) {
      refuseRest(problem);
      return;
    }
  }
  if (document.activeElement !== input) input.focus();
  const typed = startRun(input);
  typeText(input, text);
  typed.keys = text;
  run = typed;
}

/** Refuses the scan now and swallows the rest of its burst. */
function refuseRest(message: string): void {
  startCollecting('', current(), true);
  refuseNow(message);
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
  refuseNow(refusalFor(done.target));
}

function refuseNow(message: string): void {
  show(message);
}

// ── Holding keys while an answer is on its way ──────────────────────────────────────────────────────────

/**
 * Holds keystrokes until `answer` has settled and been painted — or until the focus moves on before that
 * (the screen answered already, or the worker tapped another field). Then they are typed out into the
 * current target in their order, with the time each key was really pressed (for the double-read guard and
 * the scan-to-feedback timing). An Enter among them starts the next scan, and the keys after it wait for
 * that one in turn.
 */
export function holdKeysWhile(
  answer: Promise<unknown>,
  field: Element,
  afterPaint: (go: () => void) => void,
): void {
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
}

/**
 * Holds keystrokes until `answer` has settled and its result is painted (`afterPaint`): a call that a tapped
 * button started (a booking's yes, 'Neu', 'Speichern') leads to the state whose target takes the next scan.
 */
export function holdKeysUntil(answer: Promise<unknown>, afterPaint: (go: () => void) => void): void {
  const release = holdKeys();
  const settled = () => afterPaint(release);
  answer.then(settled, settled);
}

/**
 * Holds keystrokes until the returned function is called (once; later calls do nothing): while an answer is
 * on its way, or a screen's code is loading. Then they are typed into the current target.
 */
export function holdKeys(): () => void {
  inFlight++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    // Nothing held: the hold ends now. The worker tapped another field while the answer was on its way, and
    // what they type next is for that field, not for the target the answer leads to.
    if (held.length === 0) {
      inFlight--;
      return;
    }
    // In a task of its own: the focus moves inside React's commit, where typed text would be reset to the
    // state not yet rendered. Keys arriving until then are still held, so their order is kept.
    setTimeout(() => {
      inFlight--;
      replayHeldKeys();
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
function replayHeldKeys(): void {
  if (inFlight > 0 || replaying) return; // a hold still on, or a replay under way: that one goes on
  if (pausedBy > 0) {
    // A desk page (the Leitstand) opened meanwhile: its keys are the browser's, typed before it was there.
    held.length = 0;
    return;
  }
  replaying = true;
  replayNext();
}

function replayNext(): void {
  if (inFlight > 0 || held.length === 0) {
    // A replayed scan started a hold of its own (its release replays the rest), or nothing is left.
    replaying = false;
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
 * The held keys end in a scanner's burst still coming: its last two keys a burst's gap apart at most, the last
 * one come just now. (A single key is a person's, typed into the field at once: a tap may follow it.)
 */
function burstComing(): boolean {
  const last = held[held.length - 1];
  const before = held[held.length - 2];
  if (!last || !before) return false;
  return last.at - before.at <= BURST_GAP_MS && performance.now() - (last.received ?? 0) < BURST_GAP_MS;
}

/** One held scan typed into the current target: its keys, then its Enter or Tab (if it had one). */
function typeScan(keys: HeldKey[], terminator: HeldKey | undefined): void {
  const text = keys.map((k) => k.key).join('');
  const target = current();
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
    const amount = input.getAttribute(SCAN_ATTRIBUTE) === 'digits' && target.kind === 'field';
    // A code with letters is refused as in a field typed live ('nur Ziffern'); a scanner's digits as an
    // article number ('bitte eintippen').
    const problem = !amount
      ? null
      : /^\d+$/.test(text) && terminator && isScannersBurst(keys, terminator)
        ? words.refused(words.typeIn(target.label))
        : digitsProblem(input, target.label, text);
    if (problem) {
      refuseNow(problem);
      return;
    }
    typeText(input, text);
  }
  if (terminator) pressKey(input, terminator);
}

/** Held keys that came as a scanner's burst: enough of them, each ≤ BURST_GAP_MS after the one before. */
function isScannersBurst(keys: HeldKey[], terminator: HeldKey): boolean {
  if (keys.length < BURST_MIN_KEYS) return false;
  const all = [...keys, terminator];
  return all.every((k, i) => i === 0 || k.at - (all[i - 1] as HeldKey).at <= BURST_GAP_MS);
}

/** As typing does: replaces the selection (a refused code stays selected for the next scan) or appends. */
function typeText(input: HTMLInputElement, text: string): void {
  if (input.selectionStart !== null && input.selectionEnd !== null) {
    input.setRangeText(text, input.selectionStart, input.selectionEnd, 'end');
  } else {
    input.value += text; // number fields have no selection
  }
  input.dispatchEvent(new Event('input', { bubbles: true }));
}

/** Sets a React-controlled field's value so that its onChange sees it. */
function setValue(input: HTMLInputElement, value: string): void {
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;
  setter?.call(input, value);
  input.dispatchEvent(new Event('input', { bubbles: true }));
}

function pressKey(target: HTMLInputElement, key: HeldKey): void {
  const event = new KeyboardEvent('keydown', { key: key.key, bubbles: true, cancelable: true });
  replayedAt.set(event, key.at);
  const unhandled = target.dispatchEvent(event);
  // A typed-out Enter has no default action of its own: submit the form as a real one would.
  if (unhandled && key.key === 'Enter') target.form?.requestSubmit();
}

// Text that comes without a key of its own (some wedges type the GS1 group separator so, as does an IME).
function onBeforeInput(event: InputEvent): void {
  if (!(event.isTrusted || routeSyntheticKeys) || event.inputType !== 'insertText' || !event.data) return;
  if (holding()) {
    swallow(event);
    for (const key of event.data) held.push({ key, at: event.timeStamp, received: performance.now() });
    return;
  }
  if (collected) {
    swallow(event);
    for (const key of event.data) collect(key);
  }
}

if (typeof window !== 'undefined') {
  window.addEventListener('keydown', onKeyDown, { capture: true });
  window.addEventListener('beforeinput', onBeforeInput, { capture: true });
}
