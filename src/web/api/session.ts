import { isRole, type Role } from '../../contract/roles.ts';
import { coreTexts as texts } from '../../contract/texts-core.ts';
import { DEVICE_LANGUAGE_KEY } from '../state/language.ts';
import { ApiError } from './client.ts';

/** The login as the spec stores it (SPEC §3): three localStorage keys, and ours for the role (DESIGN §9). */
const STORAGE_KEYS = {
  token: 'vmAccessKey',
  name: 'vmUserName',
  id: 'vmUserID',
  role: 'lagerscannerRolle',
} as const;

/** The device's own settings (ui/device-settings.ts): not part of the login, kept when it is cleared. */
export const DEVICE_SETTINGS_KEY = 'lagerscannerGeraet';

export interface StoredSession {
  token: string;
  name: string;
  id: number;
  /** Only what the menu shows: the server checks the role on every call. */
  role: Role;
}

export function readSession(): StoredSession | null {
  const token = localStorage.getItem(STORAGE_KEYS.token);
  if (!token) return null;
  return {
    token,
    name: localStorage.getItem(STORAGE_KEYS.name) ?? '',
    id: Number(localStorage.getItem(STORAGE_KEYS.id) ?? 0),
    role: roleOf(localStorage.getItem(STORAGE_KEYS.role)),
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
  localStorage.setItem(STORAGE_KEYS.role, session.role);
}

/** A login stored before roles existed (or edited by hand) shows the worker's menu. */
function roleOf(stored: string | null): Role {
  return isRole(stored) ? stored : 'mitarbeiter';
}

/**
 * Forgets the login: clears local storage (SPEC §3) but puts the device's own settings and language back —
 * they belong to the handheld, not to the worker (ui/device-settings.ts, state/language.ts).
 */
export function clearSession(): void {
  const kept = [DEVICE_SETTINGS_KEY, DEVICE_LANGUAGE_KEY].map(
    (key) => [key, localStorage.getItem(key)] as const,
  );
  localStorage.clear();
  for (const [key, value] of kept) if (value !== null) localStorage.setItem(key, value);
}
