import { coreTexts as texts } from '../../contract/texts-core.ts';
import { connection } from '../state/connection.ts';
import { createClient } from './client.ts';
import { clearSession, readSession } from './session.ts';

const baseUrl = (import.meta.env.VITE_API_BASE as string | undefined) ?? '';

/** What every screen does on a 401 that is not a scan: tell, forget the login, start over. */
function onUnauthorized() {
  window.alert(texts.errors.noLogin);
  clearSession();
  window.location.reload();
}

const shared = {
  baseUrl,
  timeoutMs: 5000,
  retries: 4,
  getToken: () => readSession()?.token ?? null,
  onUnauthorized,
  connection,
};

/** The client every screen uses. */
export const api = createClient({ ...shared, withCsrf: false });
/** The second client (login, logout): with X-Requested-With, credentials and the CSRF token. */
export const sessionApi = createClient({ ...shared, withCsrf: true });
