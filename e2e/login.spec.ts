import { DEMO_CARD, loginWithPassword } from './support/helpers.ts';
import { expect, test } from './support/test.ts';

test('logs in with name and password and shows the main menu with its 11 buttons', async ({ page }) => {
  await loginWithPassword(page);
  for (const label of [
    'Batch',
    'Kartonagen',
    'Paketausgang',
    'Paketinhalt',
    'Inventur',
    'Retoure',
    'Batch (Lieferschein)',
    'Wechselbrücke',
    'Transporter',
    'WMS-Retoure',
    'Zollpaket',
  ]) {
    await expect(page.getByRole('link', { name: label, exact: true })).toBeVisible();
  }
  const stored = await page.evaluate(() => [
    localStorage.getItem('vmAccessKey'),
    localStorage.getItem('vmUserName'),
    localStorage.getItem('vmUserID'),
  ]);
  expect(stored[0]).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(stored[1]).toBe('Demo Nutzer');
  expect(Number(stored[2])).toBeGreaterThan(0);
});

test('logs in by card: the scanner types the card and the login goes off by itself', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Anmelden' })).toBeVisible();
  await expect(page.getByLabel('Karte')).toBeFocused();
  await page.keyboard.type(DEMO_CARD); // no Enter: more than 205 characters submit at once
  await expect(page.getByRole('button', { name: 'Karten Nutzer abmelden' })).toBeVisible();
});

test('shows the German message for a wrong login, and clears it at the next key', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Mit Name und Passwort anmelden' }).click();
  await page.getByLabel('Name').fill('demo');
  await page.getByLabel('Passwort').fill('falsch');
  await page.getByRole('button', { name: 'Anmelden', exact: true }).click();
  const banner = page.getByRole('alert');
  await expect(banner).toHaveText('Benutzer nicht gefunden oder fehlende Rechte!');
  await expect(banner).toHaveCSS('background-color', 'rgb(160, 0, 0)');
  await page.getByLabel('Name').press('x');
  await expect(banner).toBeHidden();

  await page.getByRole('button', { name: 'Mit Karte anmelden' }).click();
  await page.keyboard.type('FALSCHEKARTE');
  await page.keyboard.press('Enter');
  await expect(banner).toHaveText('Benutzer nicht gefunden oder fehlende Rechte!');
});

test('logs out: back to the login, storage cleared, the old token refused', async ({ page }) => {
  await loginWithPassword(page);
  const token = await page.evaluate(() => localStorage.getItem('vmAccessKey'));
  await page.getByRole('button', { name: 'Demo Nutzer abmelden' }).click();
  await expect(page.getByRole('heading', { name: 'Anmelden' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.length)).toBe(0);
  const res = await page.request.get('/api/inventur/history', {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.status()).toBe(401);
});
