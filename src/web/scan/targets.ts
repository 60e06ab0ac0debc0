/**
 * Targets and focus: which target is current, and the focus following it. A screen declares, per state, its
 * current scan target (`use-scan-target.ts`); the latest of a level is current, a dialog's over the screen's.
 * Each time another target becomes current, its field gets the focus.
 */
import type { RefusalTexts } from './fields.ts';

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

export interface ScanTargetHandle {
  update(target: ScanTarget): void;
  remove(): void;
}

export interface Targets {
  /** The current target; with none declared, 'none' with what a screen without any target expects. */
  current(): ScanTarget;
  /** Declares a target; the latest of a level is current. Its field gets the focus when it becomes current. */
  registerTarget(target: ScanTarget, level?: ScanLevel): ScanTargetHandle;
  /**
   * After a scan into a field that is not the current target (the worker tapped it): the focus goes back to
   * the target, so the next scan lands where the screen expects it.
   */
  refocusTarget(): void;
}

interface Registration {
  readonly id: number;
  readonly level: ScanLevel;
  target: ScanTarget;
}

/** The target's field when it can take keys now. */
export function fieldOf(target: ScanTarget): HTMLInputElement | null {
  if (target.kind !== 'field') return null;
  const input = target.input();
  return input && !input.disabled && !input.readOnly && input.isConnected ? input : null;
}

/** The refusal of a scan that came where `target` takes none (or a field target that could not take it). */
export function refusalFor(target: ScanTarget, words: RefusalTexts): string {
  if (target.kind === 'none') return words.refused(target.expects);
  return words.refused(words.expected(target.label));
}

export function createTargets(texts: RefusalTexts): Targets {
  let nextId = 1;
  const registrations: Registration[] = [];
  /** The registration whose field was last given the focus (null: give it again). */
  let focusedFor: number | null = null;
  let focusPending = false;

  function currentRegistration(): Registration | undefined {
    return (
      registrations.findLast((r) => r.level === 'dialog') ??
      registrations.findLast((r) => r.level === 'screen')
    );
  }

  /**
   * The focus follows the target: each time another target becomes current, its field is focused — once the
   * screen's whole change is done (one target goes and the next comes in the same render), so no field in
   * between gets the focus for a moment.
   */
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

  return {
    current: () => currentRegistration()?.target ?? { kind: 'none', expects: texts.nothingHere },
    registerTarget(target, level = 'screen') {
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
    },
    refocusTarget() {
      focusedFor = null;
      focusSoon();
    },
  };
}
