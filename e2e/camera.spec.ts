import { test } from './support/fake-camera.ts';
import { loginWithPassword, scan } from './support/helpers.ts';
import { expect, type Locator, type Page } from './support/test.ts';

/**
 * Camera scanning (issue 8) with Chromium's fake camera filming a generated label: the code goes the way a
 * scanner's keystrokes go. The camera's code (chunk, polyfill, .wasm) loads from our origin, and only when
 * the camera button is pressed.
 */

const CAMERA_FILES = /\/assets\/(camera-overlay|ponyfill|zxing_reader)-[\w-]+\.(js|css|wasm)$/;

/** Every request the page makes, its console errors, and every camera stream it gets (each must be stopped). */
async function watch(page: Page): Promise<{ requests: string[]; consoleErrors: string[] }> {
  const requests: string[] = [];
  const consoleErrors: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  await page.addInitScript(() => {
    const streams: MediaStream[] = [];
    (window as unknown as { cameraStreams: MediaStream[] }).cameraStreams = streams;
    const media = navigator.mediaDevices;
    const getUserMedia = media.getUserMedia.bind(media);
    media.getUserMedia = async (constraints) => {
      const stream = await getUserMedia(constraints);
      streams.push(stream);
      return stream;
    };
  });
  return { requests, consoleErrors };
}

/** The state of every track of every stream the page got ('live' or 'ended'). */
function cameraTracks(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    (window as unknown as { cameraStreams: MediaStream[] }).cameraStreams.flatMap((stream) =>
      stream.getTracks().map((track) => track.readyState),
    ),
  );
}

function cameraButton(page: Page, field: string): Locator {
  return page
    .locator('.field')
    .filter({ has: page.getByLabel(field, { exact: true }) })
    .getByRole('button', { name: 'Kamera-Scan' });
}

async function openInventurAt(page: Page, location: string) {
  await loginWithPassword(page);
  await page.getByRole('link', { name: 'Inventur', exact: true }).click();
  await expect(page.getByLabel('Lagerplatz')).toBeFocused();
  await scan(page, location);
  await expect(page.getByLabel('Artikel')).toBeFocused();
}

test.describe('an EAN-13 in front of the camera', () => {
  test.use({ filming: ['ean13', '4006381333931'] });

  test('Inventur: the camera button reads the article and looks it up as a scan would', async ({
    page,
    baseURL,
  }) => {
    const { requests, consoleErrors } = await watch(page);
    const wasm = page.waitForResponse(/zxing_reader-[\w-]+\.wasm$/);
    await openInventurAt(page, 'A-01-01-01');
    expect(requests.filter((url) => CAMERA_FILES.test(url))).toEqual([]);

    const lookup = page.waitForRequest('**/api/inventur/findarticle/4006381333931');
    await cameraButton(page, 'Artikel').click();
    await lookup;
    await expect(page.getByText('100001 Kugelschreiber blau')).toBeVisible();
    await expect(page.getByLabel('Menge')).toBeFocused(); // where a scanned article moves the cursor
    await expect(page.getByRole('dialog', { name: 'Kamera-Scan' })).toHaveCount(0);
    expect(await cameraTracks(page)).toEqual(['ended']);
    // Scan to answer measured as for the location typed before it. The measure is taken after the frame that
    // paints the answer, which can come after the focus has moved on: polled, not read once.
    await expect
      .poll(() => page.evaluate(() => performance.getEntriesByName('scan-to-feedback').length))
      .toBe(2);

    const loaded = requests.filter((url) => CAMERA_FILES.test(url)).map((url) => new URL(url).pathname);
    expect(loaded).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/camera-overlay-.*\.js$/),
        expect.stringMatching(/ponyfill-.*\.js$/),
        expect.stringMatching(/zxing_reader-.*\.wasm$/),
      ]),
    );
    const origin = new URL(baseURL as string).origin;
    expect(requests.filter((url) => /^https?:/.test(url) && new URL(url).origin !== origin)).toEqual([]);
    // Served so that the browser compiles it while it downloads (a wrong type logs an error and falls back).
    expect((await wasm).headers()['content-type']).toBe('application/wasm');
    expect(consoleErrors).toEqual([]);
  });
});

test.describe('a GS1 DataMatrix carton label in front of the camera', () => {
  test.use({ filming: ['gs1datamatrix', '(01)04006381000024(10)CH-GS1(17)271200'] });

  test('WMS-Retoure: one camera read fills article, Charge and MHD (the group separator survives)', async ({
    page,
  }) => {
    await loginWithPassword(page);
    await page.getByRole('link', { name: 'WMS-Retoure', exact: true }).click();
    await expect(page.getByLabel('Artikel')).toBeFocused();
    await cameraButton(page, 'Artikel').click();
    await expect(page.getByText('100002 Bio-Joghurt Natur 250 g · Charge nötig · MHD nötig')).toBeVisible();
    await expect(page.getByLabel('Charge')).toHaveValue('CH-GS1');
    await expect(page.getByLabel('MHD')).toHaveValue('31.12.2027');
    await expect(page.getByLabel('LHM')).toBeFocused();
  });
});

test.describe('a camera that sees no code it reads', () => {
  // Code 39 is not among the formats read (EAN-13, Code 128, QR, DataMatrix).
  test.use({ filming: ['code39', 'KEIN-LAGERCODE'] });

  test('Abbrechen and Escape close the camera, release it and give the field back its cursor', async ({
    page,
  }) => {
    await watch(page);
    await openInventurAt(page, 'A-01-01-01');
    const camera = page.getByRole('dialog', { name: 'Kamera-Scan' });

    await cameraButton(page, 'Artikel').click();
    await expect(camera.getByRole('status')).toHaveText('Code ins Bild halten');
    await camera.getByRole('button', { name: 'Abbrechen' }).click();
    await expect(camera).toHaveCount(0);
    await expect(page.getByLabel('Artikel')).toBeFocused();
    expect(await cameraTracks(page)).toEqual(['ended']);

    await cameraButton(page, 'Artikel').click();
    await expect(camera.getByRole('status')).toHaveText('Code ins Bild halten');
    await page.keyboard.press('Escape');
    await expect(camera).toHaveCount(0);
    await expect(page.getByLabel('Artikel')).toBeFocused();
    expect(await cameraTracks(page)).toEqual(['ended', 'ended']);
    await expect(page.getByLabel('Artikel')).toHaveValue('');
  });

  test('says so when the camera is not allowed', async ({ page, context }) => {
    await context.clearPermissions();
    await openInventurAt(page, 'A-01-01-01');
    await cameraButton(page, 'Artikel').click();
    await expect(page.getByRole('dialog', { name: 'Kamera-Scan' }).getByRole('alert')).toHaveText(
      'Kamera nicht erlaubt. Bitte den Kamerazugriff für diese Seite in den Browser-Einstellungen erlauben.',
    );
    await page.getByRole('button', { name: 'Abbrechen' }).click();
    await expect(page.getByLabel('Artikel')).toBeFocused();
  });

  test('says so when the camera part of the app cannot be loaded', async ({ page }) => {
    await page.route(CAMERA_FILES, (route) => route.abort('internetdisconnected'));
    await openInventurAt(page, 'A-01-01-01');
    await cameraButton(page, 'Artikel').click();
    await expect(page.getByRole('alert').filter({ hasText: 'Kamera' })).toHaveText(
      'Kamera-Scan konnte nicht geladen werden. Bitte die Verbindung prüfen.',
    );
  });
});

test('the camera button sits beside the scan field on a 360 px screen, out of the keyboard’s way', async ({
  page,
}) => {
  await openInventurAt(page, 'A-01-01-01');
  const field = page.getByLabel('Artikel');
  const button = cameraButton(page, 'Artikel');
  const [fieldBox, buttonBox] = [await field.boundingBox(), await button.boundingBox()];
  expect(fieldBox && buttonBox).toBeTruthy();
  if (!fieldBox || !buttonBox) return;
  expect(buttonBox.x).toBeGreaterThan(fieldBox.x + fieldBox.width - 1);
  expect(buttonBox.x + buttonBox.width).toBeLessThanOrEqual(360);
  expect(buttonBox.height).toBeGreaterThanOrEqual(48);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await expect(button).toHaveAttribute('tabindex', '-1');
});
