import { coreTexts as texts } from '../../contract/texts-core.ts';
import { connection } from '../state/connection.ts';
import { createClient } from './client.ts';
import { clearSession, readSession } from './session.ts';

const baseUrl = (import.meta.env.VITE_API_BASE as string | undefined) ?? '';

/**
 * The one answer to a 401 that is not a scan, on the handheld and in the Leitstand: tell, forget the login,
 * start over at the login screen. A 401 mid-shift means the login is gone (logged out on another device,
 * deactivated, purged), so every further call would be refused too; a screen that stayed would only collect
 * refusals. What the worker entered is kept where it matters: a scan or booking (`on401: 'scan'`) never comes
 * here — it keeps its form and says 'Scan wurde nicht gespeichert - melde dich neu an!', so the same scan can
 * be sent again under the same key after logging in (api/action-key.ts).
 */
export function onUnauthorized() {
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
