/** The login as the spec stores it (SPEC §3): three localStorage keys. */
export const STORAGE_KEYS = { token: 'vmAccessKey', name: 'vmUserName', id: 'vmUserID' } as const;

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

export function storeSession(session: StoredSession): void {
  localStorage.setItem(STORAGE_KEYS.token, session.token);
  localStorage.setItem(STORAGE_KEYS.name, session.name);
  localStorage.setItem(STORAGE_KEYS.id, String(session.id));
}

export function clearSession(): void {
  localStorage.clear();
}
