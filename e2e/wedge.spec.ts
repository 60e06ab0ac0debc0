import { loginWithPassword, scanInto, wedgeScan } from './support/helpers.ts';
import { expect, type Page, test } from './support/test.ts';

/**
 * A keyboard wedge types the next code at once, whatever the screen is doing: here whole sequences of scans
 * arrive as one burst with zero delay, while every lookup is held back on the network, so each next code
 * arrives before the previous answer — and every character must still land in the field it belongs to.
 */
const SLOW_MS = 400;

async function slowDown(page: Page, pattern: string): Promise<void> {
  await page.route(pattern, async (route) => {
    await new Promise((r) => setTimeout(r, SLOW_MS));
    await route.continue();
  });
}

/** A wedge's burst: every key with zero delay, an Enter after each code. */
const burst = (page: Page, text: string) => page.keyboard.type(text);

test('Inventur: location, a 45-character GS1 DataMatrix and the amount in one burst while each lookup is on its way', async ({
  page,
}) => {
  await loginWithPassword(page);
  await page.getByRole('link', { name: 'Inventur', exact: true }).click();
  await expect(page.getByLabel('Lagerplatz')).toBeFocused();
  await slowDown(page, '**/api/inventur/find*/**');
  // GTIN of 100002, a 15-character batch, the group separator, best-before: without the separator the
  // batch would run into the date and be too long — the code would be refused.
  const dataMatrix = ']d2' + '0104006381000024' + '10CHARGE-BURST-01' + '\u001d' + '17271200';
  expect(dataMatrix.length).toBe(45);
  await burst(page, `A-01-01-02\n${dataMatrix}\n17\n`);
  // The burst's last Enter asks; it cannot answer the question itself.
  const question = page.getByRole('dialog', { name: 'Ist das korrekt?' });
  await expect(question).toContainText('Menge 17.');
  await question.getByRole('button', { name: 'Buchen' }).click();
  await expect(page.getByRole('status')).toHaveText(/Gezählt!/);
  const latest = page.getByRole('table').getByRole('row').nth(1);
  await expect(latest).toContainText('100002');
  await expect(latest).toContainText('A-01-01-02');
  await expect(latest).toContainText('17');
});

test('WMS-Retoure: a GS1 DataMatrix with its group separator, then the pallet SSCC, in one burst', async ({
  page,
}) => {
  await loginWithPassword(page);
  await page.getByRole('link', { name: 'WMS-Retoure', exact: true }).click();
  await expect(page.getByLabel('Artikel')).toBeFocused();
  await slowDown(page, '**/api/**');
  const dataMatrix = ']d20104006381000024' + '10CH-BURST' + '\u001d' + '17271200';
  await burst(page, `${dataMatrix}\n]C100340123450000000017\n`);
  await expect(page.getByLabel('Menge')).toBeFocused();
  await expect(page.getByText('100002 Bio-Joghurt Natur 250 g · Charge nötig · MHD nötig')).toBeVisible();
  await expect(page.getByLabel('Charge')).toHaveValue('CH-BURST');
  await expect(page.getByLabel('MHD')).toHaveValue('31.12.2027');
  // Looked up and locked: the SSCC shown, no LHM text field left.
  await expect(page.getByRole('button', { name: 'LHM leeren' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'LHM' })).toHaveCount(0);
  await expect(page.getByText('340123450000000017')).toBeVisible();
});

test('Paketinhalt: the note and two pieces in one burst pack exactly two; a Tab-terminated scan works like Enter', async ({
  page,
}) => {
  await loginWithPassword(page);
  const token = await page.evaluate(() => localStorage.getItem('vmAccessKey'));
  // A generated note with an open line of 3–9 pieces and an EAN (other tests use LS100001–LS100070).
  let found: { belegnr: string; nummer: string; ean: string } | null = null;
  for (let n = 100071; n <= 100120 && !found; n++) {
    const res = await page.request.get(`/api/packagecontent/LS${n}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    if (!res.ok()) continue;
    const lines = (await res.json()).data.paketinhalt as {
      nummer: string;
      ean: string | null;
      lsmenge: number;
      pemenge: number;
    }[];
    const line = lines.find((l) => l.lsmenge >= 3 && l.lsmenge <= 5 && l.pemenge === 0 && l.ean);
    if (line?.ean) found = { belegnr: `LS${n}`, nummer: line.nummer, ean: line.ean };
  }
  if (!found) throw new Error('no generated note with a small open line with an EAN');
  await page.getByRole('link', { name: 'Paketinhalt', exact: true }).click();
  await expect(page.getByLabel('Lieferschein')).toBeFocused();
  await slowDown(page, '**/api/packagecontent/**');
  await burst(page, `${found.belegnr}\n${found.nummer}\n${found.ean}\n`);
  const ist = page
    .getByRole('row', { name: new RegExp(found.nummer) })
    .getByRole('cell')
    .nth(3);
  await expect(ist).toHaveText('2');
  await page.waitForTimeout(2 * SLOW_MS); // a third booking would have answered by now
  await expect(ist).toHaveText('2');
  await expect(page.getByLabel('Artikel scannen')).toHaveValue('');

  // A scanner set to end codes with Tab.
  await wedgeScan(page, found.nummer, 'Tab');
  await expect(ist).toHaveText('3');
  await expect(page.getByLabel('Artikel scannen')).toBeFocused();
  // A person who types a code and presses Tab moves on to the next control; nothing is booked.
  await page.keyboard.type(found.nummer, { delay: 120 });
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Artikel scannen')).not.toBeFocused();
  await page.waitForTimeout(2 * SLOW_MS);
  await expect(ist).toHaveText('3');
});

test('a scanner whose Enter comes late never answers the question on screen: the scan is refused, nothing booked', async ({
  page,
}) => {
  await loginWithPassword(page);
  await page.goto('/umbuchung');
  await scanInto(page, page.getByLabel('Von Lagerplatz'), 'A-02-01-01');
  await expect(page.locator('.locked-value')).toHaveText(['A-02-01-01']);
  await scanInto(page, page.getByLabel('Nach Lagerplatz'), 'A-02-01-02');
  await expect(page.locator('.locked-value')).toHaveText(['A-02-01-01', 'A-02-01-02']);
  await page.getByRole('button', { name: 'Alles umbuchen' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('button', { name: 'Umbuchen' })).toBeFocused();
  const booked: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST') booked.push(r.url());
  });
  // The scan's keys 2 ms apart, its Enter 120 ms after the last one: still this scan's, not a person's.
  await wedgeScan(page, 'A-01-01-01', 'Enter', { lateBy: 120 });
  await expect(page.getByRole('alert')).toHaveText(
    'Scan nicht angenommen – bitte zuerst die Frage beantworten.',
  );
  await page.waitForTimeout(500);
  await expect(dialog).toBeVisible();
  expect(booked).toEqual([]);
  // A person's Enter, later, still answers it.
  await page.waitForTimeout(400);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  expect(booked).toEqual([]);
});

test('an amount is typed, never scanned: an article number scanned into the amount is refused, a typed amount counts', async ({
  page,
}) => {
  await loginWithPassword(page);
  await page.getByRole('link', { name: 'Inventur', exact: true }).click();
  await scanInto(page, page.getByLabel('Lagerplatz'), 'A-01-01-02');
  await scanInto(page, page.getByLabel('Artikel'), '100003');
  const amount = page.getByLabel('Menge');
  await expect(amount).toBeFocused();
  // The next article's number, scanned while the amount waits: digits only, but a scanner's burst.
  await wedgeScan(page, '100001');
  await expect(page.getByRole('alert')).toHaveText('Scan nicht angenommen – Menge bitte eintippen.');
  await expect(amount).toHaveValue('');
  await expect(amount).toBeFocused();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  // Ended by Tab, the same.
  await wedgeScan(page, '4006381333931', 'Tab');
  await expect(amount).toHaveValue('');
  await expect(amount).toBeFocused();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  // A person types four digits (a key every 80 ms) and presses Enter: that is the count.
  await page.keyboard.type('1234', { delay: 80 });
  await page.keyboard.press('Enter');
  const question = page.getByRole('dialog', { name: 'Ist das korrekt?' });
  await expect(question).toContainText(/Menge 1\.?234\./);
  await question.getByRole('button', { name: 'Abbrechen' }).click();
  await expect(amount).toHaveValue('1234');
});
