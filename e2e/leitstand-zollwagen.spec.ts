import { seriousAxeFindings } from './support/axe.ts';
import { LEAD, loginAs, loginWithPassword } from './support/helpers.ts';
import { expect, type Page, test } from './support/test.ts';

/** Closes, through the Leitstand's call, a cart another spec left open (one open cart per site). */
async function closeCartsLeftOpen(page: Page): Promise<void> {
  const token = await page.evaluate(() => localStorage.getItem('vmAccessKey'));
  const headers = { authorization: `Bearer ${token}` };
  const list = await (await page.request.get('/api/leitstand/zollwagen', { headers })).json();
  for (const cart of list.data.offen as { id: number }[]) {
    const res = await page.request.put(`/api/leitstand/zollwagen/${cart.id}/abschliessen`, {
      headers: { ...headers, 'x-idempotency-key': crypto.randomUUID() },
      data: {},
    });
    expect(res.status()).toBe(200);
  }
}

/**
 * The Leitstand's Zollwagen page (issue 20.4) at desktop and tablet size: a cart opened on a handheld shows
 * by itself with its parcel, the shift lead closes it after a confirm, and the handheld then finds it closed.
 */
for (const [size, viewport, note] of [
  ['desktop', { width: 1280, height: 800 }, 'LS100054'],
  ['tablet', { width: 800, height: 1280 }, 'LS100055'],
] as const) {
  test.describe(`the Zollwagen page at ${size} size`, () => {
    test.use({ viewport, isMobile: false, hasTouch: false });

    test('a cart opened on a handheld shows live, is closed in the Leitstand, and the handheld sees it closed', async ({
      page,
      browser,
    }) => {
      await loginAs(page, LEAD);
      await closeCartsLeftOpen(page);
      await page.goto('/leitstand');
      await page.getByRole('navigation').getByRole('link', { name: 'Zollwagen' }).click();
      await expect(page).toHaveURL(/\/leitstand\/zollwagen$/);
      await expect(page.getByRole('heading', { name: 'Zollwagen', level: 1 })).toBeVisible();
      const open = page.getByRole('region', { name: 'Offene Wagen' });
      await expect(open).toContainText('Kein Wagen ist offen.');

      // A worker opens cart ZW05 on a handheld and puts a parcel on it.
      const handheld = await browser.newPage({ viewport: { width: 360, height: 640 } });
      await loginWithPassword(handheld);
      await handheld.getByRole('link', { name: 'Zollpaket', exact: true }).click();
      await handheld.getByRole('button', { name: 'Neu' }).click();
      await handheld.getByPlaceholder('Wagennummer').fill('ZW05');
      await handheld.keyboard.press('Enter');
      await expect(handheld.getByRole('heading', { name: 'Wagen: Zollwagen 5' })).toBeVisible();
      await handheld.getByPlaceholder('Lieferschein').fill(note);
      await handheld.keyboard.press('Enter');
      await expect(handheld.getByRole('status')).toHaveText(/Erfasst!/);

      // The Leitstand shows it without a reload: open, its parcel with who and when, its age.
      const row = open.getByRole('row', { name: /Zollwagen 5/ });
      await expect(row).toBeVisible();
      await expect(row).toContainText('Demo Nutzer');
      await expect(row).toContainText(/\d+ Min\./);
      await row.getByText('1 Paket auf Zollwagen 5').click();
      await expect(row.getByRole('row', { name: new RegExp(note) })).toContainText('Demo Nutzer');
      expect(await seriousAxeFindings(page)).toEqual([]);

      // Closing asks first; 'Abbrechen' leaves it open.
      await row.getByRole('button', { name: 'Zollwagen 5 abschließen' }).click();
      const dialog = page.getByRole('dialog', { name: 'Wagen Zollwagen 5 abschließen?' });
      await expect(dialog).toContainText('wie mit „Abschließen“ am Handscanner');
      expect(await seriousAxeFindings(page)).toEqual([]);
      await dialog.getByRole('button', { name: 'Abbrechen' }).click();
      await expect(row).toBeVisible();
      await row.getByRole('button', { name: 'Zollwagen 5 abschließen' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Abschließen' }).click();
      await expect(page.getByText('Wagen Zollwagen 5 abgeschlossen.')).toBeVisible();
      await expect(open).toContainText('Kein Wagen ist offen.');
      const closed = page.getByRole('region', { name: 'Abgeschlossen in den letzten 7 Tagen' });
      await expect(closed.getByRole('row', { name: /Zollwagen 5/ })).toContainText('1 Paket auf Zollwagen 5');

      // The handheld finds the cart closed: no note onto it, and 'Neu' asks for a cart again.
      await handheld.getByPlaceholder('Lieferschein').fill('LS100056');
      await handheld.keyboard.press('Enter');
      await expect(handheld.getByRole('alert')).toHaveText('Wagen Zollwagen 5 ist nicht offen.');
      await handheld.getByRole('link', { name: 'Zurück' }).click();
      await handheld.getByRole('link', { name: 'Zollpaket', exact: true }).click();
      await handheld.getByRole('button', { name: 'Neu' }).click();
      await expect(handheld.getByRole('heading', { name: 'Wagen scannen' })).toBeVisible();
      await handheld.close();

      // Another period: the closed cart is there too; the choice is kept in the list's title.
      await page.getByLabel('Zeitraum').selectOption('30');
      await expect(
        page.getByRole('region', { name: 'Abgeschlossen in den letzten 30 Tagen' }).getByRole('row', {
          name: /Zollwagen 5/,
        }),
      ).toBeVisible();
      expect(await seriousAxeFindings(page)).toEqual([]);
    });

    test('a worker sees the German refusal at its address, not the page', async ({ page }) => {
      await loginWithPassword(page);
      await page.goto('/leitstand/zollwagen');
      await expect(page.getByRole('alert')).toHaveText('Der Leitstand ist der Schichtleitung vorbehalten.');
      await expect(page.getByRole('heading', { name: 'Offene Wagen' })).toHaveCount(0);
    });
  });
}
