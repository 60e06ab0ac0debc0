import { DEMO_CARD, loginWithPassword, scan, scanInto } from './support/helpers.ts';
import { expect, test } from './support/test.ts';

test('batch capture: six characters at most, unknown batch, success for a second', async ({ page }) => {
  await loginWithPassword(page);
  await page.getByRole('link', { name: 'Batch', exact: true }).click();
  const field = page.getByLabel('Batch');
  await expect(field).toBeFocused();
  let calls = 0;
  page.on('request', (r) => {
    if (r.url().endsWith('/api/batcherfassung')) calls++;
  });
  await page.keyboard.press('Enter'); // empty: ignored
  await scan(page, '1234567');
  await expect(page.getByRole('alert')).toHaveText('Achtung - Batch hat nur sechs Ziffern!');
  expect(calls).toBe(0);
  await scanInto(page, field, '999999');
  await expect(page.getByRole('alert')).toHaveText('Batch 999999 nicht gefunden!');
  await scanInto(page, field, '123456');
  await expect(page.getByRole('status')).toHaveText(/Erfasst!/);
  await expect(page.getByRole('status')).toBeHidden({ timeout: 2500 });
});

test('batch via delivery note: note, then the employee card; success for two seconds', async ({ page }) => {
  await loginWithPassword(page);
  await page.getByRole('link', { name: 'Batch (Lieferschein)', exact: true }).click();
  await scanInto(page, page.getByLabel('Lieferschein'), 'LS999');
  await expect(page.getByRole('alert')).toHaveText('Lieferschein LS999 kann nicht gefunden werden.');
  await scanInto(page, page.getByLabel('Lieferschein'), 'LS100099');
  await expect(page.getByRole('alert')).toHaveText('Batch konnte nicht ermittelt werden. IT Kontaktieren');
  await scanInto(page, page.getByLabel('Lieferschein'), 'LS100001');
  await expect(page.getByText('Batch 123456')).toBeVisible();
  await scanInto(page, page.getByLabel('Mitarbeiterkarte'), DEMO_CARD);
  const flash = page.getByRole('status');
  await expect(flash).toHaveText(/Erfasst!/);
  await page.waitForTimeout(1200);
  await expect(flash).toBeVisible(); // still there after 1 s
  await expect(flash).toBeHidden({ timeout: 2000 });
  await expect(page.getByLabel('Lieferschein')).toBeFocused();
});

test('container: a carrier option first, GLS needs the Wechselbrücke, the others hide', async ({ page }) => {
  await loginWithPassword(page);
  await page.getByRole('link', { name: 'Wechselbrücke', exact: true }).click();
  // The Batch field tapped before an option: the screen takes no scan yet, so the router refuses it.
  await page.getByLabel('Batch').focus();
  await scan(page, '123456');
  await expect(page.getByRole('alert')).toHaveText('Scan nicht angenommen – Option auswählen!');
  await expect(page.getByLabel('Batch')).toHaveValue('');
  await page.getByRole('button', { name: 'DHL' }).click();
  await expect(page.getByRole('button', { name: 'GLS', exact: true })).toHaveCount(0);
  await scanInto(page, page.getByLabel('Batch'), '123456');
  await expect(page.getByRole('status')).toHaveText(/Erfasst!/);
  await page.getByRole('button', { name: 'Andere Option' }).click();
  await page.getByRole('button', { name: 'GLS', exact: true }).click();
  await scanInto(page, page.getByLabel('Wechselbrücke'), 'WB-4711');
  await scanInto(page, page.getByLabel('Batch'), '000000');
  await expect(page.getByRole('alert')).toHaveText('Batch 000000 nicht gefunden!');
});

test('transporter: kennzeichen, then plombe, then container; slider in steps of 5', async ({ page }) => {
  await loginWithPassword(page);
  await page.getByRole('link', { name: 'Transporter', exact: true }).click();
  await page.getByRole('button', { name: 'Erfassen' }).click();
  await expect(page.getByRole('alert')).toHaveText('Kennzeichen fehlt!');
  // The contract takes 20 characters: a longer Kennzeichen is refused at the scan, not when it is sent.
  await scanInto(page, page.getByLabel('Kennzeichen'), 'HH-LS 4242424242424242');
  await expect(page.getByRole('alert')).toHaveText(
    'Scan nicht angenommen – Kennzeichen ist zu lang: höchstens 20 Zeichen.',
  );
  await expect(page.getByLabel('Kennzeichen')).toHaveValue('');
  await scanInto(page, page.getByLabel('Kennzeichen'), 'HH-LS 42');
  await page.getByRole('button', { name: 'Erfassen' }).click();
  await expect(page.getByRole('alert')).toHaveText('Plombe fehlt!');
  await scanInto(page, page.getByLabel('Plombe'), 'PL-1');
  await page.getByRole('button', { name: 'Erfassen' }).click();
  await expect(page.getByRole('alert')).toHaveText('Wechselbrücke fehlt!');
  const slider = page.getByRole('slider');
  await expect(slider).toHaveAttribute('step', '5');
  await slider.fill('65');
  await expect(page.getByText('Füllstand: 65 %')).toBeVisible();
  await page.getByLabel('Wechselbrücke').click(); // back from the slider to the scan field
  await scanInto(page, page.getByLabel('Wechselbrücke'), 'WB-9');
  await expect(page.getByRole('status')).toHaveText(/Erfasst!/);
  await expect(page.getByLabel('Kennzeichen')).toHaveValue('');
});
