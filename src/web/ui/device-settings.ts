import { DEVICE_SETTINGS_KEY } from '../api/session.ts';
import { DEFAULT_FEEDBACK, type FeedbackSettings, setFeedbackSettings } from './feedback.ts';
import { DEFAULT_SCAN_SETTINGS, type ScanSettings, setScanSettings } from './scan-settings.ts';

/**
 * What belongs to the handheld, not to whoever is logged in (issue 8): sound, volume, vibration and a name
 * for the device. Kept in localStorage under its own key — and kept when a logout or a 401 clears the
 * login (session.ts), so the next worker on the same device finds it as it was set.
 */
export interface DeviceSettings extends FeedbackSettings, ScanSettings {
  deviceName: string;
  /** This station's label printer, by name, for 'Etikett drucken' (issue 21); '' none chosen. */
  printer: string;
}

export const DEFAULT_DEVICE_SETTINGS: DeviceSettings = {
  ...DEFAULT_FEEDBACK,
  ...DEFAULT_SCAN_SETTINGS,
  deviceName: '',
  printer: '',
};

/** The stored settings; anything missing or damaged falls back to its default. */
export function readDeviceSettings(): DeviceSettings {
  let stored: Partial<Record<keyof DeviceSettings, unknown>> = {};
  try {
    stored = JSON.parse(localStorage.getItem(DEVICE_SETTINGS_KEY) ?? '{}') ?? {};
  } catch {
    stored = {};
  }
  const d = DEFAULT_DEVICE_SETTINGS;
  const volume = Number(stored.volume);
  const doubleReadMs = Number(stored.doubleReadMs);
  const text = (key: 'prefix' | 'suffix' | 'groupSeparatorAs' | 'deviceName' | 'printer') =>
    typeof stored[key] === 'string' ? (stored[key] as string).slice(0, key === 'printer' ? 50 : 40) : d[key];
  return {
    sound: typeof stored.sound === 'boolean' ? stored.sound : d.sound,
    volume: Number.isFinite(volume) && volume >= 0 && volume <= 1 ? volume : d.volume,
    vibration: typeof stored.vibration === 'boolean' ? stored.vibration : d.vibration,
    deviceName: text('deviceName'),
    printer: text('printer'),
    prefix: text('prefix'),
    suffix: text('suffix'),
    groupSeparatorAs: text('groupSeparatorAs'),
    doubleReadMs:
      Number.isInteger(doubleReadMs) && doubleReadMs >= 0 && doubleReadMs <= 2000
        ? doubleReadMs
        : d.doubleReadMs,
  };
}

export function saveDeviceSettings(settings: DeviceSettings): void {
  localStorage.setItem(DEVICE_SETTINGS_KEY, JSON.stringify(settings));
  applyDeviceSettings(settings);
}

/** Puts the stored settings to work (at start and after each change). */
export function applyDeviceSettings(settings: DeviceSettings = readDeviceSettings()): void {
  setFeedbackSettings(settings);
  setScanSettings(settings);
}
