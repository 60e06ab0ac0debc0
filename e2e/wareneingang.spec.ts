import { loginWithPassword, scan, setStock, wedgeScan } from './support/helpers.ts';
import { freshReceiptNumber, pushReceipt } from './support/receipts.ts';
import { expect, type Page, test } from './support/test.ts';

/**
 * Wareneingang (issue 22) at 360×640, typed like a scanner (keys at 0 ms, then Enter): a receipt from the
 * ERP, its articles received onto the suggested location, an over-delivery asked in the page, a GS1 carton
 * label that brings Charge, MHD and amount, and closing with a short line. Each test pushes its own receipt.
 */

const GS = '\u001d';

/** Any question the browser itself would ask (confirm()) fails the test: a scanner's Enter would answer it. */
test.beforeEach(async ({ page }) => {
  page.on('dialog', (dialog) => {
    throw new Error(`the browser's own dialog was opened: ${dialog.message()}`);
  });
});

async function openReceipt(page: Page, number: string): Promise<void> {
  await loginWithPassword(page);
  await page.getByRole('link', { name: 'Wareneingang', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Wareneingang' })).toBeVisible();
  await expect(page.getByLabel('Wareneingang')).toBeFocused();
  await scan(page, number);
  await expect(locked(page, 'Wareneingang')).toHaveText(`${number} · Testlieferant GmbH`);
}

const field = (page: Page, label: string) =>
  page.locator('.field').filter({ has: page.locator('.field-label').getByText(label, { exact: true }) });
const locked = (page: Page, label: string) => field(page, label).locator('.locked-value');
const row = (page: Page, text: string) =>
  page.getByRole('region', { name: 'Positionen' }).getByRole('row').filter({ hasText: text });

/** A row's Soll (Erwartet), Ist (Erhalten) and Offen (or Differenz) cells. */
async function amounts(page: Page, text: string): Promise<string[]> {
  return (await row(page, text).getByRole('cell').allInnerTexts()).slice(1);
}

test('receives a receipt: article, amount, the suggested location — stock and the line grow', async ({
  page,
}) => {
  const number = freshReceiptNumber();
  await pushReceipt(page.request, number, [
    { article: '100001', expected: 20 },
    { article: '100003', expected: 6 },
  ]);
  await openReceipt(page, number);
  // 100001 on its pick place A-01-01-02 (a replenishment minimum there), whatever other specs moved.
  await setStock(page, 'A-01-01-02', '100001', 10);
  expect(await amounts(page, '100001 Kugelschreiber blau')).toEqual(['20', '0', '20']);
  await expect(page.getByLabel('Artikel')).toBeFocused();

  await scan(page, '4006381333931');
  await expect(locked(page, 'Position')).toHaveText('100001 Kugelschreiber blau · Offen 20');
  const amount = page.getByLabel('Menge');
  await expect(amount).toBeFocused();
  await expect(amount).toHaveValue('20');
  await page.keyboard.type('12');
  await page.keyboard.press('Enter');
  // 100001 lies on its pick place A-01-01-02: that is the suggestion.
  await expect(page.getByText('Vorschlag: A-01-01-02 (liegt dort schon)')).toBeVisible();
  await expect(page.getByLabel('Lagerplatz')).toBeFocused();
  const before = await stockOn(page, 'A-01-01-02', '100001');
  await scan(page, 'A-01-01-02');
  await expect(page.getByRole('status')).toContainText('Eingelagert!');
  await expect.poll(() => amounts(page, '100001 Kugelschreiber blau')).toEqual(['20', '12', '8']);
  expect(await stockOn(page, 'A-01-01-02', '100001')).toBe(before + 12);

  // The next article right away, onto another location than the suggested one.
  await scan(page, '100003');
  await expect(locked(page, 'Position')).toHaveText('100003 Textmarker gelb 4er · Offen 6');
  await page.keyboard.press('Enter');
  await expect(page.getByText(/^(Vorschlag: |Kein Platzvorschlag)/)).toBeVisible();
  await scan(page, 'B-02-01-02');
  await expect.poll(() => amounts(page, '100003 Textmarker gelb 4er')).toEqual(['6', '6', '0']);
  await expect(page.getByLabel('Artikel')).toBeFocused();
});

test('more than expected: the page asks "Mehr als erwartet – trotzdem buchen?", then books it', async ({
  page,
}) => {
  const number = freshReceiptNumber();
  await pushReceipt(page.request, number, [{ article: '100001', expected: 5 }]);
  await openReceipt(page, number);
  await scan(page, '100001');
  await expect(page.getByLabel('Menge')).toBeFocused();
  await page.keyboard.type('8');
  await page.keyboard.press('Enter');
  const question = page.getByRole('dialog', { name: 'Mehr als erwartet – trotzdem buchen?' });
  await expect(question).toContainText('8 × 100001 gescannt, offen sind nur 5.');
  // A scan meanwhile does not answer it.
  await wedgeScan(page, 'A-01-01-01');
  await expect(page.getByRole('alert')).toHaveText(
    'Scan nicht angenommen – bitte zuerst die Frage beantworten.',
  );
  await expect(question).toBeVisible();
  await question.getByRole('button', { name: 'Trotzdem buchen' }).click();
  await expect(page.getByLabel('Lagerplatz')).toBeFocused();
  await scan(page, 'A-01-01-01');
  await expect(page.getByRole('status')).toContainText('Eingelagert!');
  await expect.poll(() => amounts(page, '100001 Kugelschreiber blau')).toEqual(['5', '8', '0']);
});

test('a GS1 carton label fills Charge, MHD and amount of the announced line', async ({ page }) => {
  const number = freshReceiptNumber();
  await pushReceipt(page.request, number, [
    { article: '100002', expected: 5, charge: 'L-77', mhd: '2027-06-30' },
  ]);
  await openReceipt(page, number);
  // A pallet label as a wedge types it: SSCC, the GTIN of the cartons (100002), their count 3, GS, best
  // before 30.06.2027, batch L-77.
  await wedgeScan(page, `]C100340123450000000017020400638100002437${'3'}${GS}1527063010L-77`);
  await expect(locked(page, 'Position')).toHaveText('100002 Bio-Joghurt Natur 250 g · Offen 5');
  await expect(locked(page, 'Charge')).toHaveText('L-77');
  await expect(locked(page, 'MHD')).toHaveText('30.06.2027');
  await expect(page.getByLabel('Menge')).toHaveValue('3');
  await expect(page.getByRole('alert')).toBeHidden();
  await page.keyboard.press('Enter');
  await expect(page.getByLabel('Lagerplatz')).toBeFocused();
  const before = await stockOn(page, 'C-05-04-04', '100002');
  const booking = page.waitForRequest((r) => r.url().endsWith('/api/wareneingang/buchen'));
  await scan(page, 'C-05-04-04');
  await expect(page.getByRole('status')).toContainText('Eingelagert!');
  await expect.poll(() => amounts(page, '100002 Bio-Joghurt')).toEqual(['5', '3', '2']);
  // Booked with the label's Charge and MHD.
  expect((await booking).postDataJSON()).toMatchObject({ amount: 3, charge: 'L-77', mhd: '2027-06-30' });
  expect(await stockOn(page, 'C-05-04-04', '100002')).toBe(before + 3);
  // A label of a Charge the receipt does not announce is refused at the scan, naming both.
  await wedgeScan(page, `]C10104006381000024${'10'}X-1`);
  await expect(page.getByRole('alert')).toHaveText('Charge "X-1" ist nicht angekündigt (erwartet: L-77).');
  await expect(page.getByLabel('Artikel')).toBeFocused();
});

test('closing with a short line records it, and the closed receipt is read-only', async ({ page }) => {
  const number = freshReceiptNumber();
  await pushReceipt(page.request, number, [
    { article: '100001', expected: 10 },
    { article: '100003', expected: 4 },
    { article: '100008', expected: 2500 },
  ]);
  await openReceipt(page, number);
  await scan(page, '100001');
  await page.keyboard.press('Enter');
  await expect(page.getByLabel('Lagerplatz')).toBeFocused();
  await scan(page, 'A-01-01-02');
  await expect.poll(() => amounts(page, '100001 Kugelschreiber blau')).toEqual(['10', '10', '0']);

  await page.getByRole('button', { name: 'Abschließen' }).click();
  const question = page.getByRole('dialog', { name: 'Wareneingang abschließen?' });
  await expect(question).toContainText('100003: 4 fehlen');
  await question.getByRole('button', { name: 'Abschließen' }).click();
  await expect(page.getByRole('status')).toContainText('Abgeschlossen!');
  await expect(page.getByRole('heading', { name: 'Positionen · abgeschlossen' })).toBeVisible();
  expect(await amounts(page, '100003 Textmarker')).toEqual(['4', '0', 'Fehlmenge 4']);
  expect(await amounts(page, '100001 Kugelschreiber')).toEqual(['10', '10', '0']);
  expect(await amounts(page, '100008 Kopierpapier')).toEqual(['2500', '0', 'Fehlmenge 2500']);
  // The closed table fits the 360 px screen (issue 36.9: it was 390–404 px, 'Fehlmenge …' kept on one line
  // beside three long headers): short headers as the packing station's, the word and amount on two lines.
  const table = page.getByRole('region', { name: 'Positionen' }).getByRole('table');
  await expect(table.getByRole('columnheader')).toHaveText(['Artikel', 'Soll', 'Ist', 'Differenz']);
  const box = await table.boundingBox();
  expect((box?.x ?? 0) + (box?.width ?? 999)).toBeLessThanOrEqual(360);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  // The receipt field takes the next receipt; this one again says it is closed.
  await expect(page.getByLabel('Wareneingang')).toBeFocused();
  await scan(page, number);
  await expect(page.getByRole('alert')).toHaveText(
    `Wareneingang ${number} ist abgeschlossen – keine Buchung mehr möglich.`,
  );
  await expect(page.getByLabel('Artikel')).toHaveCount(0);
});

async function token(page: Page): Promise<Record<string, string>> {
  return { authorization: `Bearer ${await page.evaluate(() => localStorage.getItem('vmAccessKey'))}` };
}

async function stockOn(page: Page, location: string, article: string): Promise<number> {
  const headers = await token(page);
  const lp = await (await page.request.get(`/api/inventur/findlp/${location}`, { headers })).json();
  const art = await (await page.request.get(`/api/inventur/findarticle/${article}`, { headers })).json();
  return (
    await (await page.request.get(`/api/umlagern/checklparticle/${lp.id}/${art.id}`, { headers })).json()
  ).amount;
}
