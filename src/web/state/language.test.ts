// @vitest-environment jsdom
import { beforeEach, describe, expect, it, vi } from 'vitest';

/**
 * The handheld's language (issue 43): each test starts as a freshly loaded page would, with only what
 * localStorage kept — a reload is a new import of the modules.
 */
async function startPage() {
  vi.resetModules();
  const store = await import('./language.ts');
  const { clearSession } = await import('../api/session.ts');
  const { currentLanguage } = await import('../../contract/i18n/current.ts');
  const { texts } = await import('../../contract/texts.ts');
  const pl = (await import('../../contract/i18n/catalogues/pl.ts')).default;
  return { ...store, clearSession, currentLanguage, texts, pl };
}

describe('the language the handheld shows', () => {
  beforeEach(() => localStorage.clear());

  it('is German on a new device, and the device keeps its choice across a logout', async () => {
    const page = await startPage();
    expect(page.wantedLanguage()).toBe('de');
    expect(page.currentLanguage()).toBe('de');
    page.keepDeviceLanguage('pl');
    expect(await page.switchLanguage(page.wantedLanguage())).toBe(true);
    expect(page.currentLanguage()).toBe('pl');
    expect(page.texts.lookup.unknownLocation).toBe(page.pl.lookup.unknownLocation);
    page.clearSession();
    expect(page.deviceLanguage()).toBe('pl');
  });

  it("follows the worker's language while logged in, and the device's again after the logout", async () => {
    const page = await startPage();
    // What the app's root listens to: it renders anew in the language shown.
    const { createElement } = await import('react');
    const { flushSync } = await import('react-dom');
    const { createRoot } = await import('react-dom/client');
    const host = document.createElement('div');
    const root = createRoot(host);
    flushSync(() => root.render(createElement(() => page.useShownLanguage())));
    expect(host.textContent).toBe('de');
    page.keepWorkerLanguage('pl'); // the login answer's language
    expect(page.wantedLanguage()).toBe('pl');
    expect(await page.loadLanguage('pl')).toBe(true);
    expect(page.currentLanguage()).toBe('de'); // loaded, not shown until the login is taken
    expect(page.showLanguage('pl')).toBe(true);
    expect(page.texts.lookup.locationNotFound('A-01')).toBe(page.pl.lookup.locationNotFound('A-01'));
    await vi.waitFor(() => expect(host.textContent).toBe('pl'));
    page.clearSession(); // logout
    expect(page.wantedLanguage()).toBe('de');
    // Loaded already: shown at once, no frame in the worker's language first.
    void page.switchLanguage(page.deviceLanguage());
    expect(page.currentLanguage()).toBe('de');
    await vi.waitFor(() => expect(host.textContent).toBe('de'));
    root.unmount();
  });

  it("comes back in the worker's language after a reload while logged in", async () => {
    const before = await startPage();
    before.keepDeviceLanguage('en');
    before.keepWorkerLanguage('pl');
    const page = await startPage();
    expect(page.currentLanguage()).toBe('de');
    expect(await page.switchLanguage(page.wantedLanguage())).toBe(true);
    expect(page.currentLanguage()).toBe('pl');
    expect(page.texts.lookup.unknownArticle).toBe(page.pl.lookup.unknownArticle);
  });

  it('stays German when a catalogue cannot be loaded (a damaged entry, a download that fails)', async () => {
    localStorage.setItem('lagerscannerSprache', 'xx');
    const page = await startPage();
    expect(await page.switchLanguage(page.wantedLanguage())).toBe(false);
    expect(page.currentLanguage()).toBe('de');
    expect(page.showLanguage('en')).toBe(false); // never shown before its catalogue is here
    expect(page.currentLanguage()).toBe('de');
  });

  it("keeps a device's pseudo-language over the worker's, so a test run logged in shows every text in it", async () => {
    localStorage.setItem('lagerscannerSprache', 'qps'); // as a test or a developer sets it
    const page = await startPage();
    expect(page.wantedLanguage('pl')).toBe('qps'); // the login answer's language does not win
    page.keepWorkerLanguage('pl');
    expect(page.wantedLanguage()).toBe('qps'); // nor after a reload while logged in
    expect(await page.switchLanguage(page.wantedLanguage())).toBe(true);
    expect(page.currentLanguage()).toBe('qps');
    expect(page.texts.lookup.unknownLocation).toMatch(/^⟦.*⟧$/);
  });
});
