// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { setUpKeyboardPage } from './keys.test-support.ts';

/** The router as the app installs it (`createScanRouter`): keys held until the app has started, a desk page, removal. */

const page = setUpKeyboardPage();

describe('the router as the app installs it', () => {
  it('holds what is scanned before the app has started and types it into its target once it has', async () => {
    page.start(false);
    const location = page.scanField('Lagerplatz');
    page.fieldTarget('Lagerplatz', location);
    await page.settle();
    await page.wedge('A-01-01-01');
    expect(location.value).toBe('');
    expect(page.got).toEqual([]);
    page.configure();
    await page.settle(10);
    expect(page.got).toEqual(['Lagerplatz A-01-01-01']);
  });

  it('leaves every key to the browser while paused (the Leitstand), and drops keys held before it opened', async () => {
    page.start(false);
    const search = page.personField('Suche');
    await page.wedge('A-01');
    const resume = page.router.pause();
    page.configure();
    await page.settle(10);
    page.tap(search);
    await page.wedge('B-02-01-01');
    expect(search.value).toBe('B-02-01-01');
    expect(page.got).toEqual(['Suche B-02-01-01']);
    expect(page.shown).toEqual([]);
    resume();
    await page.wedge('C-03-01-01');
    expect(page.shown).toEqual(['refused: nothing to scan here']);
  });

  it('takes its listeners off the window when removed: keys go where the browser puts them', async () => {
    await page.expecting('Lagerplatz');
    page.router.remove();
    page.tap(page.button('abmelden'));
    await page.wedge('A-01');
    expect(page.clicks).toEqual(['abmelden']);
    expect(page.got).toEqual([]);
  });
});
