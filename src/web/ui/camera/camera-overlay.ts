import { type CameraTexts, cameraBlocked, cameraProblem } from './camera-problem.ts';
import { createCodeReader } from './detect.ts';
import './camera-overlay.css';

/** Pause between two looks at the video: quick enough to feel instant, slow enough to spare a phone's battery. */
const FRAME_INTERVAL_MS = 100;

interface CameraHandlers {
  /** The first code read; the overlay is closed and the camera released already. */
  onCode: (text: string) => void;
  /** Closed with 'Abbrechen' or Escape. */
  onCancel: () => void;
}

/**
 * Opens the rear camera full screen and reads its frames until a code shows up. Loaded by ScanField only when
 * its camera button is pressed. Plain DOM, not React, and the texts handed in: this module imports nothing
 * the app has loaded already, so adding it left the app's own chunks as they were. Returns `close` (for a
 * screen that goes away meanwhile); however it closes, the camera is released.
 */
export function openCamera(words: CameraTexts, handlers: CameraHandlers): () => void {
  const overlay = element('div', 'camera');
  overlay.setAttribute('role', 'dialog');
  overlay.setAttribute('aria-modal', 'true');
  overlay.setAttribute('aria-label', words.open);
  const video = element('video', 'camera-video');
  video.muted = true;
  video.playsInline = true;
  const aim = element('div', 'camera-aim');
  aim.hidden = true;
  const status = element('p', 'camera-message', words.starting);
  status.setAttribute('role', 'status');
  const problem = element('p', 'camera-message camera-message--problem');
  problem.setAttribute('role', 'alert');
  problem.hidden = true;
  const cancel = element('button', 'button camera-cancel', words.cancel);
  cancel.type = 'button';
  overlay.append(video, aim, status, problem, cancel);
  document.body.append(overlay);
  cancel.focus();

  let released = false;
  let stream: MediaStream | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const release = () => {
    released = true;
    clearTimeout(timer);
    for (const track of stream?.getTracks() ?? []) track.stop();
    video.srcObject = null;
  };
  const close = () => {
    release();
    window.removeEventListener('keydown', onKey, { capture: true });
    overlay.remove();
  };
  const cancelled = () => {
    close();
    handlers.onCancel();
  };
  const onKey = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    event.stopPropagation();
    cancelled();
  };
  window.addEventListener('keydown', onKey, { capture: true });
  cancel.addEventListener('click', cancelled);

  const showProblem = (text: string) => {
    release();
    aim.hidden = true;
    status.hidden = true;
    problem.hidden = false;
    problem.textContent = text;
  };
  const fail = (error: unknown) => {
    if (!released) showProblem(cameraProblem(error, words));
  };

  const start = async () => {
    const blocked = cameraBlocked(words);
    if (blocked) return showProblem(blocked);
    const reader = createCodeReader();
    reader.catch(() => {}); // awaited below, once the camera runs
    stream = await navigator.mediaDevices.getUserMedia({
      video: { facingMode: { ideal: 'environment' }, width: { ideal: 1280 }, height: { ideal: 720 } },
      audio: false,
    });
    if (released) return release(); // closed while the browser asked for permission
    video.srcObject = stream;
    await video.play();
    const codes = await reader;
    if (released) return;
    aim.hidden = false;
    status.textContent = words.hint;
    const look = async () => {
      if (released) return;
      if (video.readyState >= HTMLMediaElement.HAVE_CURRENT_DATA) {
        const text = await codes.read(video);
        if (released) return;
        if (text !== null) {
          close();
          handlers.onCode(text);
          return;
        }
      }
      timer = setTimeout(() => void look().catch(fail), FRAME_INTERVAL_MS);
    };
    await look();
  };
  void start().catch(fail);

  return close;
}

function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className: string,
  text?: string,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}
