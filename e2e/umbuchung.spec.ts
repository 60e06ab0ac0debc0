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

  const messages: string[] = [];
  page.on('dialog', (d) => {
    messages.push(`${d.type()}: ${d.message()}`);
    void d.accept();
  });
  await page.getByRole('button', { name: 'Alles umbuchen' }).click();
  await expect.poll(() => messages.length).toBe(2);
  expect(messages[0]).toMatch(/^confirm: Es werden alle Artikel umgebucht!/);
  expect(messages[0]).toMatch(/Ist das korrekt\?$/);
  expect(messages[1]).toMatch(/^alert: \d+ Artikel von C-01-02-01 nach C-01-02-02 umgebucht\.$/);
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
  let asked = false;
  page.on('dialog', (d) => {
    asked = true;
    void d.dismiss();
  });
  await page.getByRole('button', { name: 'Alles umbuchen' }).click();
  await expect(page.getByRole('alert')).toHaveText('Bitte beide Lagerplätze scannen.');
  expect(asked).toBe(false);
});

test('cancelling the confirm moves nothing', async ({ page }) => {
  await openBetaScreen(page, 'Umbuchung');
  await setStock(page, 'C-01-02-04', '100001', 2);
  await scanInto(page, page.getByLabel('Von Lagerplatz'), 'C-01-02-04');
  await scanInto(page, page.getByLabel('Nach Lagerplatz'), 'C-01-03-01');
  page.once('dialog', (d) => void d.dismiss());
  await page.getByRole('button', { name: 'Alles umbuchen' }).click();
  await expect(
    page.getByRole('region', { name: 'Inhalt' }).getByRole('row', { name: /100001/ }),
  ).toContainText('2');
  await expect(page.locator('.locked-value')).toHaveText(['C-01-02-04', 'C-01-03-01']);
});
