import { coreTexts as texts } from '../../contract/texts-core.ts';
import { useConnected } from '../state/connection.ts';
import { applyUpdate, useUpdateWaiting } from './app-update.ts';

/**
 * Under the header of every screen: 'no connection' while the server cannot be reached (so a scan in a dead
 * spot is not a mystery), and — only where no booking is under way (`offerUpdate`: the menus and the login) —
 * the button that loads a waiting new version.
 */
export function AppStatus({
  offerUpdate,
  offline = 'general',
}: {
  offerUpdate: boolean;
  /** What the screen does without a connection: keeps scans, waits for the network, or (menus) both. */
  offline?: 'capture' | 'online-only' | 'general';
}) {
  const connected = useConnected();
  const updateWaiting = useUpdateWaiting();
  return (
    <>
      {!connected && (
        <p className="offline" aria-live="polite">
          {offline === 'capture'
            ? texts.app.offlineCapture
            : offline === 'online-only'
              ? texts.app.offline
              : texts.app.offlineMenu}
        </p>
      )}
      {offerUpdate && updateWaiting && (
        <button type="button" className="update-button" onClick={applyUpdate}>
          {texts.app.newVersion}
        </button>
      )}
    </>
  );
}
