import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Suspense, useEffect, useState } from 'react';
import { Link, NavLink, Route, Routes } from 'react-router';
import { leitstandTexts } from '../../contract/leitstand/uebersicht.ts';
import { hasRole, type Role } from '../../contract/roles.ts';
import { texts } from '../../contract/texts.ts';
import { readSession } from '../api/session.ts';
import { pauseScanRouting } from '../scan/router.ts';
import { useLiveUpdates } from './live.ts';
import { Refusal } from './outcome.tsx';
import { PageBoundary } from './page-boundary.tsx';
import { type LeitstandPage, leitstandPages } from './pages.tsx';
import './leitstand.css';

/**
 * The Leitstand (issue 20): the back office for shift leads and IT in a desktop or tablet browser, at
 * /leitstand. Its own chunk: nothing of it is in the handheld's first download. The app shell shows it only
 * to a logged-in user; a worker sees why not instead of pages whose every call would be refused.
 */
export default function LeitstandApp() {
  const session = readSession();
  const role: Role = session?.role ?? 'mitarbeiter';
  // A desk, not a handheld: its fields take typed and scanned text as they come (DESIGN §8 is the handheld's).
  useEffect(pauseScanRouting, []);
  const [queryClient] = useState(
    () =>
      new QueryClient({
        defaultOptions: {
          // Refused or failed reads are shown with their message at once; the live stream reloads anyway.
          queries: { retry: false, staleTime: 1000, refetchOnWindowFocus: true },
        },
      }),
  );
  if (!hasRole(role, 'schichtleitung')) {
    return (
      <div className="leitstand">
        <main className="leitstand-main">
          <h1>{leitstandTexts.title}</h1>
          <Refusal>{leitstandTexts.notAllowed}</Refusal>
          <Link className="button" to="/">
            {leitstandTexts.backToHandheld}
          </Link>
        </main>
      </div>
    );
  }
  const visible = leitstandPages.filter((page) => hasRole(role, page.role));
  return (
    <QueryClientProvider client={queryClient}>
      <Shell name={session?.name ?? ''} pages={visible} role={role} />
    </QueryClientProvider>
  );
}

function Shell({ name, pages, role }: { name: string; pages: readonly LeitstandPage[]; role: Role }) {
  const live = useLiveUpdates();
  return (
    <div className="leitstand">
      <header className="leitstand-header">
        <h1 className="leitstand-title">{leitstandTexts.title}</h1>
        <span className={`leitstand-live leitstand-live--${live}`} role="status">
          {live === 'live'
            ? leitstandTexts.live
            : live === 'reconnecting'
              ? leitstandTexts.reconnecting
              : texts.app.loading}
        </span>
        <span className="leitstand-user">{name}</span>
        <Link className="leitstand-header-link" to="/">
          {leitstandTexts.backToHandheld}
        </Link>
      </header>
      <nav className="leitstand-nav" aria-label={leitstandTexts.nav}>
        {pages.map((page) => (
          <NavLink key={page.path} to={page.path === '' ? '/leitstand' : `/leitstand/${page.path}`} end>
            {page.title}
          </NavLink>
        ))}
      </nav>
      <main className="leitstand-main">
        <Suspense fallback={<p className="hint">{texts.app.loading}</p>}>
          <Routes>
            {leitstandPages.map((page) =>
              page.path === '' ? (
                <Route key="" index element={<Guarded page={page} role={role} />} />
              ) : (
                <Route key={page.path} path={page.path} element={<Guarded page={page} role={role} />} />
              ),
            )}
            <Route path="*" element={<p className="hint">{texts.errors.routeNotFound}</p>} />
          </Routes>
        </Suspense>
      </main>
    </div>
  );
}

/** A page above the login's role says so instead of loading (a bookmark of an admin page, say). */
function Guarded({ page, role }: { page: LeitstandPage; role: Role }) {
  if (hasRole(role, page.role))
    return (
      <PageBoundary key={page.path}>
        <page.Page />
      </PageBoundary>
    );
  return <Refusal>{leitstandTexts.pageNotAllowed}</Refusal>;
}
