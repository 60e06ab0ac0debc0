import { loginWithPassword, revokeSessionOnServer, watchPageProblems } from './support/helpers.ts';
import { expect, test } from './support/test.ts';

test('every menu button opens its screen, and the back button returns to the menu', async ({ page }) => {
  await loginWithPassword(page);
  const routes: [string, string][] = [
    ['Batch', '/batcherfassung'],
    ['Kartonagen', '/kartonagenerfassung'],
    ['Paketausgang', '/paketausgang'],
    ['Paketinhalt', '/paketinhalt'],
    ['Retoure', '/retoure'],
    ['Batch (Lieferschein)', '/batch'],
    ['Wechselbrücke', '/container'],
    ['Transporter', '/transporter'],
    ['WMS-Retoure', '/wmsretoure'],
    ['Zollpaket', '/zollpaket'],
    ['Inventur', '/inventur'],
    ['Kommissionierung', '/kommissionierung'],
  ];
  for (const [label, path] of routes) {
    await page.getByRole('link', { name: label, exact: true }).click();
    await expect(page).toHaveURL(path);
    await expect(page.getByRole('heading', { level: 1, name: label, exact: true })).toBeVisible();
    await page.getByRole('link', { name: 'Zurück' }).click();
    await expect(page).toHaveURL('/');
  }
});

test('the beta menu has Zurück, Umbuchung, Artikel umlagern, Nachschub and Lagerplatzprüfung', async ({
  page,
}) => {
  await loginWithPassword(page);
  await page.getByRole('link', { name: 'Beta' }).click();
  await expect(page).toHaveURL('/beta');
  await expect(page.getByRole('heading', { name: 'Beta', level: 2 })).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Beta' });
  await expect(nav.getByRole('link')).toHaveText([
    'Zurück',
    'Umbuchung',
    'Artikel umlagern',
    'Nachschub',
    'Lagerplatzprüfung',
  ]);
  await nav.getByRole('link', { name: 'Lagerplatzprüfung' }).click();
  await expect(page).toHaveURL('/lagercheck');
  await page.goBack();
  await nav.getByRole('link', { name: 'Zurück' }).click();
  await expect(page).toHaveURL('/');
});

test('a deep link or a reload on a screen keeps that screen', async ({ page }) => {
  await loginWithPassword(page);
  await page.goto('/inventur');
  await expect(page.getByLabel('Lagerplatz')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Lagerplatz')).toBeVisible();
  await page.goto('/gibt/es/nicht');
  await expect(page.getByText('Diese Adresse gibt es nicht.')).toBeVisible();
});

test('a 401 in the middle of work: alert, storage cleared, back to the login', async ({ page }) => {
  await loginWithPassword(page);
  const historyLoaded = page.waitForResponse('**/api/inventur/history');
  await page.getByRole('link', { name: 'Inventur', exact: true }).click();
  await historyLoaded;
  await revokeSessionOnServer(page);
  // Answered inside the event (Playwright's advice): awaiting accept() later raced the reload that follows.
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.accept();
  });
  await page.getByLabel('Lagerplatz').fill('A-01-01-01');
  await page.getByLabel('Lagerplatz').press('Enter');
  await expect.poll(() => dialogs).toEqual(['alert: Kein Login. Seite wird neu geladen.']);
  await expect(page.getByRole('heading', { name: 'Anmelden' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('vmAccessKey'))).toBeNull();
});

test('every screen runs under the Content-Security-Policy without a single violation', async ({ page }) => {
  const problems = await watchPageProblems(page);
  await loginWithPassword(page);
  for (const path of [
    '/inventur',
    '/paketinhalt',
    '/kartonagenerfassung',
    '/paketausgang',
    '/retoure',
    '/batcherfassung',
    '/batch',
    '/container',
    '/transporter',
    '/wmsretoure',
    '/zollpaket',
    '/umbuchung',
    '/artikelumlagern',
    '/nachschub',
    '/lagercheck',
    '/kommissionierung',
  ]) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  }
  // Pictures are part of the policy too.
  await page.goto('/paketausgang');
  await page.getByLabel('Trackingnummer').fill('00340434161094042557');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('img', { name: 'Versanddienstleister dhl' })).toBeVisible();
  expect(await problems.violations()).toEqual([]);
  expect(problems.consoleErrors.filter((e) => /Content Security Policy/i.test(e))).toEqual([]);
});
