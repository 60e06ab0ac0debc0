import { openBetaScreen, scan, scanInto, setStock } from './support/helpers.ts';
import type { Page } from './support/test.ts';
import { expect, test } from './support/test.ts';

const articleField = (page: Page) => page.getByLabel('Artikel');
const sourceField = (page: Page) => page.getByLabel('Lagerplatz', { exact: true });
const amountField = (page: Page) => page.getByLabel(/^Menge/);
const targetField = (page: Page) => page.getByLabel('Ziel-Lagerplatz');

/** Article and source as a scanner delivers them, each when its field has the focus. */
async function chooseArticleAndSource(page: Page) {
  await scanInto(page, articleField(page), '100004');
  await scanInto(page, sourceField(page), 'A-02-01-01');
  await expect(amountField(page)).toBeFocused();
}

test.beforeEach(async ({ page }) => {
  await openBetaScreen(page, 'Artikel umlagern');
  await setStock(page, 'A-02-01-01', '100004', 12);
  await setStock(page, 'A-02-01-03', '100004', 0);
  await expect(page.getByLabel('Artikel')).toBeFocused();
});

test('rebooks an article: article, source, amount, target, confirm — then the form is fresh', async ({
  page,
}) => {
  const amount = page.getByLabel(/^Menge/);
  await expect(amount).toBeDisabled();
  await scan(page, '100004');
  await expect(page.locator('.locked-value').first()).toHaveText('100004 Heftgerät klein');
  const info = page.getByRole('region', { name: 'Lagerplätze des Artikels' });
  await expect(info.getByRole('row', { name: /A-02-01-01/ })).toContainText('12');
  await expect(page.getByLabel('Lagerplatz', { exact: true })).toBeFocused();
  await expect(amount).toBeDisabled();

  await scan(page, 'A-02-01-01');
  await expect(amount).toBeEnabled();
  await expect(amount).toBeFocused();
  await expect(page.getByText('Menge (höchstens 12)')).toBeVisible();
  await expect(page.getByLabel('Ziel-Lagerplatz')).toBeDisabled();
  await page.keyboard.type('5');
  await page.getByRole('button', { name: 'Setzen' }).click();
  await expect(page.getByLabel('Ziel-Lagerplatz')).toBeFocused();

  await scan(page, 'A-02-01-03');
  await page.getByRole('button', { name: 'Umlagern', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Umlagerung bestätigen' });
  await expect(dialog).toContainText('5 × 100004 von A-02-01-01 nach A-02-01-03 umlagern?');
  await dialog.getByRole('button', { name: 'Umlagern' }).click();
  await expect(page.getByRole('status')).toHaveText(/Umgelagert!/);
  await expect(page.getByRole('status')).toBeHidden({ timeout: 3000 });
  await expect(page.getByLabel('Artikel')).toBeFocused();
  await expect(page.getByLabel('Artikel')).toHaveValue('');

  await scan(page, '100004');
  await expect(info.getByRole('row', { name: /A-02-01-01/ })).toContainText('7');
  await expect(info.getByRole('row', { name: /A-02-01-03/ })).toContainText('5');
});

test('X clears a field; the amount is bounded by the stock on the source', async ({ page }) => {
  await chooseArticleAndSource(page);
  // Above what the source holds: refused at the key that goes above, naming the most (issue 16.4).
  await page.keyboard.type('13', { delay: 80 }); // a person's keys
  await expect(page.getByRole('alert')).toHaveText('Scan nicht angenommen – Menge: höchstens 12.');
  await expect(page.getByLabel(/^Menge/)).toHaveValue('1');
  await page.keyboard.press('Backspace');
  await page.keyboard.type('0', { delay: 80 });
  await page.getByRole('button', { name: 'Setzen' }).click();
  await expect(page.getByRole('alert')).toHaveText('Bitte eine Menge von 1 bis 12 eingeben.');
  await page.getByLabel(/^Menge/).fill('2');
  await page.keyboard.press('Enter');
  await expect(targetField(page)).toBeFocused();
  await page.getByRole('button', { name: 'Menge leeren' }).click();
  await expect(page.getByLabel(/^Menge/)).toHaveValue('');
  await expect(page.getByLabel('Ziel-Lagerplatz')).toBeDisabled();
  await page.getByRole('button', { name: 'Lagerplatz leeren' }).click();
  await expect(page.getByLabel('Lagerplatz', { exact: true })).toBeFocused();
  await expect(page.getByLabel(/^Menge/)).toBeDisabled();
});

test('flags the empty fields instead of asking to confirm', async ({ page }) => {
  await scan(page, '100004');
  await page.getByRole('button', { name: 'Umlagern', exact: true }).click();
  await expect(page.getByRole('alert')).toHaveText(
    'Bitte Artikel, Lagerplatz, Menge und Ziel-Lagerplatz angeben.',
  );
  await expect(page.getByLabel('Lagerplatz', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel('Ziel-Lagerplatz')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test('says what was not found, not unique, or lies nowhere', async ({ page }) => {
  const banner = page.getByRole('alert');
  await scan(page, '4711-GIBTSNICHT');
  await expect(banner).toHaveText('Artikel "4711-GIBTSNICHT" nicht gefunden!');
  await scan(page, 'HN-DUP');
  await expect(banner).toHaveText('Nummer "HN-DUP" nicht eindeutig!');
  await scan(page, '100002');
  await expect(page.getByText('Artikel auf keinen Lagerplätzen vorhanden!')).toBeVisible();
  await scanInto(page, sourceField(page), 'Z-99-99-99');
  await expect(banner).toHaveText('Lagerplatz "Z-99-99-99" nicht gefunden!');
});

test('shows the message of a failed check call', async ({ page }) => {
  await page.route('**/api/umlagern/checklparticle/**', (route) =>
    route.fulfill({
      status: 404,
      contentType: 'application/json',
      body: '{"success":false,"message":"Lagerplatz nicht gefunden."}',
    }),
  );
  await scanInto(page, articleField(page), '100004');
  await scanInto(page, sourceField(page), 'A-02-01-01');
  await expect(page.getByRole('alert')).toHaveText('Lagerplatz nicht gefunden.');
});

test('a network failure keeps every field and the retry books once', async ({ page }) => {
  await chooseArticleAndSource(page);
  await page.keyboard.type('3');
  await page.keyboard.press('Enter');
  await scanInto(page, targetField(page), 'A-02-01-03');
  await page.route('**/api/umbuchung/artikel/', (route) => route.abort('connectionreset'));
  await page.getByRole('button', { name: 'Umlagern', exact: true }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Umlagern' }).click();
  await expect(page.getByRole('alert')).toHaveText('Netzwerkfehler. Bitte erneut versuchen.');
  await expect(page.locator('.locked-value')).toHaveText([
    '100004 Heftgerät klein',
    'A-02-01-01',
    '3',
    'A-02-01-03',
  ]);
  await page.unroute('**/api/umbuchung/artikel/');
  const keys: string[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/api/umbuchung/artikel/'))
      keys.push(request.headers()['x-idempotency-key'] ?? '');
  });
  await page.getByRole('button', { name: 'Umlagern', exact: true }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Umlagern' }).click();
  await expect(page.getByRole('status')).toHaveText(/Umgelagert!/);
  await scanInto(page, articleField(page), '100004');
  await expect(
    page.getByRole('region', { name: 'Lagerplätze des Artikels' }).getByRole('row', { name: /A-02-01-01/ }),
  ).toContainText('9');

  // The next move is a new action with a new idempotency key.
  await scanInto(page, sourceField(page), 'A-02-01-01');
  await expect(amountField(page)).toBeFocused();
  await page.keyboard.type('1');
  await page.keyboard.press('Enter');
  await scanInto(page, targetField(page), 'A-02-01-03');
  await page.getByRole('button', { name: 'Umlagern', exact: true }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Umlagern' }).click();
  await expect(page.getByRole('status')).toHaveText(/Umgelagert!/);
  expect(keys).toHaveLength(2);
  expect(keys[1]).not.toBe(keys[0]);
});

test('a red mark goes as soon as its field is filled', async ({ page }) => {
  await page.getByRole('button', { name: 'Umlagern', exact: true }).click();
  await expect(page.getByRole('alert')).toHaveText(
    'Bitte Artikel, Lagerplatz, Menge und Ziel-Lagerplatz angeben.',
  );
  await expect(articleField(page)).toHaveAttribute('aria-invalid', 'true');
  await expect(sourceField(page)).toHaveAttribute('aria-invalid', 'true');
  await scanInto(page, articleField(page), '100004');
  await expect(sourceField(page)).toHaveAttribute('aria-invalid', 'true');
  await sourceField(page).focus();
  await page.keyboard.press('A');
  await expect(sourceField(page)).not.toHaveAttribute('aria-invalid', 'true');
  await expect(page.locator('.field--invalid')).toHaveCount(2); // amount and target are still missing
});
