import { seriousAxeFindings } from './support/axe.ts';
import { LEAD, loginAs, loginWithPassword, scanInto, setStock } from './support/helpers.ts';
import { expect, test } from './support/test.ts';

/**
 * The Leitstand's frame and its Übersicht (issue 20): reached from the handheld menu by a shift lead only,
 * live — a booking on any handheld shows within 2 s without a reload — at desktop and tablet size.
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

      // A worker books on a handheld of their own.
      const handheld = await browser.newPage({ viewport: { width: 360, height: 640 } });
      await loginWithPassword(handheld);
      const started = Date.now();
      await setStock(handheld, 'A-01-01-01', '100001', 40);
      await expect(lastScans.getByRole('row', { name: /Demo Nutzer Inventur/ })).toBeVisible({
        timeout: 2000,
      });
      expect(Date.now() - started).toBeLessThan(2500);
      await handheld.close();

      expect(await seriousAxeFindings(page)).toEqual([]);
    });

    test('a Klärfall reported on a handheld page shows in the Übersicht within 2 s, without a reload', async ({
      page,
      browser,
    }) => {
      const note = size === 'desktop' ? 'LS100034' : 'LS100035';
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
    await setStock(page, 'A-01-01-01', '100001', 41);
    await page.unroute('**/api/leitstand/live');
    await expect(page.getByRole('status')).toHaveText('Live', { timeout: 10_000 });
    await expect(
      page
        .getByRole('region', { name: 'Zuletzt gescannt' })
        .getByRole('row', { name: /Schicht Leitung Inventur/ }),
    ).toBeVisible();
  });
});
