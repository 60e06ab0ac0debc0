/**
 * Where a scan goes (DESIGN §8, decision 13): one rule for the whole app, whatever has the focus.
 *
 * A keyboard-wedge scanner types a code as a burst of keys (≤ 50 ms apart) and ends it with Enter or Tab. It
 * does not look at the screen: the focus may be on a button the worker just tapped, on the page background,
 * in a dialog, under a success view, or in the amount field. So every key passes the router first (a capture
 * listener on the window) and the screen only says, per state, what its *current scan target* is
 * (`use-scan-target.ts`):
 *
 * - a field (`ScanField`, an amount field, the card field): the scan is typed into it and ends there as a
 *   person's Enter would; the field gets the focus whenever it becomes the target;
 * - a receiver without a field of its own (a card login on the password form): the burst is collected and
 *   handed over whole;
 * - nothing: the screen says what it expects instead, and a scan is refused out loud — error sound,
 *   vibration and 'Scan nicht angenommen – …' in the banner — never dropped in silence.
 *
 * The router is made of parts, each with its state inside: `targets.ts` (which target is current, the focus
 * following it), `takeover.ts` (a burst that starts where it does not belong goes to the target),
 * `hold.ts` (keys held while an answer is on its way), and `burst.ts` (a scanner's burst or a person typing,
 * the one place that tells). `createScanRouter(window)` puts them together and listens on that window; the
 * parts work in the page's document and timers. The app installs one (`installScanRouter`, in main.tsx): the
 * app's own scan parts call it through `appScanRouter()`, and screens import `holdKeysUntil`, `holdKeysWhile`,
 * `refocusTarget` and `pauseScanRouting` as functions that reach it.
 *
 * Every byte here is in the first download (100 KiB, `test/tools/bundle-budget.test.ts`): parts are passed
 * what they need as arguments, and what only a scan field needs lives in `key-burst.ts`.
 */

import { withinBurst } from './burst.ts';
import { isReplayed, type RefusalTexts, swallow } from './fields.ts';
import { createHold } from './hold.ts';
import { createTakeover } from './takeover.ts';
import { createTargets, type ScanLevel, type ScanTarget, type ScanTargetHandle } from './targets.ts';

export { isReplayed, pressedAt, type RefusalTexts, SCAN_ATTRIBUTE } from './fields.ts';
export type { ScanLevel, ScanTarget, ScanTargetHandle } from './targets.ts';

export interface ScanRouterOptions {
  /** Shows a refusal (the banner, with its sound and vibration). */
  show: (message: string) => void;
  texts: RefusalTexts;
  /** Runs `go` once what the screen did with a typed-out scan is on screen (the app: after the next paint). */
  afterPaint?: (go: () => void) => void;
}

export interface ScanRouter {
  /**
   * The refusals' texts and how they are shown: set by the app once it has mounted. Until the first call,
   * keys are held — a scan while the page starts would find no screen yet and be refused for nothing.
   */
  configure(options: ScanRouterOptions): void;
  /** Declares a target; the latest of a level is current. Its field gets the focus when it becomes current. */
  registerTarget(target: ScanTarget, level?: ScanLevel): ScanTargetHandle;
  /** After a scan into a field that is not the current target: the focus goes back to the target. */
  refocusTarget(): void;
  /** Holds keys until the returned function is called (once): an answer on its way, a screen loading. */
  holdKeys(): () => void;
  /** Holds keys until `answer` has settled and been painted, or the focus moved on from `field` before that. */
  holdKeysWhile(answer: Promise<unknown>, field: Element, afterPaint: (go: () => void) => void): void;
  /** Holds keys until `answer` has settled and its result is painted (a call a tapped button started). */
  holdKeysUntil(answer: Promise<unknown>, afterPaint: (go: () => void) => void): void;
  /** Leaves every key where the browser puts it until the returned resume is called (a desk page). */
  pause(): () => void;
  /** Takes the router off the window (its listeners): keys go where the browser puts them. */
  remove(): void;
}

/**
 * A router for this window: listens to its keys from now on, holding them until `configure`. `syntheticKeys`:
 * keys dispatched by a script are routed too (a test of the router; never set by the app).
 */
export function createScanRouter(view: Window, syntheticKeys = false): ScanRouter {
  let show: (message: string) => void = () => {};
  // Filled in at `configure`, before any key is routed (until then every key is held).
  const texts = {} as RefusalTexts;
  let afterScreenChanged: (go: () => void) => void = (go) => setTimeout(go, 0);
  let configured = false;
  let pausedBy = 0;
  /** When the last key came (its `timeStamp`): whether the next is within the same burst. */
  let lastKeyAt = Number.NEGATIVE_INFINITY;

  const targets = createTargets(texts);
  const takeover = createTakeover(targets, texts, (message) => show(message));
  const hold = createHold(
    () => configured,
    () => pausedBy > 0,
    takeover.typeHeldScan,
    (go) => afterScreenChanged(go),
  );

  function routed(event: Event): boolean {
    return event.isTrusted || (syntheticKeys && !isReplayed(event));
  }

  function onKeyDown(event: KeyboardEvent): void {
    if (pausedBy > 0) return;
    if (!routed(event)) return;
    if (event.ctrlKey || event.altKey || event.metaKey) return;
    const character = event.key.length === 1;
    const terminator = event.key === 'Enter' || event.key === 'Tab';
    if (!character && !terminator) {
      takeover.forgetRun(); // Backspace, an arrow: what a field holds is no longer what a burst put there
      return;
    }
    const at = event.timeStamp;
    const inBurst = withinBurst(lastKeyAt, at);
    lastKeyAt = at;
    if (hold.holding()) {
      swallow(event);
      hold.push(event.key, at);
      return;
    }
    takeover.key(event, at, inBurst, character, terminator);
  }

  // Text that comes without a key of its own (some wedges type the GS1 group separator so, as does an IME).
  function onBeforeInput(event: InputEvent): void {
    if (!routed(event) || event.inputType !== 'insertText' || !event.data) return;
    if (hold.holding()) {
      swallow(event);
      for (const key of event.data) hold.push(key, event.timeStamp);
      return;
    }
    takeover.text(event);
  }

  /**
   * A tap on a button (or link) while scanned keys are held: it waits until they are typed out, so the scan
   * the worker made before the tap is in the form the tap sends (a tap must not overtake a scan). The tap again
   * is the button's `click()`, which this listener lets pass.
   */
  let tapping = false;
  function onClick(event: MouseEvent): void {
    if (tapping || !routed(event)) return;
    const control = (event.target as Element).closest?.('button, a[href]') as HTMLElement | null;
    if (
      control &&
      hold.deferTap(() => {
        tapping = true;
        control.click();
        tapping = false;
      })
    )
      swallow(event);
  }

  const listening = new AbortController();
  // In the capture phase: before any screen sees the key.
  const capturing = { capture: true, signal: listening.signal };
  view.addEventListener('keydown', onKeyDown, capturing);
  view.addEventListener('beforeinput', onBeforeInput, capturing);
  view.addEventListener('click', onClick, capturing);

  // The targets' and the hold's calls as they are (the type names those the app uses).
  return {
    ...targets,
    ...hold,
    configure(options) {
      show = options.show;
      Object.assign(texts, options.texts);
      if (options.afterPaint) afterScreenChanged = options.afterPaint;
      if (!configured) {
        configured = true;
        // What was scanned while the page was starting: to its screen, once that is there (a screen whose code
        // still loads holds it on: HoldKeysWhileLoading).
        setTimeout(hold.replay);
      }
    },
    pause() {
      pausedBy++;
      takeover.forgetRun();
      let resumed = false;
      return () => {
        if (resumed) return;
        resumed = true;
        pausedBy--;
      };
    },
    remove: () => listening.abort(),
  };
}

// ── The app's router ────────────────────────────────────────────────────────────────────────────────────

/** The router the app installed (main.tsx): the one every screen's target and hold goes to. */
let installed: ScanRouter | null = null;

/** Creates the app's router on this window, once (main.tsx); screens reach it through the functions below. */
export function installScanRouter(view: Window, syntheticKeys?: boolean): ScanRouter {
  installed = createScanRouter(view, syntheticKeys);
  return installed;
}

/** The router the app installed (main.tsx). */
export const appScanRouter = (): ScanRouter => installed as ScanRouter;

/**
 * What screens import as functions: each calls the installed router's `name` (a TypeError before main.tsx
 * installed one).
 */
function reach<K extends keyof ScanRouter>(name: K): ScanRouter[K] {
  return ((...args: unknown[]) =>
    ((installed as ScanRouter)[name] as (...given: unknown[]) => unknown)(...args)) as ScanRouter[K];
}

/**
 * After a scan into a field that is not the current target (the worker tapped it): the focus goes back to
 * the target, so the next scan lands where the screen expects it.
 */
export const refocusTarget = reach('refocusTarget');

/**
 * Holds keystrokes until `answer` has settled and been painted — or until the focus moves on before that
 * (the screen answered already, or the worker tapped another field). Then they are typed out into the
 * current target in their order, with the time each key was really pressed (for the double-read guard and
 * the scan-to-feedback timing). An Enter among them starts the next scan, and the keys after it wait for
 * that one in turn.
 */
export const holdKeysWhile = reach('holdKeysWhile');

/**
 * Holds keystrokes until `answer` has settled and its result is painted (`afterPaint`): a call that a tapped
 * button started (a booking's yes, 'Neu', 'Speichern') leads to the state whose target takes the next scan.
 */
export const holdKeysUntil = reach('holdKeysUntil');

/**
 * Leaves every key where the browser puts it while a page that is no handheld screen is open (the
 * Leitstand: a desk with a keyboard, whose fields take typed and scanned text alike). Answers the resume.
 */
export const pauseScanRouting = reach('pause');
