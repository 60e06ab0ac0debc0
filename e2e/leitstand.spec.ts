import { seriousAxeFindings } from './support/axe.ts';
import {
  importDeliveryNote,
  LEAD,
  loginAs,
  loginWithPassword,
  scanInto,
  setStock,
} from './support/helpers.ts';
import { expect, type Page, test } from './support/test.ts';

/** Today's scans of a screen as the Übersicht shows them, once loaded (0 while the screen has no row). */
async function scansOf(page: Page, screen: string): Promise<number> {
  const region = page.getByRole('region', { name: 'Scans heute je Bildschirm' });
  await expect(region).toBeVisible();
  const row = region.getByRole('row', { name: new RegExp(`^${screen} `) });
  return (await row.count()) === 0 ? 0 : Number(await row.getByRole('cell').nth(1).textContent());
}

/**
 * The Leitstand's frame and its Übersicht (issue 20): reached from the handheld menu by a shift lead only,
 * live — a booking on any handheld shows within 2 s without a reload — at desktop and tablet size. Each test
 * waits for a change it makes itself (a count going up, a note of its own), so it runs again and again.
 */
for (const [size, viewport] of [
  ['desktop', { width: 1280, height: 800 }],
  ['tablet', { width: 800, height: 1280 }],
] as const) {
  test.describe(`the Leitstand at ${size} size`, () => {
    test.use({ viewport, isMobile: false, hasTouch: false });

    test('a shift lead opens it from the menu; a booking on a handheld shows in the Übersicht within 2 s', async ({
      page,
      browser,
    }) => {
      await loginAs(page, LEAD);
      await page.getByRole('link', { name: 'Leitstand' }).click();
      await expect(page).toHaveURL(/\/leitstand$/);
      await expect(page.getByRole('heading', { name: 'Übersicht', level: 1 })).toBeVisible();
      await expect(page.getByRole('status')).toHaveText('Live');
      const lastScans = page.getByRole('region', { name: 'Zuletzt gescannt' });
      const before = await scansOf(page, 'Inventur');

      // A worker books on a handheld of their own: counted, and the worker's last scan, within 2 s.
      const handheld = await browser.newPage({ viewport: { width: 360, height: 640 } });
      await loginWithPassword(handheld);
      const started = Date.now();
      await setStock(handheld, 'A-01-01-01', '100001', 40);
      await expect.poll(() => scansOf(page, 'Inventur'), { timeout: 2000 }).toBe(before + 1);
      expect(Date.now() - started).toBeLessThan(2500);
      await expect(lastScans.getByRole('row').nth(1)).toHaveText(/^Demo Nutzer\s*Inventur/);
      await handheld.close();

      expect(await seriousAxeFindings(page)).toEqual([]);
    });

    test('a Klärfall reported on a handheld page shows in the Übersicht within 2 s, without a reload', async ({
      page,
      browser,
      request,
    }) => {
      const note = await importDeliveryNote(request);
      await loginAs(page, LEAD);
      await page.goto('/leitstand');
      await expect(page.getByRole('status')).toHaveText('Live');
      const open = page.getByRole('region', { name: 'Offene Klärfälle' });
      await expect(open.getByRole('row', { name: new RegExp(note) })).toHaveCount(0);

      const handheld = await browser.newPage({ viewport: { width: 360, height: 640 } });
      handheld.on('dialog', (alert) => void alert.accept());
      await loginWithPassword(handheld);
      await handheld.getByRole('link', { name: 'Paketinhalt', exact: true }).click();
      await scanInto(handheld, handheld.getByLabel('Lieferschein'), note);
      await handheld.getByRole('button', { name: 'Klärfall' }).click();
      await handheld
        .getByRole('dialog', { name: 'Achtung!' })
        .getByRole('button', { name: 'Klärfall melden' })
        .click();
      const started = Date.now();
      await expect(open.getByRole('row', { name: new RegExp(note) })).toBeVisible({ timeout: 2000 });
      expect(Date.now() - started).toBeLessThan(2500);
      await handheld.close();
    });

    test('a worker sees no Leitstand button, and the German refusal at its address', async ({ page }) => {
      await loginWithPassword(page);
      await expect(page.getByRole('link', { name: 'Inventur' })).toBeVisible();
      await expect(page.getByRole('link', { name: 'Leitstand' })).toHaveCount(0);
      await page.goto('/leitstand');
      await expect(page.getByRole('alert')).toHaveText('Der Leitstand ist der Schichtleitung vorbehalten.');
    });
  });
}

test.describe('the Leitstand when its live stream breaks', () => {
  test.use({ viewport: { width: 1280, height: 800 }, isMobile: false, hasTouch: false });

  test('says so and connects again by itself, then shows what happened meanwhile', async ({ page }) => {
    await loginAs(page, LEAD);
    await page.route('**/api/leitstand/live', (route) => route.abort());
    await page.goto('/leitstand');
    await expect(page.getByRole('status')).toHaveText('Verbindung unterbrochen – verbinde neu …');
    const before = await scansOf(page, 'Inventur');
    await setStock(page, 'A-01-01-01', '100001', 41);
    await page.unroute('**/api/leitstand/live');
    await expect(page.getByRole('status')).toHaveText('Live', { timeout: 10_000 });
    await expect.poll(() => scansOf(page, 'Inventur')).toBe(before + 1);
    await expect(page.getByRole('region', { name: 'Zuletzt gescannt' }).getByRole('row').nth(1)).toHaveText(
      /^Schicht Leitung\s*Inventur/,
    );
  });
});
