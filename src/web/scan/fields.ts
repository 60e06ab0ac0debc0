/**
 * What the router does to the page's controls, as typing would: which input takes which keys, text typed into a
 * field or taken back out of it, a key pressed again. No state of its own beyond the keys it typed out (their
 * time of pressing, for the double-read guard and the scan-to-feedback timing).
 */

/** How an input takes keys (`data-scan`): 'scan' a scan field, 'digits' an amount; unmarked: typed by a person. */
export const SCAN_ATTRIBUTE = 'data-scan';

/** The refusals' texts (set once by the app, `texts.scan`). */
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

/** A key as pressed: the key and when (`timeStamp`, the time the device got it). */
export interface PressedKey {
  key: string;
  at: number;
}

const TEXT_TYPES = new Set(['text', 'search', 'password', 'number', 'tel', 'url', 'email']);

export function isTextInput(element: Element | null): element is HTMLInputElement {
  return (
    element instanceof HTMLInputElement &&
    TEXT_TYPES.has(element.type) &&
    !element.disabled &&
    !element.readOnly
  );
}

/** A control a person works with Space (a button, a checkbox, a link). */
export function isPressable(element: Element | null): boolean {
  return (
    element instanceof HTMLButtonElement ||
    element instanceof HTMLAnchorElement ||
    (element instanceof HTMLInputElement && !TEXT_TYPES.has(element.type))
  );
}

/** Whether an input is an amount (typed, never scanned). */
export function isAmountField(input: Element): boolean {
  return input.getAttribute(SCAN_ATTRIBUTE) === 'digits';
}

export function swallow(event: Event): void {
  event.preventDefault();
  event.stopImmediatePropagation();
}

/** Why an amount field cannot take these keys (null: it can). */
export function digitsProblem(
  input: HTMLInputElement,
  label: string,
  typed: string,
  words: RefusalTexts,
): string | null {
  if (!/^\d*$/.test(typed)) return words.refused(words.digitsOnly(label));
  const start = input.selectionStart ?? input.value.length;
  const end = input.selectionEnd ?? input.value.length;
  const next = input.value.slice(0, start) + typed + input.value.slice(end);
  const max = Number(input.dataset.max);
  if (Number.isFinite(max) && Number(next) > max) return words.refused(words.above(label, max));
  return null;
}

/** The keys typed so far into one field in a burst, and what the field held before them. */
export interface FieldRun {
  input: HTMLInputElement;
  before: string;
  start: number;
  end: number;
  keys: string;
}

export function startRun(input: HTMLInputElement): FieldRun {
  return {
    input,
    before: input.value,
    start: input.selectionStart ?? input.value.length,
    end: input.selectionEnd ?? input.value.length,
    keys: '',
  };
}

/** Puts a field back as it was before a burst's first key. */
export function takeBack(run: FieldRun): void {
  const { input } = run;
  if (input.value !== run.before) setValue(input, run.before);
  try {
    input.setSelectionRange(run.start, run.end);
  } catch {
    // number inputs have no selection
  }
}

/** As typing does: replaces the selection (a refused code stays selected for the next scan) or appends. */
export function typeText(input: HTMLInputElement, text: string): void {
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

/**
 * Keys the router presses itself (a held key typed out again, a taken-over burst's Enter) carry the time the key
 * was really pressed: marked on the event, so any listener can ask (`isReplayed`, `pressedAt`).
 */
const replayedAt = new WeakMap<Event, number>();

export function pressKey(input: HTMLInputElement, key: PressedKey): void {
  const event = new KeyboardEvent('keydown', { key: key.key, bubbles: true, cancelable: true });
  replayedAt.set(event, key.at);
  const unhandled = input.dispatchEvent(event);
  // A typed-out Enter has no default action of its own: submit the form as a real one would.
  if (unhandled && key.key === 'Enter') input.form?.requestSubmit();
}

/** Whether this key event is a key the router pressed again (it came while a scan's answer was on its way). */
export const isReplayed = (event: Event): boolean => replayedAt.has(event);

/** When the key of this event was pressed: a held key's own time, not when it was typed out again. */
export const pressedAt = (event: Event): number => replayedAt.get(event) ?? event.timeStamp;
