import { loginWithPassword, scanInto } from './support/helpers.ts';
import { expect, test } from './support/test.ts';

test('a slow server: the booking cannot be sent twice while one is in flight', async ({ page }) => {
  await loginWithPassword(page);
  const historyLoaded = page.waitForResponse('**/api/inventur/history');
  await page.getByRole('link', { name: 'Inventur', exact: true }).click();
  await historyLoaded;
  await scanInto(page, page.getByLabel('Lagerplatz'), 'C-02-01-01');
  await scanInto(page, page.getByLabel('Artikel'), '100001');
  await expect(page.getByLabel('Menge')).toBeFocused();
  await page.keyboard.type('5');

  const posts: string[] = [];
  await page.route('**/api/inventur/', async (route) => {
    posts.push(route.request().headers()['x-idempotency-key'] ?? '');
    await new Promise((r) => setTimeout(r, 1500)); // a slow server
    await route.continue();
  });
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter'); // the question's 'Buchen' has the focus
  const submit = page.locator('form').getByRole('button', { name: 'Buchen' });
  await expect(submit).toBeDisabled();
  await page.keyboard.press('Enter'); // impatient second press
  await submit.click({ force: true });
  await expect(page.getByRole('status')).toHaveText(/Gezählt!/, { timeout: 10_000 });
  expect(posts).toHaveLength(1);
  await expect(page.getByRole('dialog')).toHaveCount(0); // asked once
});

test('the server down: a lookup says Netzwerkfehler; a capture waits in the outbox until the server is back', async ({
  page,
}) => {
  await loginWithPassword(page);
  // (Capture scans wait in the outbox instead: e2e/outbox.spec.ts.)
  await page.getByRole('link', { name: 'Inventur', exact: true }).click();
  await page.route('**/api/**', (route) => route.abort('connectionrefused'));
  await scanInto(page, page.getByLabel('Lagerplatz'), 'C-02-01-01');
  await expect(page.getByRole('alert')).toHaveText('Netzwerkfehler. Bitte erneut versuchen.');
  // A dead spot: the browser still says "online", but the screen says there is no connection.
  const noConnection = page.getByText(/^Keine Verbindung zum Server\./);
  await expect(noConnection).toBeVisible();

  await page.unroute('**/api/**');
  await page.getByRole('link', { name: 'Zurück' }).click();
  await page.getByRole('link', { name: 'Transporter', exact: true }).click();
  await page.getByLabel('Kennzeichen').fill('HH-X 1');
  await page.getByLabel('Plombe').fill('P-9');
  await page.getByLabel('Wechselbrücke').fill('WB-1');
  await page.route('**/api/**', (route) => route.abort('connectionrefused'));
  await page.getByRole('button', { name: 'Erfassen' }).click();
  await expect(page.getByRole('status')).toHaveText(/Gespeichert – wird gesendet/);
  await expect(page.getByLabel('Kennzeichen')).toHaveValue('');
  const unsent = page.getByRole('link', { name: '1 Scan nicht gesendet' });
  await expect(unsent).toBeVisible();

  // The server is back: the outbox's next try sends it, without the worker doing anything.
  await page.unroute('**/api/**');
  await expect(unsent).toBeHidden({ timeout: 10_000 });
  await expect(noConnection).toBeHidden();
});
