import { openBetaScreen, scan, setStock } from './support/helpers.ts';
import { expect, test } from './support/test.ts';

test('shows what lies on each scanned location, one scan after the other without touching the screen', async ({
  page,
}) => {
  await openBetaScreen(page, 'Lagerplatzprüfung');
  await setStock(page, 'B-03-01-01', '100003', 9);
  const field = page.getByLabel('Lagerplatz');
  await expect(field).toBeFocused();
  await scan(page, 'B-03-01-01');
  const table = page.getByRole('region', { name: 'Inhalt von B-03-01-01' });
  await expect(table.getByRole('columnheader')).toHaveText(['Nummer', 'Name', 'Menge']);
  await expect(table.getByRole('row', { name: /100003/ })).toContainText('Textmarker gelb 4er');
  await expect(table.getByRole('row', { name: /100003/ })).toContainText('9');
  await expect(field).toBeFocused();
  await expect(field).toHaveValue('');

  await scan(page, 'B-02-01-02');
  await expect(page.getByRole('region', { name: 'Inhalt von B-02-01-02' })).toBeVisible();
  await scan(page, 'LHM000020');
  await expect(page.getByText('Keine Artikel auf diesem Lagerplatz!')).toBeVisible();
  await scan(page, 'NIRGENDWO');
  await expect(page.getByRole('alert')).toHaveText('Lagerplatz "NIRGENDWO" nicht gefunden!');
  await expect(field).toBeFocused();
});
