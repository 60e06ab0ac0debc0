import { seriousAxeFindings } from './support/axe.ts';
import { LEAD, loginAs, loginWithPassword, scan } from './support/helpers.ts';
import { freshReceiptNumber, pushReceipt } from './support/receipts.ts';
import { expect, test } from './support/test.ts';

/**
 * The Leitstand's Wareneingang page (issue 22) at desktop and tablet size: a receipt the ERP announced is
 * listed open, a booking on a handheld shows in it without a reload, and once closed there with a short line
 * it is listed with its difference. axe finds nothing serious or critical.
 */
for (const [size, viewport] of [
  ['desktop', { width: 1280, height: 800 }],
  ['tablet', { width: 800, height: 1280 }],
] as const) {
  test.describe(`the Wareneingang page at ${size} size`, () => {
    test.use({ viewport, isMobile: false, hasTouch: false });

    test('lists open receipts live and closed ones with their differences', async ({ page, browser }) => {
      const number = freshReceiptNumber();
      await pushReceipt(page.request, number, [
        { article: '100001', expected: 10 },
        { article: '100002', expected: 4, charge: 'L-9', mhd: '2027-03-31' },
      ]);
      await loginAs(page, LEAD);
      await page.goto('/leitstand');
      await page.getByRole('navigation').getByRole('link', { name: 'Wareneingang' }).click();
      await expect(page).toHaveURL(/\/leitstand\/wareneingang$/);
      await expect(page.getByRole('heading', { name: 'Wareneingang', level: 1 })).toBeVisible();
      const open = page.getByRole('region', { name: 'Offene Wareneingänge' });
      const row = open.getByRole('row', { name: new RegExp(number) }).first();
      await expect(row).toContainText('Testlieferant GmbH');
      await expect(row).toContainText('14 fehlen');
      await row.getByText(`2 Positionen · ${number}`).click();
      await expect(row.getByRole('row', { name: /100002/ })).toContainText('Charge L-9 · MHD 31.03.2027');
      expect(await seriousAxeFindings(page)).toEqual([]);

      // A worker receives 12 of 100001 on a handheld: 2 more than expected shows without a reload.
      const handheld = await browser.newPage({ viewport: { width: 360, height: 640 } });
      await loginWithPassword(handheld);
      await handheld.getByRole('link', { name: 'Wareneingang', exact: true }).click();
      await expect(handheld.getByLabel('Wareneingang')).toBeFocused();
      await scan(handheld, number);
      await expect(handheld.getByLabel('Artikel')).toBeFocused();
      await scan(handheld, '100001');
      await expect(handheld.getByLabel('Menge')).toBeFocused();
      await scan(handheld, '12');
      await handheld.getByRole('dialog').getByRole('button', { name: 'Trotzdem buchen' }).click();
      await expect(handheld.getByLabel('Lagerplatz')).toBeFocused();
      await scan(handheld, 'A-01-01-01');
      await expect(handheld.getByRole('status')).toContainText('Eingelagert!');
      await expect(row).toContainText('4 fehlen, 2 zu viel');
      await expect(row.getByRole('row', { name: /100001/ })).toContainText('2 zu viel');

      // Closed on the handheld: listed under the closed ones, by whom, with 100002 short.
      await handheld.getByRole('button', { name: 'Abschließen' }).click();
      await handheld.getByRole('dialog').getByRole('button', { name: 'Abschließen' }).click();
      await expect(handheld.getByRole('status')).toContainText('Abgeschlossen!');
      await handheld.close();
      const closed = page.getByRole('region', { name: 'Abgeschlossen in den letzten 30 Tagen' });
      const closedRow = closed.getByRole('row', { name: new RegExp(number) }).first();
      await expect(closedRow).toContainText('4 fehlen, 2 zu viel');
      await expect(closedRow).toContainText('von Demo Nutzer');
      await expect(open.getByRole('row', { name: new RegExp(number) })).toHaveCount(0);
      await closedRow.getByText(`2 Positionen · ${number}`).click();
      await expect(closedRow.getByRole('row', { name: /100002/ })).toContainText('4 fehlen');
      expect(await seriousAxeFindings(page)).toEqual([]);
    });
  });
}

test('a worker does not get the Wareneingang page', async ({ page }) => {
  await loginWithPassword(page);
  const token = await page.evaluate(() => localStorage.getItem('vmAccessKey'));
  const res = await page.request.get('/api/leitstand/wareneingang', {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.status()).toBe(403);
  expect((await res.json()).message).toMatch(/Schichtleitung/);
});
