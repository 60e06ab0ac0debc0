import { texts } from '../../contract/texts.ts';
import { useConnected } from '../state/connection.ts';
import { applyUpdate, useUpdateWaiting } from './app-update.ts';

/**
 * Under the header of every screen: 'no connection' while the server cannot be reached (so a scan in a dead
 * spot is not a mystery), and — only where no booking is under way (`offerUpdate`: the menus and the login) —
 * the button that loads a waiting new version.
 */
export function AppStatus({ offerUpdate }: { offerUpdate: boolean }) {
  const connected = useConnected();
  const updateWaiting = useUpdateWaiting();
  return (
    <>
      {!connected && (
        <p className="offline" aria-live="polite">
          {texts.app.offline}
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
