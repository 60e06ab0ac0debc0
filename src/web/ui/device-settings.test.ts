// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { clearSession, DEVICE_SETTINGS_KEY, storeSession } from '../api/session.ts';
import { DEFAULT_DEVICE_SETTINGS, readDeviceSettings, saveDeviceSettings } from './device-settings.ts';

describe('the device settings', () => {
  beforeEach(() => localStorage.clear());

  it('falls back to the defaults for anything missing or damaged', () => {
    expect(readDeviceSettings()).toEqual(DEFAULT_DEVICE_SETTINGS);
    localStorage.setItem(DEVICE_SETTINGS_KEY, '{not json');
    expect(readDeviceSettings()).toEqual(DEFAULT_DEVICE_SETTINGS);
    localStorage.setItem(
      DEVICE_SETTINGS_KEY,
      JSON.stringify({
        sound: 'ja',
        volume: 7,
        vibration: false,
        doubleReadMs: -1,
        prefix: 42,
        deviceName: 'S3',
      }),
    );
    expect(readDeviceSettings()).toEqual({ ...DEFAULT_DEVICE_SETTINGS, vibration: false, deviceName: 'S3' });
  });

  it('stay on the device when the login is cleared (logout, 401)', () => {
    saveDeviceSettings({ ...DEFAULT_DEVICE_SETTINGS, sound: false, doubleReadMs: 500, suffix: '$' });
    storeSession({ token: 't', name: 'Demo Nutzer', id: 1, role: 'mitarbeiter' });
    clearSession();
    expect(localStorage.getItem('vmAccessKey')).toBeNull();
    expect(readDeviceSettings()).toMatchObject({ sound: false, doubleReadMs: 500, suffix: '$' });
  });
});
