import { loginWithPassword, revokeSessionOnServer } from './support/helpers.ts';
import { expect, test } from './support/test.ts';

test('a customs cart from "Neu" to "Wagen abgeschlossen!", with the history of scanned parcels', async ({
  page,
}) => {
  await loginWithPassword(page);
  await page.getByRole('link', { name: 'Zollpaket', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Neuen Wagen erstellen' })).toBeVisible();
  await page.getByRole('button', { name: 'Neu' }).click();

  await expect(page.getByRole('heading', { name: 'Wagen scannen' })).toBeVisible();
  const cartInput = page.getByPlaceholder('Wagennummer');
  await expect(cartInput).toBeFocused();
  await page.keyboard.type('ZW99');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('alert')).toHaveText('Wagen ZW99 nicht gefunden!');
  await expect(cartInput).toHaveValue('');
  await cartInput.fill('ZW02');
  await page.getByRole('button', { name: 'Wagen scannen' }).click();

  await expect(page.getByRole('heading', { name: 'Lieferschein scannen' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Wagen: Zollwagen 2' })).toBeVisible();
  const noteInput = page.getByPlaceholder('Lieferschein');
  await expect(noteInput).toBeFocused();
  await page.keyboard.type('LS100030');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status')).toHaveText(/Erfasst!/);
  await expect(page.getByRole('status')).toBeHidden({ timeout: 2000 });
  await expect(noteInput).toBeFocused();
  const history = page.getByRole('region', { name: 'Gescannte Pakete' });
  await expect(history.getByRole('columnheader')).toHaveText(['Zeit', 'Lieferschein', 'Wagen']);
  await expect(history.getByRole('row', { name: /LS100030/ })).toContainText('Zollwagen 2');

  // The same note again: the server's message, the note field cleared, still at note entry.
  await page.keyboard.type('LS100030');
  await page.getByRole('button', { name: 'Scannen' }).click();
  await expect(page.getByRole('alert')).toHaveText(
    'Lieferschein LS100030 liegt schon auf Wagen Zollwagen 2.',
  );
  await expect(noteInput).toHaveValue('');
  await noteInput.fill('LS999');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('alert')).toHaveText('Lieferschein LS999 kann nicht gefunden werden.');

  // Leaving and coming back: 'Neu' finds the open cart.
  await page.getByRole('link', { name: 'Zurück' }).click();
  await page.getByRole('link', { name: 'Zollpaket', exact: true }).click();
  await page.getByRole('button', { name: 'Neu' }).click();
  await expect(page.getByText('Wagen Zollwagen 2 ist noch offen, bitte abschließen!')).toBeVisible();

  await page.getByRole('button', { name: 'Abschließen' }).click();
  const dialog = page.getByRole('dialog', { name: 'Bitte einmal bestätigen' });
  await expect(dialog).toContainText(
    'Wagen ist voll gepackt, eingewickelt und kann wirklich abgeschlossen werden?',
  );
  await dialog.getByRole('button', { name: 'Abbrechen' }).click();
  await expect(page.getByRole('heading', { name: 'Wagen: Zollwagen 2' })).toBeVisible();
  await page.getByRole('button', { name: 'Abschließen' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Bestätigen' }).click();
  await expect(page.getByRole('status')).toHaveText(/Wagen abgeschlossen!/);
  await expect(page.getByRole('heading', { name: 'Neuen Wagen erstellen' })).toBeVisible({ timeout: 3000 });
  await expect(page.getByRole('region', { name: 'Gescannte Pakete' })).toHaveCount(0);
});

test('a 401 on the paket call keeps the form and the note', async ({ page }) => {
  await loginWithPassword(page);
  await page.getByRole('link', { name: 'Zollpaket', exact: true }).click();
  await page.getByRole('button', { name: 'Neu' }).click();
  await page.getByPlaceholder('Wagennummer').fill('ZW03');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Wagen: Zollwagen 3' })).toBeVisible();
  await revokeSessionOnServer(page);
  await page.getByPlaceholder('Lieferschein').fill('LS100031');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('alert')).toHaveText('Scan wurde nicht gespeichert - melde dich neu an!');
  await expect(page.getByPlaceholder('Lieferschein')).toHaveValue('LS100031');
});
