import { describe, expect, it } from 'vitest';
import { texts } from '../../../contract/texts.ts';
import { cameraProblem } from './camera-problem.ts';

describe('what the worker is told when the camera does not start', () => {
  const told = (name: string) => cameraProblem(new DOMException('from the browser', name), texts.camera);

  it('names a refused permission, a missing camera and a camera in use', () => {
    expect(told('NotAllowedError')).toBe(texts.camera.denied);
    expect(told('SecurityError')).toBe(texts.camera.denied);
    expect(told('NotFoundError')).toBe(texts.camera.missing);
    expect(told('NotReadableError')).toBe(texts.camera.busy);
  });

  it('falls back to the keyboard for anything else (the decoder not loading, say)', () => {
    expect(cameraProblem(new TypeError('Failed to fetch'), texts.camera)).toBe(texts.camera.failed);
    expect(cameraProblem('?', texts.camera)).toBe(texts.camera.failed);
  });
});
