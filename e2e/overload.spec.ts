import type { Route } from '@playwright/test';
import { loginWithPassword, openBetaScreen, scanInto, setStock } from './support/helpers.ts';
import { expect, type Page, test } from './support/test.ts';

/**
 * An overloaded server (decision 26): it answers what it cannot serve in time with 503, `Retry-After: 1` and
 * a German message. The app waits that second before its next try, shows the message — not 'Systemfehler' —
 * when every try was turned away, and books once under the same key. The 503s are Playwright's, answered
 * as the server answers them (test/api/overload.test.ts checks the server's side); the rest is the real
 * server.
 */
const BUSY = 'Server ausgelastet – bitte in ein paar Sekunden noch einmal versuchen.';
const busy = (route: Route) =>
  route.fulfill({
    status: 503,
    headers: { 'retry-after': '1', 'content-type': 'application/json' },
    body: JSON.stringify({ success: false, message: BUSY }),
  });

/** Each try of a call: its idempotency key and when it was sent. */
type Try = { key: string; at: number };
const noted = (tries: Try[], route: Route) =>
  tries.push({ key: route.request().headers()['x-idempotency-key'] ?? '', at: Date.now() });
/** The time between one try and the next (ms). */
const gaps = (tries: Try[]) => tries.slice(1).map((t, i) => t.at - (tries[i]?.at ?? 0));

/** 5 × 100004 from A-02-01-01 (12) to A-02-01-03 (0), up to the question. */
async function askToMoveFive(page: Page) {
  await scanInto(page, page.getByLabel('Artikel'), '100004');
  await scanInto(page, page.getByLabel('Lagerplatz', { exact: true }), 'A-02-01-01');
  await page.keyboard.type('5');
  await page.getByRole('button', { name: 'Setzen' }).click();
  await scanInto(page, page.getByLabel('Ziel-Lagerplatz'), 'A-02-01-03');
  await page.getByRole('button', { name: 'Umlagern', exact: true }).click();
  return page.getByRole('dialog', { name: 'Umlagerung bestätigen' });
}

/** How many of 100004 lie on a location, asked of the real server. */
async function stockOn(page: Page, location: string): Promise<number> {
  const token = await page.evaluate(() => localStorage.getItem('vmAccessKey'));
  const headers = { authorization: `Bearer ${token}` };
  const lp = await (await page.request.get(`/api/inventur/findlp/${location}`, { headers })).json();
  const article = await (await page.request.get('/api/inventur/findarticle/100004', { headers })).json();
  const answer = await page.request.get(`/api/umlagern/checklparticle/${lp.id}/${article.id}`, { headers });
  return (await answer.json()).amount;
}

test.describe('Artikel umlagern on an overloaded server', () => {
  test.beforeEach(async ({ page }) => {
    await openBetaScreen(page, 'Artikel umlagern');
    await setStock(page, 'A-02-01-01', '100004', 12);
    await setStock(page, 'A-02-01-03', '100004', 0);
  });

  test('a booking turned away is tried again after the Retry-After, under its key, and booked once', async ({
    page,
  }) => {
    const dialog = await askToMoveFive(page);
    const tries: Try[] = [];
    await page.route('**/api/umbuchung/artikel/', (route) => {
      noted(tries, route);
      return tries.length <= 2 ? busy(route) : route.fallback();
    });
    await dialog.getByRole('button', { name: 'Umlagern' }).click();
    await expect(page.getByRole('status')).toHaveText(/Umgelagert!/, { timeout: 10_000 });
    expect(tries).toHaveLength(3);
    expect(new Set(tries.map((t) => t.key)).size).toBe(1);
    // A second apart, as the server asked (SPEC §7's immediate retries would come within milliseconds).
    for (const gap of gaps(tries)) expect(gap).toBeGreaterThanOrEqual(990);
    expect(await stockOn(page, 'A-02-01-01')).toBe(7);
    expect(await stockOn(page, 'A-02-01-03')).toBe(5);
  });

  test('every try turned away: the worker reads "Server ausgelastet", and the next tap books it once', async ({
    page,
  }) => {
    const dialog = await askToMoveFive(page);
    const tries: Try[] = [];
    await page.route('**/api/umbuchung/artikel/', (route) => {
      noted(tries, route);
      return busy(route);
    });
    await dialog.getByRole('button', { name: 'Umlagern' }).click();
    // Tries a second apart while a second of the 5 s is left for the next one's answer: four (the answers
    // take a few ms, so a fifth at 4 s would have less); then the server's own words, not 'Bitte an die IT
    // wenden'.
    await expect(page.getByRole('alert')).toHaveText(BUSY, { timeout: 10_000 });
    expect(tries).toHaveLength(4);
    for (const gap of gaps(tries)) expect(gap).toBeGreaterThanOrEqual(990);
    expect(await stockOn(page, 'A-02-01-01')).toBe(12);

    await page.unroute('**/api/umbuchung/artikel/');
    const sent: Try[] = [];
    await page.route('**/api/umbuchung/artikel/', (route) => {
      noted(sent, route);
      return route.fallback();
    });
    await page.getByRole('button', { name: 'Umlagern', exact: true }).click();
    await page
      .getByRole('dialog', { name: 'Umlagerung bestätigen' })
      .getByRole('button', { name: 'Umlagern' })
      .click();
    await expect(page.getByRole('status')).toHaveText(/Umgelagert!/);
    expect(sent.map((t) => t.key)).toEqual([tries[0]?.key]); // the same action, so the same key
    expect(await stockOn(page, 'A-02-01-01')).toBe(7);
    expect(await stockOn(page, 'A-02-01-03')).toBe(5);
  });
});

test('a capture scan turned away on every try waits in the outbox and goes out when the server has room', async ({
  page,
}) => {
  await loginWithPassword(page);
  await page.getByRole('link', { name: 'Transporter', exact: true }).click();
  await page.getByLabel('Kennzeichen').fill('HH-LX 26');
  await page.getByLabel('Plombe').fill('P-26');
  await page.getByLabel('Wechselbrücke').fill('WB-26');
  const tries: Try[] = [];
  await page.route('**/api/transporterfassung', (route) => {
    noted(tries, route);
    return busy(route);
  });
  await page.getByRole('button', { name: 'Erfassen' }).click();
  await expect(page.getByRole('status')).toHaveText(/Gespeichert – wird gesendet/, { timeout: 10_000 });
  const unsent = page.getByRole('link', { name: '1 Scan nicht gesendet' });
  await expect(unsent).toBeVisible();
  expect(tries).toHaveLength(4);

  await page.unroute('**/api/transporterfassung');
  await expect(unsent).toBeHidden({ timeout: 10_000 });
});

test('the login says "Server ausgelastet" when every try was turned away, not "Systemfehler"', async ({
  page,
}) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Mit Name und Passwort anmelden' }).click();
  await page.getByLabel('Name').fill('demo');
  await page.getByLabel('Passwort').fill('demo');
  await page.route('**/api/user/login', busy);
  await page.getByRole('button', { name: 'Anmelden', exact: true }).click();
  await expect(page.getByRole('alert')).toHaveText(BUSY, { timeout: 10_000 });
});
