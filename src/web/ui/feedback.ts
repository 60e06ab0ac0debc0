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
export const SUCCESS = {
  tones: [
    [1760, 0, 0.07],
    [2349, 0.09, 0.09],
  ],
  vibrate: [60],
} as const;
export const ERROR = { tones: [[220, 0, 0.45]], vibrate: [180, 90, 180, 90, 180] } as const;

let settings: FeedbackSettings = DEFAULT_FEEDBACK;
let audio: AudioContext | null = null;
let errorsSignalled = 0;

export function setFeedbackSettings(next: FeedbackSettings): void {
  settings = next;
}

function play(tones: readonly (readonly [number, number, number])[], type: OscillatorType): void {
  if (!settings.sound || settings.volume <= 0 || typeof AudioContext === 'undefined') return;
  try {
    audio ??= new AudioContext();
    if (audio.state === 'suspended') void audio.resume();
    const now = audio.currentTime;
    for (const [frequency, start, length] of tones) {
      const oscillator = audio.createOscillator();
      const gain = audio.createGain();
      oscillator.type = type;
      oscillator.frequency.value = frequency;
      // A short fade in and out: no click at either end.
      gain.gain.setValueAtTime(0, now + start);
      gain.gain.linearRampToValueAtTime(settings.volume, now + start + 0.01);
      gain.gain.setValueAtTime(settings.volume, now + start + length - 0.02);
      gain.gain.linearRampToValueAtTime(0, now + start + length);
      oscillator.connect(gain).connect(audio.destination);
      oscillator.start(now + start);
      oscillator.stop(now + start + length);
    }
  } catch {
    // No audio device or a browser that refuses: the screen still says it.
  }
}

function vibrate(pattern: readonly number[]): void {
  if (settings.vibration && typeof navigator.vibrate === 'function') navigator.vibrate([...pattern]);
}

export const feedback = {
  success(): void {
    play(SUCCESS.tones, 'sine');
    vibrate(SUCCESS.vibrate);
  },
  error(): void {
    errorsSignalled++;
    play(ERROR.tones, 'square');
    vibrate(ERROR.vibrate);
  },
  /** How many errors were signalled so far: a scan compares it before and after its answer. */
  get errorCount(): number {
    return errorsSignalled;
  },
};
