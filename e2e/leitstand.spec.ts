import { seriousAxeFindings } from './support/axe.ts';
import { LEAD, loginAs, loginWithPassword, setStock } from './support/helpers.ts';
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

    test('a worker sees no Leitstand button, and the German refusal at its address', async ({ page }) => {
      await loginWithPassword(page);
      await expect(page.getByRole('link', { name: 'Inventur' })).toBeVisible();
      await expect(page.getByRole('link', { name: 'Leitstand' })).toHaveCount(0);
      await page.goto('/leitstand');
      await expect(page.getByRole('alert')).toHaveText('Der Leitstand ist der Schichtleitung vorbehalten.');
    });
  });
}
