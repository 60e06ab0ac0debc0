import { LEAD, loginAs } from './support/helpers.ts';
import { freshReceiptNumber, pushReceipt } from './support/receipts.ts';
import { expect, test } from './support/test.ts';

/**
 * Seams of the warehouse day in the Leitstand (issue 36.8, 36.9) on a tablet upright (800 px): a receipt booked
 * on a handheld is named by its screen in the Übersicht, not by its call's path, and its journal row names the
 * receipt — the whole journal still fitting the page. Each run books a receipt of its own.
 */
test.use({ viewport: { width: 800, height: 1280 }, isMobile: false, hasTouch: false });

test('a receipt booking: Übersicht names its screen, the journal its receipt, and the journal fits 800 px', async ({
  page,
}) => {
  // A worker books 3 × 100001 of a fresh receipt onto A-01-01-02 (through the API: the handheld's own call).
  const number = freshReceiptNumber();
  await pushReceipt(page.request, number, [{ article: '100001', expected: 5 }]);
  const login = await page.request.post('/api/user/login', { data: { username: 'demo', password: 'demo' } });
  const worker = { authorization: `Bearer ${(await login.json()).token}` };
  const receipt = await page.request.get(`/api/wareneingang/beleg/${number}`, { headers: worker });
  const position = (await receipt.json()).positionen[0].position as number;
  const booked = await page.request.post('/api/wareneingang/buchen', {
    headers: { ...worker, 'x-idempotency-key': crypto.randomUUID() },
    data: { wareneingang: number, position, lagerplatz: 'A-01-01-02', amount: 3, charge: null, mhd: null },
  });
  expect(booked.status(), await booked.text()).toBe(200);

  await loginAs(page, LEAD);
  await page.goto('/leitstand');
  const screens = page.getByRole('region', { name: 'Scans heute je Bildschirm' });
  await expect(screens.getByRole('row', { name: /^Wareneingang / })).toBeVisible();
  await expect(screens.getByRole('row', { name: /^\/api\// })).toHaveCount(0);

  // The journal, unfiltered as it first opens: the receipt under the row's kind, nothing wider than the page.
  await page
    .getByRole('navigation', { name: 'Bereiche des Leitstands' })
    .getByRole('link', { name: 'Bewegungsjournal' })
    .click();
  const rows = page.getByRole('region', { name: 'Buchungen' }).getByRole('row');
  await expect(rows.filter({ hasText: number })).toHaveCount(1);
  await expect(rows.filter({ hasText: number })).toContainText(`Wareneingang${number}`);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(800);
});
