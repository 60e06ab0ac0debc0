import { loginWithPassword, scan } from './support/helpers.ts';
import { expect, test } from './support/test.ts';

test('a scanner that adds a prefix and types the GS1 group separator as text still fills the fields', async ({
  page,
}) => {
  await loginWithPassword(page);
  await page.getByRole('link', { name: 'Einstellungen' }).click();
  await page.getByLabel('Präfix des Scanners').fill('#');
  await page.getByLabel('Gruppentrenner (GS) kommt als').fill('<GS>');
  await page.getByRole('link', { name: 'Zurück' }).click();

  await page.getByRole('link', { name: 'WMS-Retoure', exact: true }).click();
  await expect(page.getByLabel('Artikel')).toBeFocused();
  await scan(page, '#]d20104006381000024' + '10CH-GS2<GS>17271200');
  await expect(page.getByText('100002 Bio-Joghurt Natur 250 g · Charge nötig · MHD nötig')).toBeVisible();
  await expect(page.getByLabel('Charge')).toHaveValue('CH-GS2');
  await expect(page.getByLabel('MHD')).toHaveValue('31.12.2027');
  await expect(page.getByLabel('LHM')).toBeFocused();
  await scan(page, '#LHM000003');
  await expect(page.getByLabel('Menge')).toBeFocused();
});
