/**
 * A keyboard-wedge scanner does not wait: the next code's keystrokes can arrive while the previous scan's
 * lookup is still on its way — before the screen has moved the cursor to the field that code belongs in.
 * Typed into the old field they would be split across two fields or lost. So while a lookup started by a
 * scan is in flight, keystrokes (characters, Enter, Tab) and text typed without keys are held here, and once its answer is on screen
 * they are typed into whatever field then has the focus, with the time each key was really pressed (for
 * the double-read guard and the scan-to-feedback timing). An Enter among them starts the next lookup,
 * and the keys after it wait for that one in turn.
 */
interface HeldKey {
  key: string;
  at: number;
}

let inFlight = 0;
const held: HeldKey[] = [];
const replayedAt = new WeakMap<Event, number>();

/** Whether this key event is a held key typed out again (it came while a scan's lookup was in flight). */
export function isReplayed(event: Event): boolean {
  return replayedAt.has(event);
}

/** When the key of this event was pressed: a held key's own time, not when it was typed out again. */
export function pressedAt(event: Event): number {
  return replayedAt.get(event) ?? event.timeStamp;
}

/**
 * Holds keystrokes until `answer` has settled and been painted — or until the focus moves on before that
 * (the screen answered already, or the worker tapped another field).
 */
export function holdKeysWhile(
  answer: Promise<unknown>,
  field: Element,
  afterPaint: (go: () => void) => void,
) {
  inFlight++;
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    document.removeEventListener('focusin', onFocus, true);
    // In a task of its own: the focus moves inside React's commit, where typed text would be reset to the
    // state not yet rendered. Keys arriving until then are still held, so their order is kept.
    setTimeout(() => {
      inFlight--;
      typeHeldKeys();
    });
  };
  const onFocus = (event: FocusEvent) => {
    if (event.target !== field) release();
  };
  document.addEventListener('focusin', onFocus, true);
  const settled = () => afterPaint(release);
  answer.then(settled, settled);
}

function isHeld(event: KeyboardEvent): boolean {
  if (event.ctrlKey || event.altKey || event.metaKey) return false;
  return event.key.length === 1 || event.key === 'Enter' || event.key === 'Tab';
}

if (typeof window !== 'undefined') {
  window.addEventListener(
    'keydown',
    (event) => {
      if (inFlight === 0 || !event.isTrusted || !isHeld(event)) return;
      event.preventDefault();
      event.stopImmediatePropagation();
      held.push({ key: event.key, at: event.timeStamp });
    },
    { capture: true },
  );
  // Text that comes without a key of its own (some wedges type the GS1 group separator so, as does an IME).
  window.addEventListener(
    'beforeinput',
    (event) => {
      if (inFlight === 0 || !event.isTrusted || event.inputType !== 'insertText' || !event.data) return;
      event.preventDefault();
      event.stopImmediatePropagation();
      for (const key of event.data) held.push({ key, at: event.timeStamp });
    },
    { capture: true },
  );
}

function typeHeldKeys(): void {
  while (inFlight === 0 && held.length > 0) {
    const target = document.activeElement;
    const end = held.findIndex((k) => k.key === 'Enter' || k.key === 'Tab');
    const text = held.splice(0, end === -1 ? held.length : end);
    if (text.length > 0) typeText(target, text.map((k) => k.key).join(''));
    const terminator = held.shift();
    if (terminator) pressKey(target, terminator);
  }
}

/** As typing does: replaces the selection (a refused code stays selected for the next scan) or appends. */
function typeText(target: Element | null, text: string): void {
  if (!(target instanceof HTMLInputElement) || target.readOnly || target.disabled) return;
  if (target.selectionStart !== null && target.selectionEnd !== null) {
    target.setRangeText(text, target.selectionStart, target.selectionEnd, 'end');
  } else {
    target.value += text; // number fields have no selection
  }
  target.dispatchEvent(new Event('input', { bubbles: true }));
}

function pressKey(target: Element | null, key: HeldKey): void {
  if (!target) return;
  const event = new KeyboardEvent('keydown', { key: key.key, bubbles: true, cancelable: true });
  replayedAt.set(event, key.at);
  const unhandled = target.dispatchEvent(event);
  // A typed-out Enter has no default action of its own: submit the form as a real one would.
  if (unhandled && key.key === 'Enter' && target instanceof HTMLInputElement) target.form?.requestSubmit();
}
