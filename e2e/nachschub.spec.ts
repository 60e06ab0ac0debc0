import { openBetaScreen, scan, setStock } from './support/helpers.ts';
import { expect, test } from './support/test.ts';

test('fills a pick place below its minimum: the task is proven by scans and booked as a rebooking', async ({
  page,
}) => {
  await openBetaScreen(page, 'Nachschub');
  await setStock(page, 'A-01-01-02', '100001', 10);
  await setStock(page, 'A-01-01-01', '100001', 50);
  await page.getByRole('button', { name: 'Aktualisieren' }).click();
  const task = page.getByRole('listitem').filter({ hasText: 'A-01-01-02: 100001 Kugelschreiber blau' });
  await expect(task).toContainText('Bestand 10 / Minimum 20');
  await expect(task).toContainText('Von A-01-01-01 (50)');
  await task.getByRole('button', { name: 'Nachschub holen: 100001 nach A-01-01-02' }).click();

  await expect(page.getByRole('heading', { name: 'Artikel 100001 nach A-01-01-02' })).toBeVisible();
  await expect(page.getByLabel('Quell-Lagerplatz')).toBeFocused();
  await scan(page, 'A-01-01-01');
  await expect(page.getByLabel('Artikel')).toBeFocused();
  await scan(page, '100003');
  await expect(page.getByRole('alert')).toHaveText('Falscher Artikel gescannt: erwartet 100001.');
  await scan(page, '4006381333931');
  await expect(page.getByLabel(/^Menge/)).toBeFocused();
  await expect(page.getByLabel(/^Menge/)).toHaveValue('10');
  await page.keyboard.press('Enter');
  await expect(page.getByLabel('Ziel-Lagerplatz')).toBeFocused();
  await scan(page, 'A-01-01-03');
  await expect(page.getByRole('alert')).toHaveText('Falscher Ziel-Lagerplatz gescannt: erwartet A-01-01-02.');
  await scan(page, 'A-01-01-02');
  await expect(page.getByRole('button', { name: 'Buchen' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status')).toHaveText(/Nachschub gebucht!/);
  await expect(page.getByRole('listitem').filter({ hasText: 'A-01-01-02: 100001' })).toHaveCount(0);
});
