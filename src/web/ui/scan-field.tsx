import {
  forwardRef,
  type KeyboardEvent,
  useEffect,
  useId,
  useImperativeHandle,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { hasForbiddenControlCharacter, scanLimits } from '../../contract/limits.ts';
import { texts } from '../../contract/texts.ts';
import { createKeyBurst } from '../scan/key-burst.ts';
import { holdKeysWhile, isReplayed, pressedAt, refocusTarget, SCAN_ATTRIBUTE } from '../scan/router.ts';
import { useScanTarget } from '../scan/use-scan-target.ts';
import { afterNextPaint, afterRenderPainted, type PaintTimes } from './after-paint.ts';
import { useBanner } from './banner.tsx';
import { feedback } from './feedback.ts';
import { doubleReadWindowMs, normalizeScan } from './scan-settings.ts';

/** What a scan field reads of a contract's text schema (a zod string: `text()`, `scanText()`). */
export interface TextField {
  readonly maxLength: number | null;
}

interface ScanFieldProps {
  label: string;
  /**
   * Called with the trimmed text when the scanner (or a person) presses Enter. Empty input is ignored. When it
   * returns a promise (the lookup), the time from Enter until its answer is on screen is measured.
   */
  onScan: (text: string) => unknown;
  /**
   * The screen's current scan target (src/web/scan): a scanner's code goes here wherever the focus is, and
   * the field gets the focus when it becomes the target. Other fields take a scan only when focused.
   */
  current: boolean;
  placeholder?: string;
  invalid?: boolean;
  disabled?: boolean;
  inputMode?: 'text' | 'numeric';
  /**
   * The contract's schema of the text this field sends (`captureTransporter.body.shape.kennzeichen`): a scan
   * longer than it takes is refused at once, naming the field. Without one: any code (`scanText()`).
   */
  field?: TextField;
  /** A card's text: shown as dots. */
  secret?: boolean;
  /** The field lost the focus with this text (a value typed and left counts as given). */
  onLeave?: (text: string) => void;
}

/**
 * The field a barcode scanner types into. It stays enabled while a lookup runs (a disabled field would
 * drop the next scan's keystrokes) and submits on Enter; the text is kept until the caller clears it.
 */
export const ScanField = forwardRef<
  HTMLInputElement,
  ScanFieldProps & { value?: string; onChange?: (v: string) => void }
>(function ScanField(
  {
    label,
    onScan,
    current,
    placeholder,
    invalid,
    disabled,
    inputMode = 'text',
    field,
    secret = false,
    onLeave,
    value,
    onChange,
  },
  ref,
) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const banner = useBanner();
  useImperativeHandle(ref, () => input.current as HTMLInputElement, []);
  useScanTarget(current ? { kind: 'field', label, input: () => input.current } : null);
  const lastScan = useRef<{ text: string; at: number } | null>(null);
  /** When a render of this field was last committed, or the field removed: a scan's answer is then on its way to the screen. */
  const committed = useRef(Number.NEGATIVE_INFINITY);
  useLayoutEffect(() => () => {
    committed.current = performance.now();
  });
  const [ownValue, setOwnValue] = useState('');
  const [cameraLoadFailed, setCameraLoadFailed] = useState(false);
  /** The open camera's `close`, or 'loading' while its code loads. */
  const camera = useRef<(() => void) | 'loading' | null>(null);
  useEffect(
    () => () => {
      // The screen went away: release the camera (or do not open it once loaded).
      if (typeof camera.current === 'function') camera.current();
      camera.current = null;
    },
    [],
  );
  const text = value ?? ownValue;
  const setText = onChange ?? setOwnValue;
  /** A code read at `pressed` (when Enter was pressed, or the camera saw it). */
  const submit = (raw: string, pressed: number) => {
    const handled = performance.now();
    const trimmed = normalizeScan(raw);
    if (trimmed === '') return;
    const maxLength = field?.maxLength ?? scanLimits.code;
    setCameraLoadFailed(false);
    // Checked at the scan, not at the server: the worker learns at once, with the field named.
    const problem =
      trimmed.length > maxLength
        ? texts.errors.input.tooLong(label, maxLength)
        : hasForbiddenControlCharacter(trimmed)
          ? texts.errors.input.controlCharacter(label)
          : null;
    if (problem) {
      banner.showError(texts.scan.refused(problem));
      setText('');
      return;
    }
    const previous = lastScan.current;
    const doubleRead =
      previous?.text === trimmed && pressed - previous.at < doubleReadWindowMs() && lastTap < previous.at;
    if (doubleRead) {
      setText('');
      return;
    }
    lastScan.current = { text: trimmed, at: pressed };
    const errorsBefore = feedback.errorCount;
    const answer = onScan(trimmed);
    if (answer instanceof Promise) {
      // The next code's keystrokes wait for this answer and go to the field the screen moves on to.
      if (input.current) holdKeysWhile(answer, input.current, afterNextPaint);
      void answer.then(() => {
        const answered = performance.now();
        // Answered without an error in the banner: the scan went through.
        if (feedback.errorCount === errorsBefore) feedback.success();
        measureFeedback(pressed, handled, answered, () =>
          committed.current > answered ? committed.current : null,
        );
        if (!current) refocusTarget();
      });
    } else if (!current) refocusTarget();
  };
  const burst = useRef(createKeyBurst());
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const at = pressedAt(event.nativeEvent);
    if (event.key.length === 1) {
      burst.current.add(at);
      return;
    }
    // A scanner ends a code with Enter, or with Tab where it is set up so. A Tab right after a burst of keys
    // (or held during a lookup) is such a scanner's; a person's Tab moves on to the next control.
    const scannerTab =
      event.key === 'Tab' &&
      !event.shiftKey &&
      event.currentTarget.value.trim() !== '' &&
      (isReplayed(event.nativeEvent) || burst.current.endsScan(at));
    if (event.key !== 'Enter' && !scannerTab) return;
    event.preventDefault();
    // When the key was pressed, not when this handler got to run: keystrokes still queued or held count too.
    submit(event.currentTarget.value, pressedAt(event.nativeEvent));
  };
  // The camera's code goes the scanner's way: into the field, then as if Enter had been pressed — with the
  // handlers of the latest render (the screen may have changed while the camera looked).
  const onCameraCode = useRef((_code: string) => {});
  onCameraCode.current = (code: string) => {
    setText(code);
    input.current?.focus();
    submit(code, performance.now());
  };
  const openCamera = () => {
    if (camera.current) return; // a second tap while it opens
    camera.current = 'loading';
    setCameraLoadFailed(false);
    import('./camera/camera-overlay.ts').then(
      ({ openCamera }) => {
        if (camera.current !== 'loading') return;
        camera.current = openCamera(texts.camera, {
          onCode: (code) => {
            camera.current = null;
            onCameraCode.current(code);
          },
          onCancel: () => {
            camera.current = null;
            input.current?.focus();
          },
        });
      },
      () => {
        if (camera.current !== 'loading') return;
        camera.current = null;
        setCameraLoadFailed(true);
      },
    );
  };
  return (
    <div className={`field${invalid ? ' field--invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      <div className="scan-row">
        <input
          ref={input}
          id={id}
          className="scan-input"
          type={secret ? 'password' : 'text'}
          {...{ [SCAN_ATTRIBUTE]: 'scan' }}
          value={text}
          placeholder={placeholder}
          autoComplete="off"
          autoCorrect="off"
          autoCapitalize="off"
          spellCheck={false}
          enterKeyHint="enter"
          inputMode={inputMode}
          aria-invalid={invalid || undefined}
          disabled={disabled}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
          onBlur={onLeave && ((e) => onLeave(e.currentTarget.value))}
        />
        {cameraPossible() && (
          // Out of the tab order: the input stays the keyboard's (and the hardware scanner's) target.
          <button
            type="button"
            className="icon-button camera-button"
            aria-label={texts.camera.open}
            tabIndex={-1}
            disabled={disabled}
            onClick={openCamera}
          >
            <CameraIcon />
          </button>
        )}
      </div>
      {cameraLoadFailed && (
        <p className="field-problem" role="alert">
          {texts.camera.loadFailed}
        </p>
      )}
    </div>
  );
});

/**
 * Where a camera can be asked for, or where the page is plain http: there browsers hide the camera, and
 * the button says why (https needed) instead of leaving a phone without one.
 */
function cameraPossible(): boolean {
  return (
    typeof navigator !== 'undefined' && (!!navigator.mediaDevices?.getUserMedia || !window.isSecureContext)
  );
}

function CameraIcon() {
  return (
    <svg viewBox="0 0 24 24" width="26" height="26" aria-hidden="true" focusable="false">
      <path
        d="M4 7h3l2-3h6l2 3h3a1 1 0 0 1 1 1v11a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1V8a1 1 0 0 1 1-1z"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinejoin="round"
      />
      <circle cx="12" cy="13" r="4" fill="none" stroke="currentColor" strokeWidth="2" />
    </svg>
  );
}

/**
 * A scanner that reads a code twice (a double read: the same code again within the device setting's window,
 * 300 ms unless changed) must count once — in package content a double read would pack two pieces. Per field: the same code in the next
 * field (a location as source, then as target) is a new scan, however fast; and a tap in between (an option
 * chosen after a refusal) makes the same code in the same field a new scan too.
 */
let lastTap = Number.NEGATIVE_INFINITY;
if (typeof window !== 'undefined') {
  window.addEventListener(
    'pointerdown',
    (event) => {
      lastTap = event.timeStamp;
    },
    { capture: true },
  );
}

/** The name of the user-timing measure from a scan's Enter to its answer painted (read by `npm run bench`). */
export const SCAN_TO_FEEDBACK = 'scan-to-feedback';

/**
 * When a scan's steps ran (`performance.now()`), the measure's `detail`: its Enter handled (`pressed` is when
 * the key was pressed: a busy page handles it later), its answer on the screen's state (the call, and what
 * the screen made of its answer, done), then `PaintTimes`. The bench splits the time by them.
 */
export interface ScanSteps extends PaintTimes {
  handled: number;
  answered: number;
}

/**
 * Measures once the answer is painted: after the first frame that follows the render of the answer (`committedAt`:
 * the field's own commit after it, as the screen re-renders it or takes it away; else the first task after it).
 */
function measureFeedback(
  pressed: number,
  handled: number,
  answered: number,
  committedAt: () => number | null,
): void {
  afterRenderPainted(committedAt, (painting) => {
    if (performance.getEntriesByName(SCAN_TO_FEEDBACK).length >= 1000)
      performance.clearMeasures(SCAN_TO_FEEDBACK);
    const detail: ScanSteps = { handled, answered, ...painting };
    performance.measure(SCAN_TO_FEEDBACK, { start: pressed, end: performance.now(), detail });
  });
}

/** A looked-up value, locked, with an X to clear it (SPEC §4, rebooking form; the same in Inventur). */
export function LockedValue({
  label,
  value,
  onClear,
}: {
  label: string;
  value: string;
  onClear: () => void;
}) {
  return (
    <div className="field">
      <span className="field-label">{label}</span>
      <div className="locked">
        <span className="locked-value">{value}</span>
        <button
          type="button"
          className="icon-button"
          aria-label={texts.app.clearField(label)}
          onClick={onClear}
        >
          ✕
        </button>
      </div>
    </div>
  );
}
