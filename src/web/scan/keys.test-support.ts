import { afterEach, beforeEach, vi } from 'vitest';
import {
  createScanRouter,
  type RefusalTexts,
  SCAN_ATTRIBUTE,
  type ScanLevel,
  type ScanRouter,
  type ScanTarget,
} from './router.ts';

/**
 * A page for the scan router's unit tests (`*.test.ts` beside it), with no React: plain inputs and buttons,
 * keys dispatched as the browser does (the router's capture listener first, then the key's default action),
 * each carrying the time it was pressed on a faked clock — so a burst (2 ms a key) and a person (80 ms a key)
 * are the same on every machine. The refusals' texts say what they were given, so a test reads which rule
 * refused.
 */

const texts: RefusalTexts = {
  refused: (what) => `refused: ${what}`,
  expected: (label) => `scan ${label}`,
  digitsOnly: (label) => `${label}: digits only`,
  above: (label, max) => `${label}: at most ${max}`,
  typeIn: (label) => `${label}: type it in`,
  nothingHere: 'nothing to scan here',
};

/** The router under test (`start`). */
let router: ScanRouter | undefined;
/** What the router showed (the banner). */
const shown: string[] = [];
/** What each field's own Enter (or the receiver) got: 'label value'. */
const got: string[] = [];
/** Clicks on the fixture's buttons. */
const clicks: string[] = [];

/** A router on this window, configured as the app does (keys dispatched by this test are routed). */
function start(configure = true): ScanRouter {
  const started = createScanRouter(window, true);
  router = started;
  if (configure) configureAsTheApp(started);
  return started;
}

/** Configures the router as the app's ScanRouting does once it has mounted. */
function configureAsTheApp(started: ScanRouter = routerNow()): void {
  started.configure({ show: (m) => shown.push(m), texts });
}

function routerNow(): ScanRouter {
  if (!router) throw new Error('start() the router first');
  return router;
}

/** An input that reports its text at its own Enter, as ScanField, AmountField's form and a login field do. */
function input(label: string, kind: 'scan' | 'digits' | null, max?: number): HTMLInputElement {
  const element = document.createElement('input');
  element.type = 'text';
  element.setAttribute('aria-label', label);
  if (kind) element.setAttribute(SCAN_ATTRIBUTE, kind);
  if (max !== undefined) element.dataset.max = String(max);
  element.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    got.push(`${label} ${element.value}`);
    if (kind === 'scan') element.value = '';
  });
  document.body.append(element);
  return element;
}

const scanField = (label: string) => input(label, 'scan');
const amountField = (label: string, max?: number) => input(label, 'digits', max);
const personField = (label: string) => input(label, null);

function button(name: string): HTMLButtonElement {
  const element = document.createElement('button');
  element.type = 'button';
  element.textContent = name;
  element.addEventListener('click', () => clicks.push(name));
  document.body.append(element);
  return element;
}

function fieldTarget(label: string, element: HTMLInputElement, level: ScanLevel = 'screen') {
  return routerNow().registerTarget({ kind: 'field', label, input: () => element }, level);
}

function target(value: ScanTarget, level: ScanLevel = 'screen') {
  return routerNow().registerTarget(value, level);
}

/** Lets the focus follow the target (a microtask) and due timers run. */
async function settle(ms = 0): Promise<void> {
  await vi.advanceTimersByTimeAsync(ms);
}

const stamped = <E extends Event>(event: E): E =>
  Object.defineProperty(event, 'timeStamp', { value: performance.now() });

/** A key as the browser takes it: the keydown (the router's listener first), then its default action. */
function press(key: string): void {
  const on = document.activeElement ?? document.body;
  if (!on.dispatchEvent(stamped(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }))))
    return;
  if (on instanceof HTMLInputElement && key.length === 1 && key >= ' ') {
    const before = new InputEvent('beforeinput', {
      inputType: 'insertText',
      data: key,
      bubbles: true,
      cancelable: true,
    });
    if (!on.dispatchEvent(stamped(before))) return;
    on.setRangeText(key, on.selectionStart ?? on.value.length, on.selectionEnd ?? on.value.length, 'end');
    on.dispatchEvent(new Event('input', { bubbles: true }));
  } else if (on instanceof HTMLButtonElement && (key === 'Enter' || key === ' ')) {
    on.click();
  }
}

/** A keyboard wedge: the code's keys `gap` ms apart, then its Enter (or Tab) `lateBy` ms after the last. */
async function wedge(
  code: string,
  { end = 'Enter', gap = 2, lateBy = 2 }: { end?: string | null; gap?: number; lateBy?: number } = {},
): Promise<void> {
  for (const [i, key] of [...code].entries()) {
    if (i > 0) await settle(gap);
    press(key);
  }
  if (end) {
    await settle(lateBy);
    press(end);
  }
  await settle();
}

/** A person typing: a key every 80 ms, then Enter. */
const typeSlowly = (text: string, end: string | null = 'Enter') => wedge(text, { end, gap: 80, lateBy: 80 });

/** Moves the focus as a tap does (a tap on the background: the body). */
function tap(element: HTMLElement | null): void {
  if (element) element.focus();
  else (document.activeElement as HTMLElement | null)?.blur();
}

/** A started router and a screen whose target is this field (a scan field unless said), focused. */
async function expecting(label: string, kind: 'scan' | 'digits' = 'scan', max?: number) {
  start();
  const field = input(label, kind, max);
  fieldTarget(label, field);
  await settle();
  return field;
}

/** The card login on the password form: a receiver that notes what it got. */
function cardLogin() {
  return target({ kind: 'receiver', label: 'Karte', receive: (text) => got.push(`Karte ${text}`) });
}

/** A dialog's question over the screen (its target: answer first), its button focused. */
async function question(buttonName: string) {
  const yes = button(buttonName);
  target({ kind: 'none', expects: 'answer the question first' }, 'dialog');
  await settle();
  tap(yes);
  return yes;
}

/**
 * The page the tests of a file share: each test on a faked clock with an empty page, its router removed after
 * it; and what a test works with.
 */
export function setUpKeyboardPage() {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance', 'Date'] });
    shown.length = 0;
    got.length = 0;
    clicks.length = 0;
  });
  afterEach(() => {
    router?.remove();
    router = undefined;
    document.body.replaceChildren();
    vi.useRealTimers();
  });
  return {
    get router() {
      return routerNow();
    },
    shown,
    got,
    clicks,
    start,
    configure: () => configureAsTheApp(),
    scanField,
    amountField,
    personField,
    button,
    fieldTarget,
    target,
    settle,
    press,
    wedge,
    typeSlowly,
    tap,
    expecting,
    cardLogin,
    question,
  };
}
