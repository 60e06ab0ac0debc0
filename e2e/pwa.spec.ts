import fs from 'node:fs';
import path from 'node:path';
import { loginWithPassword, scanInto } from './support/helpers.ts';
import { expect, type Page, test } from './support/test.ts';

/** The installed app: manifest, offline shell, and a new version that waits for the worker's tap. */
test.use({ serviceWorkers: 'allow' });

const OFFLINE = 'Keine Verbindung zum Server. Scans werden erst wieder angenommen, wenn das Netz zurück ist.';
/** The menus name the screens that keep scans without a network (e2e/outbox.spec.ts). */
const OFFLINE_MENU =
  'Keine Verbindung zum Server. Erfassungen werden gespeichert und später gesendet; alles andere geht erst wieder mit Netz.';
const NEW_VERSION = 'Neue Version – neu laden';

/** Logs in and waits until the service worker has the app on the device and controls the page. */
async function installed(page: Page): Promise<void> {
  await loginWithPassword(page);
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await page.reload();
  expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  await expect(page.getByRole('link', { name: 'Inventur', exact: true })).toBeVisible();
}

test('installable: a manifest with the German name, icons (also maskable) and a full-screen display', async ({
  page,
}) => {
  await page.goto('/');
  const href = await page.locator('link[rel="manifest"]').getAttribute('href');
  expect(href).toBeTruthy();
  const manifest = await (await page.request.get(href ?? '')).json();
  expect(manifest).toMatchObject({
    name: 'Lagerscanner',
    short_name: 'Lagerscanner',
    lang: 'de',
    start_url: '/',
    display: 'standalone',
  });
  expect(manifest.display_override).toEqual(['fullscreen', 'standalone']);
  const icons = manifest.icons as { src: string; sizes: string; type: string; purpose: string }[];
  expect(icons.map((i) => `${i.sizes} ${i.purpose}`)).toEqual(
    expect.arrayContaining(['192x192 any', '512x512 any', '512x512 maskable']),
  );
  for (const icon of icons) {
    const res = await page.request.get(`/${icon.src}`);
    expect(res.status(), icon.src).toBe(200);
    expect(res.headers()['content-type']).toContain(icon.type);
  }
});

test('offline the app still opens on any screen, says there is no connection, and a scan fails at once', async ({
  page,
  context,
}) => {
  await installed(page);
  await expect(page.getByText(OFFLINE)).toBeHidden();
  // Online a page comes from the server (a fresh CSRF token, valid even after the database moved) …
  const csrf = () => page.locator('meta[name="csrf-token"]').getAttribute('content');
  const before = await csrf();
  await page.reload();
  expect(await csrf()).not.toBe(before);

  // … offline from the device.
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByText(OFFLINE_MENU)).toBeVisible();
  await page.getByRole('link', { name: 'Inventur', exact: true }).click();
  const location = page.getByLabel('Lagerplatz');
  await expect(page.getByText(OFFLINE)).toBeVisible();
  const started = Date.now();
  await scanInto(page, location, 'A-01-01-01');
  await expect(page.getByRole('alert')).toHaveText('Netzwerkfehler. Bitte erneut versuchen.');
  expect(Date.now() - started).toBeLessThan(2000); // no waiting for a time-out

  // A deep link (a bookmark, a reload on a screen) opens from the device too.
  await page.goto('/paketinhalt');
  await expect(page.getByRole('heading', { name: 'Paketinhalt' })).toBeVisible();
  await expect(page.getByText(OFFLINE)).toBeVisible();

  // The network is back: the notice goes, and the scan goes through.
  await context.setOffline(false);
  await expect(page.getByText(OFFLINE)).toBeHidden();
  await page.getByRole('link', { name: 'Zurück' }).click();
  await page.getByRole('link', { name: 'Inventur', exact: true }).click();
  await scanInto(page, page.getByLabel('Lagerplatz'), 'A-01-01-01');
  await expect(page.getByLabel('Artikel')).toBeFocused();
});

test('a new version is offered on the menu only and loads when the worker taps it', async ({ page }) => {
  test.skip(!!process.env.E2E_BASE_URL, 'changes the built app of the server this run started');
  test.setTimeout(60_000); // two installs of the whole app on a busy machine
  await installed(page);
  const swFile = path.resolve(import.meta.dirname, '../dist/web/sw.js');
  const original = fs.readFileSync(swFile, 'utf8');
  try {
    // A new build: another service worker script on the server.
    fs.writeFileSync(swFile, `${original}\n// next version\n`);
    await page.getByRole('link', { name: 'Inventur', exact: true }).click();
    await page.evaluate(async () => {
      await (await navigator.serviceWorker.getRegistration())?.update();
    });
    await expect
      .poll(() => page.evaluate(async () => !!(await navigator.serviceWorker.getRegistration())?.waiting))
      .toBe(true);
    // In the middle of a task it does not appear …
    await expect(page.getByLabel('Lagerplatz')).toBeFocused();
    await expect(page.getByRole('button', { name: NEW_VERSION })).toHaveCount(0);
    // … on the menu it does, and nothing happens until it is tapped.
    await page.getByRole('link', { name: 'Zurück' }).click();
    const prompt = page.getByRole('button', { name: NEW_VERSION });
    await expect(prompt).toBeVisible();
    await page.evaluate(() => {
      (window as unknown as { beforeUpdate: boolean }).beforeUpdate = true;
    });
    const reloaded = page.waitForEvent('load');
    await prompt.click();
    await reloaded;
    expect(await page.evaluate(() => 'beforeUpdate' in window)).toBe(false);
    await expect(page.getByRole('link', { name: 'Inventur', exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: NEW_VERSION })).toHaveCount(0);
    expect(
      await page.evaluate(async () => {
        const registration = await navigator.serviceWorker.getRegistration();
        return { waiting: !!registration?.waiting, controlled: !!navigator.serviceWorker.controller };
      }),
    ).toEqual({ waiting: false, controlled: true });
  } finally {
    fs.writeFileSync(swFile, original);
  }
});
