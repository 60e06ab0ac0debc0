import { Fragment, lazy, type ReactNode, Suspense, useEffect, useState } from 'react';
import { Link, Route, Routes, useLocation } from 'react-router';
import { coreTexts as texts } from '../../contract/texts-core.ts';
import { sessionApi } from '../api/api.ts';
import { loadAuthContract } from '../api/auth-contract.ts';
import { outbox, useOutboxEntries } from '../api/outbox/index.ts';
import { paths, type ScreenName, screens } from '../paths.ts';
import { useShownLanguage } from '../state/language.ts';
import { PackingProvider, usePackingStep } from '../state/packing.tsx';
import { Banner, BannerProvider } from '../ui/banner.tsx';
import { ConfirmDialog } from '../ui/confirm-dialog.tsx';
import { AppStatus } from './app-status.tsx';
import { LoginScreen } from './login-screen.tsx';
import { BetaMenu, MainMenu, NotFound } from './menus.tsx';
import { OutboxBadge } from './outbox-badge.tsx';
import { ScanRouting } from './scan-routing.tsx';
import { AppRouter, ScreenCode } from './screen-routing.tsx';
import { SessionProvider, useSession } from './session.tsx';

const InventurScreen = lazy(() => import('../features/inventur/inventur-screen.tsx'));
const ArtikelUmlagernScreen = lazy(() => import('../features/umbuchung/artikel-umlagern-screen.tsx'));
const UmbuchungScreen = lazy(() => import('../features/umbuchung/umbuchung-screen.tsx'));
const LagercheckScreen = lazy(() => import('../features/umbuchung/lagercheck-screen.tsx'));
const NachschubScreen = lazy(() => import('../features/nachschub/nachschub-screen.tsx'));
const PaketinhaltScreen = lazy(() => import('../features/paketinhalt/paketinhalt-screen.tsx'));
const KartonagenScreen = lazy(() => import('../features/kartonagen/kartonagen-screen.tsx'));
const loadPaketausgang = () => import('../features/paketausgang/paketausgang-screen.tsx');
const PaketausgangScreen = lazy(loadPaketausgang);
const loadRetoure = () => import('../features/retoure/retoure-screen.tsx');
const RetoureScreen = lazy(loadRetoure);
const loadBatcherfassung = () => import('../features/batch/batcherfassung-screen.tsx');
const BatcherfassungScreen = lazy(loadBatcherfassung);
const BatchScreen = lazy(() => import('../features/batch/batch-screen.tsx'));
const loadContainer = () => import('../features/container/container-screen.tsx');
const ContainerScreen = lazy(loadContainer);
const loadTransporter = () => import('../features/transporter/transporter-screen.tsx');
const TransporterScreen = lazy(loadTransporter);
// Fetched right after login with the capture screens: the list must open in the dead zone that filled it.
const loadOutbox = () => import('../features/ungesendet/outbox-screen.tsx');
const OutboxScreen = lazy(loadOutbox);
const WmsRetoureScreen = lazy(() => import('../features/wmsretoure/wmsretoure-screen.tsx'));
const WareneingangScreen = lazy(() => import('../features/wareneingang/wareneingang-screen.tsx'));
const ZollpaketScreen = lazy(() => import('../features/zollpaket/zollpaket-screen.tsx'));
const KommissionierungScreen = lazy(() => import('../features/kommissionierung/kommissionierung-screen.tsx'));
const SettingsScreen = lazy(() => import('../features/einstellungen/settings-screen.tsx'));
const ScannerTestScreen = lazy(() => import('../features/einstellungen/scanner-test-screen.tsx'));
// The flash a packing step shows on the screen it leads to: loaded with the first page, not before the login.
const ArrivalFlash = lazy(() =>
  import('../ui/success-flash.tsx').then((module) => ({ default: module.ArrivalFlash })),
);
// The Leitstand for shift leads and IT: its own chunks, nothing of it in the handheld's first download.
const LeitstandApp = lazy(() => import('../leitstand/leitstand-app.tsx'));
// Its own chunk: bwip-js loads only when the test sheet is opened.
const TestSheetScreen = lazy(() => import('../features/einstellungen/test-sheet-screen.tsx'));

/**
 * The capture screens work without a connection (their scans wait in the outbox), and the outbox's list
 * opens there: their code is fetched right after login (or a reload logged in), so a worker who walks into a
 * dead zone can still open them in a plain browser tab (the installed app has every screen from its service
 * worker anyway).
 */
function preloadCaptureScreens(): void {
  for (const load of [
    loadPaketausgang,
    loadRetoure,
    loadBatcherfassung,
    loadContainer,
    loadTransporter,
    loadOutbox,
  ]) {
    load().catch(() => {}); // offline already: the screen loads when it is opened, as the others do
  }
}

/** Every screen route of DESIGN §2a and what it shows. */
const screenElements: Record<ScreenName, () => ReactNode> = {
  inventur: () => <InventurScreen />,
  artikelumlagern: () => <ArtikelUmlagernScreen />,
  umbuchung: () => <UmbuchungScreen />,
  lagercheck: () => <LagercheckScreen />,
  nachschub: () => <NachschubScreen />,
  paketinhalt: () => <PaketinhaltScreen />,
  kartonagenerfassung: () => <KartonagenScreen />,
  paketausgang: () => <PaketausgangScreen />,
  retoure: () => <RetoureScreen />,
  batcherfassung: () => <BatcherfassungScreen />,
  batch: () => <BatchScreen />,
  container: () => <ContainerScreen />,
  transporter: () => <TransporterScreen />,
  wmsretoure: () => <WmsRetoureScreen />,
  zollpaket: () => <ZollpaketScreen />,
  wareneingang: () => <WareneingangScreen />,
  kommissionierung: () => <KommissionierungScreen />,
};

export function App() {
  // Another language renders the screens anew: a text kept in a component's state, or copied where it was set
  // up (the scan router's refusals, at `configure`), is read again in it. The login and the banner stay (a
  // message about the switch itself is shown across it); the packing step is kept in sessionStorage.
  return (
    <AppRouter>
      <SessionProvider>
        <BannerProvider>
          <Fragment key={useShownLanguage()}>
            <ScanRouting />
            <PackingProvider>
              <Shell />
            </PackingProvider>
          </Fragment>
        </BannerProvider>
      </SessionProvider>
    </AppRouter>
  );
}

function Shell() {
  const { session } = useSession();
  const userId = session?.id;
  // A login sends the scans this worker left in the outbox (another worker's wait for them).
  useEffect(() => {
    if (userId === undefined) return;
    void outbox.flush();
    preloadCaptureScreens();
  }, [userId]);
  if (!session) return <LoginScreen />;
  return (
    <Routes>
      <Route
        path={paths.home}
        element={
          <Layout title={texts.app.title} home menu>
            {<MainMenu />}
          </Layout>
        }
      />
      <Route
        path={paths.beta}
        element={
          <Layout title={texts.app.beta} menu>
            {<BetaMenu />}
          </Layout>
        }
      />
      <Route
        path={paths.settings}
        element={
          <Layout title={texts.app.settings} menu>
            <SettingsScreen />
          </Layout>
        }
      />
      <Route
        path={paths.scannerTest}
        element={
          <Layout title={texts.settings.scannerTestTitle} back={paths.settings}>
            <ScannerTestScreen />
          </Layout>
        }
      />
      <Route
        path={paths.testSheet}
        element={
          <Layout title={texts.settings.testSheetTitle} back={paths.settings}>
            <TestSheetScreen />
          </Layout>
        }
      />
      <Route
        path={paths.outbox}
        element={
          <Layout title={texts.outbox.title} menu>
            <OutboxScreen userId={session?.id} />
          </Layout>
        }
      />
      {(Object.keys(screens) as ScreenName[]).map((name) => (
        <Route
          key={name}
          path={screens[name].path}
          element={
            <Layout title={screens[name].title} offline={screens[name].captures ? 'capture' : 'online-only'}>
              {screenElements[name]()}
            </Layout>
          }
        />
      ))}
      <Route
        path={`${paths.leitstand}/*`}
        element={
          <Suspense fallback={<p className="hint">{texts.app.loading}</p>}>
            <LeitstandApp />
          </Suspense>
        }
      />
      <Route path="*" element={<Layout title={texts.app.title}>{<NotFound />}</Layout>} />
    </Routes>
  );
}

/** `menu`: a screen where no booking is under way, so a waiting new version may be offered. */
function Layout({
  title,
  home = false,
  menu = false,
  back = paths.home,
  offline = 'general',
  children,
}: {
  title: string;
  home?: boolean;
  menu?: boolean;
  /** Where Zurück leads: the main menu, or the settings for their sub-pages. */
  back?: string;
  /** What this screen does without a connection (the notice under the header says it). */
  offline?: 'capture' | 'online-only' | 'general';
  children: ReactNode;
}) {
  const { session, logOut } = useSession();
  const location = useLocation();
  // Paketausgang as the last step of packing compares the parcels with the delivery note: that needs the
  // server, so there it says so instead of promising to keep the scans.
  const packing = usePackingStep();
  const comparing =
    location.pathname === screens.paketausgang.path && packing.step === 'ausgang' && packing.belegnr !== '';
  const offlineKind = offline === 'capture' && comparing ? 'online-only' : offline;
  const entries = useOutboxEntries();
  const mine = entries.filter((e) => e.userId === session?.id);
  const unsent = mine.length;
  const failed = mine.filter((e) => e.state === 'failed').length;
  const [confirmLogout, setConfirmLogout] = useState(false);
  const logOutNow = async () => {
    try {
      const { logout } = await loadAuthContract();
      await sessionApi.call(logout);
    } catch {
      // The session ends here either way; the server forgets it when it expires.
    }
    logOut();
  };
  // Unsent or refused scans stay on the device for this worker; logging out is allowed, after a warning.
  const onLogout = () => (unsent > 0 ? setConfirmLogout(true) : void logOutNow());
  return (
    <div className="page" key={location.pathname}>
      <header className="header">
        {!home && (
          <Link className="header-button" to={back} aria-label={texts.app.back}>
            ← {texts.app.back}
          </Link>
        )}
        <h1 className="header-title">{title}</h1>
        {home && (
          <Link className="header-button" to={paths.settings} aria-label={texts.app.settings}>
            ⚙
          </Link>
        )}
        <button type="button" className="header-button header-logout" onClick={onLogout}>
          {texts.app.logout(session?.name ?? '')}
        </button>
      </header>
      <AppStatus offerUpdate={menu} offline={offlineKind} />
      <OutboxBadge />
      <Banner />
      {confirmLogout && (
        <ConfirmDialog
          title={texts.outbox.logoutTitle}
          confirmLabel={texts.outbox.logoutConfirm}
          cancelLabel={texts.outbox.cancel}
          onConfirm={() => {
            setConfirmLogout(false);
            void logOutNow();
          }}
          onCancel={() => setConfirmLogout(false)}
        >
          <p>{texts.outbox.logoutBody(unsent - failed, failed, session?.name ?? '')}</p>
        </ConfirmDialog>
      )}
      <Suspense fallback={null}>
        <ArrivalFlash />
      </Suspense>
      <main className="content">
        <ScreenCode>{children}</ScreenCode>
      </main>
    </div>
  );
}
