/**
 * What a worker notices without looking (issue 8): a short high double beep and one short buzz when a scan
 * went through, a low long tone and three buzzes when it was refused. Web Audio, no sound files. Every error
 * the banner shows counts as a refusal; a scan whose answer came without one counts as a success
 * (ScanField). Browsers only play sound after the first key or tap on the page — a scanner's first keystroke
 * is one.
 */
export interface FeedbackSettings {
  sound: boolean;
  /** 0–1. */
  volume: number;
  vibration: boolean;
}

export const DEFAULT_FEEDBACK: FeedbackSettings = { sound: true, volume: 0.6, vibration: true };

/** Tones as [frequency Hz, start s, length s]; vibration as navigator.vibrate patterns (ms). */
const SUCCESS = {
  tones: [
    [1760, 0, 0.07],
    [2349, 0.09, 0.09],
  ],
  vibrate: [60],
} as const;
export const ERROR = { tones: [[220, 0, 0.45]], vibrate: [180, 90, 180, 90, 180] } as const;

type Tones = readonly (readonly [number, number, number])[];

let settings: FeedbackSettings = DEFAULT_FEEDBACK;
let audio: AudioContext | null = null;
let errorsSignalled = 0;

export function setFeedbackSettings(next: FeedbackSettings): void {
  settings = next;
}

/** The tones as oscillators into `context`, from `at` (s), at `volume`. */
function scheduleTones(
  context: BaseAudioContext,
  tones: Tones,
  type: OscillatorType,
  volume: number,
  at: number,
) {
  for (const [frequency, start, length] of tones) {
    const oscillator = context.createOscillator();
    const gain = context.createGain();
    oscillator.type = type;
    oscillator.frequency.value = frequency;
    // A short fade in and out: no click at either end.
    gain.gain.setValueAtTime(0, at + start);
    gain.gain.linearRampToValueAtTime(volume, at + start + 0.01);
    gain.gain.setValueAtTime(volume, at + start + length - 0.02);
    gain.gain.linearRampToValueAtTime(0, at + start + length);
    oscillator.connect(gain).connect(context.destination);
    oscillator.start(at + start);
    oscillator.stop(at + start + length);
  }
}

/**
 * Each sound at each volume, rendered once into a buffer (the same oscillators, offline): played from it, a
 * beep is one node instead of four nodes and eight ramps built at every scan — on a handheld's CPU that was
 * 2–3 ms between a scan's answer and its screen (bench, 4× throttled). Until it is rendered, the
 * oscillators play live.
 */
const rendered = new Map<string, AudioBuffer | 'rendering'>();

function renderOnce(key: string, tones: Tones, type: OscillatorType, volume: number, sampleRate: number) {
  if (rendered.has(key) || typeof OfflineAudioContext === 'undefined') return;
  const seconds = Math.max(...tones.map(([, start, length]) => start + length));
  const offline = new OfflineAudioContext(1, Math.ceil(seconds * sampleRate), sampleRate);
  scheduleTones(offline, tones, type, volume, 0);
  rendered.set(key, 'rendering');
  offline.startRendering().then(
    (buffer) => rendered.set(key, buffer),
    () => {}, // stays 'rendering': the live oscillators go on playing it
  );
}

function play(name: string, tones: Tones, type: OscillatorType): void {
  if (!settings.sound || settings.volume <= 0 || typeof AudioContext === 'undefined') return;
  try {
    audio ??= new AudioContext();
    if (audio.state === 'suspended') void audio.resume();
    const key = `${name}@${settings.volume}`;
    const buffer = rendered.get(key);
    if (buffer instanceof AudioBuffer) {
      const source = audio.createBufferSource();
      source.buffer = buffer;
      source.connect(audio.destination);
      source.start();
      return;
    }
    scheduleTones(audio, tones, type, settings.volume, audio.currentTime);
    renderOnce(key, tones, type, settings.volume, audio.sampleRate);
  } catch {
    // No audio device or a browser that refuses: the screen still says it.
  }
}

function vibrate(pattern: readonly number[]): void {
  if (settings.vibration && typeof navigator.vibrate === 'function') navigator.vibrate([...pattern]);
}

export const feedback = {
  success(): void {
    play('success', SUCCESS.tones, 'sine');
    vibrate(SUCCESS.vibrate);
  },
  error(): void {
    errorsSignalled++;
    play('error', ERROR.tones, 'square');
    vibrate(ERROR.vibrate);
  },
  /** How many errors were signalled so far: a scan compares it before and after its answer. */
  get errorCount(): number {
    return errorsSignalled;
  },
};
