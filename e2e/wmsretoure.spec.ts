import { loginWithPassword, scan, scanInto } from './support/helpers.ts';
import { expect, test } from './support/test.ts';

test.beforeEach(async ({ page }) => {
  await loginWithPassword(page);
  await page.getByRole('link', { name: 'WMS-Retoure', exact: true }).click();
  await expect(page.getByLabel('Artikel')).toBeFocused();
});

test('books a return with Charge and MHD onto a load carrier', async ({ page }) => {
  await scan(page, '100002');
  await expect(page.getByText('100002 Bio-Joghurt Natur 250 g · Charge nötig · MHD nötig')).toBeVisible();
  await scanInto(page, page.getByLabel('Charge'), 'CH-2027');
  await scanInto(page, page.getByLabel('MHD'), '311227');
  await expect(page.getByLabel('MHD')).toHaveValue('31.12.2027');
  await scanInto(page, page.getByLabel('LHM'), 'LHM000005');
  await expect(page.getByLabel('Menge')).toBeFocused();
  await page.getByLabel('Menge').fill('4');
  await expect(page.getByLabel('Qualität')).toHaveValue('2');
  await page.getByRole('button', { name: 'Buchen' }).click();
  const dialog = page.getByRole('dialog', { name: 'Retoure buchen' });
  await expect(dialog).toContainText('4 × 100002 auf LHM000005 buchen?');
  await dialog.getByRole('button', { name: 'Buchen' }).click();
  await expect(page.getByRole('status')).toHaveText(/Gebucht!/);
  await expect(page.getByLabel('Artikel')).toHaveValue('');
});

test('names what is missing: Charge, MHD, amount; and unknown LHM, article, ambiguous number', async ({
  page,
}) => {
  const banner = page.getByRole('alert');
  await scan(page, '4711-NIX');
  await expect(banner).toHaveText('Artikel "4711-NIX" nicht gefunden!');
  await scanInto(page, page.getByLabel('Artikel'), 'HN-DUP');
  await expect(banner).toHaveText('Nummer "HN-DUP" nicht eindeutig!');
  await scanInto(page, page.getByLabel('Artikel'), '100002');
  await expect(page.getByLabel('Charge')).toBeFocused();
  await page.getByRole('button', { name: 'Buchen' }).click();
  await expect(banner).toHaveText('Charge fehlt!');
  await page.getByLabel('Charge').fill('C-1');
  await page.getByRole('button', { name: 'Buchen' }).click();
  await expect(banner).toHaveText('MHD fehlt!');
  await page.getByLabel('MHD').fill('31.02.2027');
  await page.getByRole('button', { name: 'Buchen' }).click();
  await expect(banner).toHaveText('MHD ungültig. Bitte als TT.MM.JJJJ eingeben.');
  await page.getByLabel('MHD').fill('2027-02-28');
  await page.getByLabel('LHM').focus();
  await scan(page, 'A-01-01-01');
  await expect(banner).toHaveText('LHM"A-01-01-01" nicht gefunden!');
  await scanInto(page, page.getByLabel('LHM'), 'LHM000006');
  await page.getByLabel('Menge').fill('0');
  await page.getByRole('button', { name: 'Buchen' }).click();
  await expect(banner).toHaveText('Menge korrigieren!');
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test('one GS1 scan fills article, Charge and MHD; a pallet label SSCC names the load carrier', async ({
  page,
}) => {
  // GS1 DataMatrix as a wedge types it: symbology identifier, GTIN, batch, group separator, best-before.
  await scan(page, ']d20104006381000024' + '10CH-GS1' + '\u001d' + '17271200');
  await expect(page.getByText('100002 Bio-Joghurt Natur 250 g · Charge nötig · MHD nötig')).toBeVisible();
  await expect(page.getByLabel('Charge')).toHaveValue('CH-GS1');
  await expect(page.getByLabel('MHD')).toHaveValue('31.12.2027'); // day 00: the month's last day
  await expect(page.getByLabel('LHM')).toBeFocused();
  await scan(page, ']C100340123450000000017');
  await expect(page.getByLabel('Menge')).toBeFocused();
  await page.getByLabel('Menge').fill('2');
  await page.getByRole('button', { name: 'Buchen' }).click();
  const dialog = page.getByRole('dialog', { name: 'Retoure buchen' });
  await expect(dialog).toContainText('2 × 100002 auf 340123450000000017 buchen?');
  await dialog.getByRole('button', { name: 'Buchen' }).click();
  await expect(page.getByRole('status')).toHaveText(/Gebucht!/);
});

test('a GS1 code with a wrong check digit is refused, not looked up', async ({ page }) => {
  await scan(page, ']C10104006381000025');
  await expect(page.getByRole('alert')).toHaveText(
    'GS1-Code: Prüfziffer in Feld (01) falsch. Bitte erneut scannen.',
  );
  await expect(page.getByLabel('Artikel')).toBeFocused();
});

test('the pre-filled amount 1 is replaced by what is typed, and takes digits only', async ({ page }) => {
  await scan(page, '100001');
  await scanInto(page, page.getByLabel('LHM'), 'LHM000005');
  const amount = page.getByLabel('Menge');
  await expect(amount).toBeFocused();
  await expect(amount).toHaveValue('1');
  await page.keyboard.type('5'); // a person's key, not a scanner's burst
  await expect(amount).toHaveValue('5'); // not 15
  await page.keyboard.press('Backspace');
  await page.keyboard.press('x');
  await expect(page.getByRole('alert')).toHaveText('Scan nicht angenommen – Menge: nur Ziffern.');
  await expect(amount).toHaveValue('');
  await page.waitForTimeout(100); // a person reads the banner before the next key (faster is a scanner's burst)
  await page.keyboard.type('2000000', { delay: 80 }); // one more than any amount may be
  await expect(page.getByRole('alert')).toHaveText('Scan nicht angenommen – Menge: höchstens 1.000.000.');
  await expect(amount).toHaveValue('200000');
  await page.waitForTimeout(100);
  await page.keyboard.press('Control+A');
  await page.keyboard.type('3');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog', { name: 'Retoure buchen' })).toContainText(
    '3 × 100001 auf LHM000005',
  );
});
