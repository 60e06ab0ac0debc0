import { loginWithPassword, revokeSessionOnServer, scan } from './support/helpers.ts';
import { expect, type Page, test } from './support/test.ts';

async function openInventur(page: Page) {
  await loginWithPassword(page);
  const historyLoaded = page.waitForResponse('**/api/inventur/history');
  await page.getByRole('link', { name: 'Inventur', exact: true }).click();
  await historyLoaded;
  await expect(page.getByLabel('Lagerplatz')).toBeFocused();
}

/** Scans location and article as a scanner does; focus moves by itself. */
async function chooseLocationAndArticle(page: Page, location: string, article: string) {
  await scan(page, location);
  await expect(page.getByLabel('Artikel')).toBeFocused();
  await scan(page, article);
  await expect(page.getByLabel('Menge')).toBeFocused();
}

test('counts a shelf: location once, then article, amount, confirm, and the count is in "Letzte Scans"', async ({
  page,
}) => {
  await openInventur(page);
  await chooseLocationAndArticle(page, 'A-01-01-01', '4006381333931');
  await expect(page.getByText('100001 Kugelschreiber blau')).toBeVisible();
  await page.keyboard.type('48');
  await page.keyboard.press('Enter');
  // Asked in the page: its confirm button has the focus, so a person's Enter books.
  const question = page.getByRole('dialog', { name: 'Ist das korrekt?' });
  await expect(question).toContainText('Artikel 100001 Kugelschreiber blau auf A-01-01-01: Menge 48.');
  await expect(question.getByRole('button', { name: 'Buchen' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status')).toHaveText(/Gezählt!/);

  const history = page.getByRole('table');
  await expect(history.getByRole('columnheader')).toHaveText(['Zeit', 'Artikel', 'LP', 'Menge']);
  await expect(history.getByRole('row').nth(1)).toContainText('100001');
  await expect(history.getByRole('row').nth(1)).toContainText('A-01-01-01');
  await expect(history.getByRole('row').nth(1)).toContainText('48');
  await expect(page.getByRole('heading', { name: 'Letzte Scans' })).toBeVisible();

  // The location stays chosen; the next article can be scanned right away.
  await expect(page.locator('.locked-value')).toHaveText('A-01-01-01');
  await expect(page.getByLabel('Artikel')).toBeFocused();
  await scan(page, '100003');
  await expect(page.getByLabel('Menge')).toBeFocused();
  await page.keyboard.type('41');
  await page.keyboard.press('Enter');
  await page.getByRole('dialog').getByRole('button', { name: 'Buchen' }).click();
  await expect(history.getByRole('row').nth(1)).toContainText('100003');
});

test('says which location, article or number was not found or not unique', async ({ page }) => {
  await openInventur(page);
  const banner = page.getByRole('alert');
  await scan(page, 'X-99-99');
  await expect(banner).toHaveText('Lagerplatz "X-99-99" nicht gefunden!');
  await expect(page.getByLabel('Lagerplatz')).toHaveValue('');
  await scan(page, 'A-01-01-02');
  await expect(page.getByLabel('Artikel')).toBeFocused();
  await scan(page, '999999999');
  await expect(banner).toHaveText('Artikel "999999999" nicht gefunden!');
  await scan(page, 'HN-DUP');
  await expect(banner).toHaveText('Nummer "HN-DUP" nicht eindeutig!');
});

test('will not book without location and article, and flags the missing ones', async ({ page }) => {
  await openInventur(page);
  await page.getByLabel('Menge').fill('3');
  await page.getByRole('button', { name: 'Buchen' }).click();
  await expect(page.getByRole('alert')).toHaveText('Bitte zuerst einen Lagerplatz scannen.');
  await expect(page.getByLabel('Lagerplatz')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel('Artikel')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test('cancelling the confirm books nothing', async ({ page }) => {
  await openInventur(page);
  await chooseLocationAndArticle(page, 'A-01-01-02', '100001');
  await page.keyboard.type('777');
  await page.keyboard.press('Enter');
  await page.getByRole('dialog').getByRole('button', { name: 'Abbrechen' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByLabel('Menge')).toHaveValue('777');
  await expect(page.getByRole('table').getByText('777')).toHaveCount(0);
});

test('a network failure keeps every field; the retry books exactly once', async ({ page }) => {
  // The booking's route is in place before the page opens and is switched, never added or removed mid-test:
  // a route added while the app is busy is the one thing the test's outcome could depend on besides the app.
  // Every booking the page sends is counted too, so a request that passed the route would be named as such.
  let failing = false;
  const keys: string[] = [];
  const passed: string[] = [];
  const sent: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/inventur/')
      sent.push(request.headers()['x-idempotency-key'] ?? '');
  });
  await page.route('**/api/inventur/', async (route) => {
    const key = route.request().headers()['x-idempotency-key'] ?? '';
    if (failing) {
      keys.push(key);
      await route.abort('connectionreset');
    } else {
      passed.push(key);
      await route.fallback();
    }
  });
  await openInventur(page);
  await chooseLocationAndArticle(page, 'B-02-01-01', '100003');
  await page.keyboard.type('13');
  failing = true;
  await page.keyboard.press('Enter');
  await page.getByRole('dialog').getByRole('button', { name: 'Buchen' }).click();
  await expect(page.getByRole('alert')).toHaveText('Netzwerkfehler. Bitte erneut versuchen.');
  expect(passed, 'no booking may pass while the network is down').toEqual([]);
  expect(sent, 'every booking the page sent went through the failing route').toEqual(keys);
  expect(keys).toHaveLength(5); // the first try and 4 retries
  expect(new Set(keys).size).toBe(1);
  await expect(page.getByText('100003 Textmarker gelb 4er')).toBeVisible();
  await expect(page.getByLabel('Menge')).toHaveValue('13');

  // The next press is the same action under the same key: had a lost answer's booking reached the server,
  // the server would answer it from the key instead of booking it twice.
  failing = false;
  await page.getByRole('button', { name: 'Buchen' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Buchen' }).click();
  await expect(page.getByRole('status')).toHaveText(/Gezählt!/);
  expect(passed).toEqual([keys[0]]);
});

test('a 401 on the booking keeps the fields and asks to log in again', async ({ page }) => {
  await openInventur(page);
  await chooseLocationAndArticle(page, 'A-01-01-01', '100003');
  await page.keyboard.type('40');
  await revokeSessionOnServer(page);
  await page.keyboard.press('Enter');
  await page.getByRole('dialog').getByRole('button', { name: 'Buchen' }).click();
  await expect(page.getByRole('alert')).toHaveText('Scan wurde nicht gespeichert - melde dich neu an!');
  await expect(page.getByLabel('Menge')).toHaveValue('40');
  await expect(page.getByText('100003 Textmarker gelb 4er')).toBeVisible();
});

test('measures each scan from Enter to its answer on screen (user timing read by npm run bench)', async ({
  page,
}) => {
  // At the very moment the app records a measure, note what the screen shows.
  await page.addInitScript(() => {
    const seen: { duration: number; shown: string }[] = [];
    (window as unknown as { seen: typeof seen }).seen = seen;
    const measure = performance.measure.bind(performance);
    performance.measure = (...args: Parameters<typeof measure>) => {
      const entry = measure(...args);
      if (entry.name === 'scan-to-feedback') {
        const locked = [...document.querySelectorAll('.locked-value')].map((e) => e.textContent);
        seen.push({ duration: entry.duration, shown: locked.join(' | ') });
      }
      return entry;
    };
  });
  await openInventur(page);
  await chooseLocationAndArticle(page, 'A-01-01-01', '4006381333931');
  const seen = () =>
    page.evaluate(() => (window as unknown as { seen: { duration: number; shown: string }[] }).seen);
  // Location, then article: each measure taken with its answer already on screen (after the paint).
  await expect
    .poll(async () => (await seen()).map((s) => s.shown))
    .toEqual(['A-01-01-01', 'A-01-01-01 | 100001 Kugelschreiber blau']);
  for (const { duration } of await seen()) expect(duration).toBeGreaterThan(0);
});

test('takes the GTIN of a GS1 code in the article field', async ({ page }) => {
  await openInventur(page);
  await chooseLocationAndArticle(page, 'A-01-01-01', ']C10104006381333931');
  await expect(page.getByText('100001 Kugelschreiber blau')).toBeVisible();
});
