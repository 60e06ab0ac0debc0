import { openBetaScreen, scan, scanInto, setStock } from './support/helpers.ts';
import { expect, test } from './support/test.ts';

test('moves everything on a location after the confirm, and says so', async ({ page }) => {
  await openBetaScreen(page, 'Umbuchung');
  await setStock(page, 'C-01-02-01', '100001', 4);
  await setStock(page, 'C-01-02-01', '100003', 6);
  await expect(page.getByLabel('Von Lagerplatz')).toBeFocused();
  await scan(page, 'C-01-02-01');
  const content = page.getByRole('region', { name: 'Inhalt' });
  await expect(content.getByRole('row', { name: /100001/ })).toContainText('4');
  await expect(content.getByRole('row', { name: /100003/ })).toContainText('6');
  await expect(page.getByLabel('Nach Lagerplatz')).toBeFocused();
  await scan(page, 'C-01-02-02');

  await page.getByRole('button', { name: 'Alles umbuchen' }).click();
  // Asked in the page (a scanner's Enter cannot answer it), then said in the success view.
  const question = page.getByRole('dialog', { name: 'Es werden alle Artikel umgebucht!' });
  await expect(question).toContainText('Von C-01-02-01 nach C-01-02-02.');
  await expect(question).toContainText('Ist das korrekt?');
  await question.getByRole('button', { name: 'Umbuchen' }).click();
  await expect(page.getByRole('status')).toHaveText(
    /^✓\d+ Artikel von C-01-02-01 nach C-01-02-02 umgebucht\.$/,
  );
  await expect(page.getByLabel('Von Lagerplatz')).toBeFocused();

  await scan(page, 'C-01-02-01');
  await expect(page.getByText('Keine Artikel auf diesem Lagerplatz!')).toBeVisible();
});

test('needs both locations, and two different ones', async ({ page }) => {
  await openBetaScreen(page, 'Umbuchung');
  await page.getByRole('button', { name: 'Alles umbuchen' }).click();
  await expect(page.getByRole('alert')).toHaveText('Bitte beide Lagerplätze scannen.');
  await expect(page.getByLabel('Von Lagerplatz')).toHaveAttribute('aria-invalid', 'true');
  await scanInto(page, page.getByLabel('Von Lagerplatz'), 'C-01-02-03');
  // The same location as the target is refused at the scan, not when 'Alles umbuchen' is tapped.
  await scanInto(page, page.getByLabel('Nach Lagerplatz'), 'C-01-02-03');
  await expect(page.getByRole('alert')).toHaveText('Quell- und Ziel-Lagerplatz sind gleich.');
  await expect(page.locator('.locked-value')).toHaveCount(1);
  await expect(page.getByLabel('Nach Lagerplatz')).toHaveValue('');
  await expect(page.getByLabel('Nach Lagerplatz')).toBeFocused();
  await page.getByRole('button', { name: 'Alles umbuchen' }).click();
  await expect(page.getByRole('alert')).toHaveText('Bitte beide Lagerplätze scannen.');
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test('cancelling the confirm moves nothing', async ({ page }) => {
  await openBetaScreen(page, 'Umbuchung');
  await setStock(page, 'C-01-02-04', '100001', 2);
  await scanInto(page, page.getByLabel('Von Lagerplatz'), 'C-01-02-04');
  await scanInto(page, page.getByLabel('Nach Lagerplatz'), 'C-01-03-01');
  await page.getByRole('button', { name: 'Alles umbuchen' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Abbrechen' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(
    page.getByRole('region', { name: 'Inhalt' }).getByRole('row', { name: /100001/ }),
  ).toContainText('2');
  await expect(page.locator('.locked-value')).toHaveText(['C-01-02-04', 'C-01-03-01']);
});
