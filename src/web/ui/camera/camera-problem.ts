import type { texts } from '../../../contract/texts.ts';

/** The camera's German texts, handed in by ScanField (so this lazily loaded module imports nothing of the app). */
export type CameraTexts = typeof texts.camera;

/** Why the camera cannot even be asked for (German), or null. Browsers offer it only to https pages. */
export function cameraBlocked(words: CameraTexts): string | null {
  if (!window.isSecureContext) return words.insecure;
  if (!navigator.mediaDevices?.getUserMedia) return words.failed;
  return null;
}

/** What the worker is told when opening the camera failed (getUserMedia's errors, or the decoder not loading). */
export function cameraProblem(error: unknown, words: CameraTexts): string {
  switch (error instanceof Error || error instanceof DOMException ? error.name : '') {
    case 'NotAllowedError': // refused now or earlier, by the worker or a device policy
    case 'SecurityError':
      return words.denied;
    case 'NotFoundError':
    case 'OverconstrainedError':
      return words.missing;
    case 'NotReadableError': // another app holds it
    case 'AbortError':
      return words.busy;
    default:
      return words.failed;
  }
}
