import { test } from './support/fake-camera.ts';
import { loginWithPassword, scan, wedgeScan } from './support/helpers.ts';
import { expect, type Locator, type Page } from './support/test.ts';

/**
 * GS1 labels end to end on one screen, WMS-Retoure (issue 18): one carton label fills article, Charge and MHD
 * — from a wedge (the group separator as a key of its own, as text, or as the replacement the device is set
 * to), from the camera (ZXing keeps the separator), as a Digital Link behind a symbology identifier — and a
 * bad label is refused or read in part, with the field named. Demo article 100002 has GTIN 04006381000024.
 */

const GS = '\u001d';
const ARTICLE = '100002 Bio-Joghurt Natur 250 g · Charge nötig · MHD nötig';

async function openWmsRetoure(page: Page): Promise<void> {
  await loginWithPassword(page);
  await page.getByRole('link', { name: 'WMS-Retoure', exact: true }).click();
  await expect(page.getByLabel('Artikel')).toBeFocused();
}

/**
 * A wedge that sends the group separator as a key event of its own (key and text ASCII 29), every other
 * character as a key too, then Enter — unlike `wedgeScan`, which inserts the separator as text.
 */
async function wedgeScanGsAsKey(page: Page, text: string): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  for (const c of text) {
    await cdp.send('Input.dispatchKeyEvent', { type: 'keyDown', key: c, text: c, unmodifiedText: c });
    await cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', key: c });
  }
  const enter = { key: 'Enter', code: 'Enter', windowsVirtualKeyCode: 13 };
  await cdp.send('Input.dispatchKeyEvent', { type: 'keyDown', ...enter, text: '\r', unmodifiedText: '\r' });
  await cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', ...enter });
  await cdp.detach();
}

async function expectFilled(page: Page, charge: string, mhd: string): Promise<void> {
  await expect(page.getByText(ARTICLE)).toBeVisible();
  await expect(page.getByLabel('Charge')).toHaveValue(charge);
  await expect(page.getByLabel('MHD')).toHaveValue(mhd);
  await expect(page.getByLabel('LHM')).toBeFocused();
  await expect(page.getByRole('alert')).toBeHidden();
}

function cameraButton(page: Page, field: string): Locator {
  return page
    .locator('.field')
    .filter({ has: page.getByLabel(field, { exact: true }) })
    .getByRole('button', { name: 'Kamera-Scan' });
}

test.describe('a wedge scanner', () => {
  test('the group separator as a key: a food carton fills the MHD from (15) best before, its price field aside', async ({
    page,
  }) => {
    await openWmsRetoure(page);
    // GTIN, best before (day 00: end of the month), batch, GS, count and price per unit (3922).
    await wedgeScanGsAsKey(page, ']d2010400638100002415271200' + '10CH-15\u001d306\u001d39221299');
    await expectFilled(page, 'CH-15', '31.12.2027');
  });

  test('the group separator as the device’s replacement: a logistics label with fields the old reader did not know', async ({
    page,
  }) => {
    await loginWithPassword(page);
    await page.getByRole('link', { name: 'Einstellungen' }).click();
    await page.getByLabel('Gruppentrenner (GS) kommt als').fill('~');
    await page.getByRole('link', { name: 'Zurück' }).click();
    await page.getByRole('link', { name: 'WMS-Retoure', exact: true }).click();
    await expect(page.getByLabel('Artikel')).toBeFocused();
    // SSCC, content GTIN and count, use by (17), batch, ship-to postal code with country (421), a payment
    // reference (8020, its pay-to GLN on another label) and an AI GS1 has not allocated (8015).
    await wedgeScan(
      page,
      ']C100340123450000000017' +
        '0204006381000024' +
        '3712~17270615' +
        '10CH-LOG~' +
        '42127610115~' +
        '8020R-77~' +
        '8015X',
    );
    await expectFilled(page, 'CH-LOG', '15.06.2027');
  });

  test('a Digital Link behind the QR code’s symbology identifier', async ({ page }) => {
    await openWmsRetoure(page);
    await scan(page, ']Q1https://id.gs1.org/01/04006381000024/10/CH-DL?15=271130&3103=000250');
    await expectFilled(page, 'CH-DL', '30.11.2027');
  });
});

test.describe('a bad label', () => {
  test('a wrong check digit in the GTIN refuses the label, in any form', async ({ page }) => {
    await openWmsRetoure(page);
    const banner = page.getByRole('alert');
    for (const label of [
      ']Q1https://id.gs1.org/01/04006381000025/10/CH-1',
      `]d2010400638100002510CH-1${GS}15271231`,
      '(01)04006381000025(10)CH-1',
    ]) {
      await scan(page, label);
      await expect(banner).toHaveText('GS1-Code: Prüfziffer in Feld (01) falsch. Bitte erneut scannen.');
      await expect(page.getByLabel('Artikel')).toBeFocused();
      await expect(page.getByLabel('Artikel')).toHaveValue('');
    }
    await expect(page.getByLabel('Charge')).toHaveValue('');
  });

  test('a broken best-before date: article and Charge filled, the MHD named and left to the worker', async ({
    page,
  }) => {
    await openWmsRetoure(page);
    await scan(page, ']d20104006381000024' + '10CH-30FEB\u001d15270230');
    await expect(page.getByText(ARTICLE)).toBeVisible();
    await expect(page.getByRole('alert')).toHaveText('GS1-Code: Datum in Feld (15) ungültig.');
    await expect(page.getByLabel('Charge')).toHaveValue('CH-30FEB');
    await expect(page.getByLabel('MHD')).toHaveValue('');
    await expect(page.getByLabel('MHD')).toBeFocused();
    await scan(page, '280227');
    await expect(page.getByLabel('MHD')).toHaveValue('28.02.2027');
    await expect(page.getByLabel('LHM')).toBeFocused();
  });

  test('a batch too long for GS1 (separator lost): the Charge named and asked for', async ({ page }) => {
    await openWmsRetoure(page);
    // The separator lost: the batch runs into the date, 'CH-7-LONGER-BATCH17271231' is 25 characters (≤ 20).
    await scan(page, ']d20104006381000024' + '10CH-7-LONGER-BATCH17271231');
    await expect(page.getByText(ARTICLE)).toBeVisible();
    await expect(page.getByRole('alert')).toHaveText('GS1-Code: Feld (10) ist zu lang.');
    await expect(page.getByLabel('Charge')).toBeFocused();
    await expect(page.getByLabel('Charge')).toHaveValue('');
  });
});

test.describe('the camera, a GS1 DataMatrix carton label', () => {
  test.use({ filming: ['gs1datamatrix', '(01)04006381000024(15)271200(10)CH-CAM(30)6(3922)1299'] });

  test('fills article, Charge and MHD from (15) (ZXing keeps the group separator)', async ({ page }) => {
    await openWmsRetoure(page);
    await cameraButton(page, 'Artikel').click();
    await expectFilled(page, 'CH-CAM', '31.12.2027');
  });
});

test.describe('the camera, a QR code with a GS1 Digital Link', () => {
  test.use({ filming: ['qrcode', 'https://id.gs1.org/01/04006381000024/10/CH-QR?17=270630'] });

  test('fills article, Charge and MHD from (17)', async ({ page }) => {
    await openWmsRetoure(page);
    await cameraButton(page, 'Artikel').click();
    await expectFilled(page, 'CH-QR', '30.06.2027');
  });
});
