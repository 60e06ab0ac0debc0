import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';
import { clearSession, readSession, type StoredSession, storeSession } from '../api/session.ts';
import { deviceLanguage, switchLanguage } from '../state/language.ts';

interface SessionApi {
  session: StoredSession | null;
  logIn(session: StoredSession): void;
  logOut(): void;
}

const SessionContext = createContext<SessionApi | null>(null);

/** Logged in = an access key is stored (SPEC §4). */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [session, setSession] = useState<StoredSession | null>(readSession);
  const logIn = useCallback((next: StoredSession) => {
    storeSession(next);
    setSession(next);
  }, []);
  const logOut = useCallback(() => {
    clearSession();
    setSession(null);
    // Back to the device's choice: loaded already (at start or by its switch), so no frame in the worker's.
    void switchLanguage(deviceLanguage());
  }, []);
  const api = useMemo(() => ({ session, logIn, logOut }), [session, logIn, logOut]);
  return <SessionContext.Provider value={api}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionApi {
  const api = useContext(SessionContext);
  if (!api) throw new Error('useSession outside SessionProvider');
  return api;
}
