import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { registerServiceWorker } from './app/app-update.ts';
import { installScanRouter } from './scan/router.ts';
import { switchLanguage, wantedLanguage } from './state/language.ts';
import { applyDeviceSettings } from './ui/device-settings.ts';
import './styles.css';

applyDeviceSettings(); // sound and vibration as this device was set
// Every key passes the scan router first (decision 13); it holds them until the app has mounted (ScanRouting).
installScanRouter(window);
// Only the built app has a service worker (`vite dev` serves modules that change at every edit).
if (import.meta.env.PROD) void registerServiceWorker().catch((error: unknown) => console.warn(error));

const root = document.getElementById('root');
if (!root) throw new Error('#root missing in index.html');
// The first screen shows in the language it should (the logged-in worker's after a reload): its catalogue first.
void switchLanguage(wantedLanguage()).then(() =>
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
