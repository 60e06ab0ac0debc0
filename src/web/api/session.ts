import { texts } from '../../contract/texts.ts';
import { ApiError } from './client.ts';

/** The login as the spec stores it (SPEC §3): three localStorage keys. */
export const STORAGE_KEYS = { token: 'vmAccessKey', name: 'vmUserName', id: 'vmUserID' } as const;

/** The device's own settings (ui/device-settings.ts): not part of the login, kept when it is cleared. */
export const DEVICE_SETTINGS_KEY = 'lagerscannerGeraet';

export interface StoredSession {
  token: string;
  name: string;
  id: number;
}

export function readSession(): StoredSession | null {
  const token = localStorage.getItem(STORAGE_KEYS.token);
  if (!token) return null;
  return {
    token,
    name: localStorage.getItem(STORAGE_KEYS.name) ?? '',
    id: Number(localStorage.getItem(STORAGE_KEYS.id) ?? 0),
  };
}

/**
 * The logged-in worker, for a body whose contract names them (SPEC §7's `user_id`; the server books with the
 * session's user). A screen is only shown logged in; should the login be gone, the scan is refused as a 401
 * would refuse it.
 */
export function requireSession(): StoredSession {
  const session = readSession();
  if (!session) throw new ApiError(401, texts.errors.scanNotSaved);
  return session;
}

export function storeSession(session: StoredSession): void {
  localStorage.setItem(STORAGE_KEYS.token, session.token);
  localStorage.setItem(STORAGE_KEYS.name, session.name);
  localStorage.setItem(STORAGE_KEYS.id, String(session.id));
}

/**
 * Forgets the login: clears local storage (SPEC §3) but puts the device's own settings back — they belong
 * to the handheld, not to the worker (ui/device-settings.ts).
 */
export function clearSession(): void {
  const device = localStorage.getItem(DEVICE_SETTINGS_KEY);
  localStorage.clear();
  if (device !== null) localStorage.setItem(DEVICE_SETTINGS_KEY, device);
}
