import { loginWithPassword, scan, scanInto } from './support/helpers.ts';
import { expect, test } from './support/test.ts';

/** What the page played and vibrated, recorded by wrapping the browser's own calls. */
type Signals = { tones: number[]; vibrations: number[][] };

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => {
    const signals: Signals = { tones: [], vibrations: [] };
    (window as unknown as { signals: Signals }).signals = signals;
    navigator.vibrate = ((pattern: number | Iterable<number>) => {
      signals.vibrations.push(typeof pattern === 'number' ? [pattern] : [...pattern]);
      return true;
    }) as Navigator['vibrate'];
    const start = OscillatorNode.prototype.start;
    OscillatorNode.prototype.start = function (this: OscillatorNode, when?: number) {
      signals.tones.push(this.frequency.value);
      return start.call(this, when);
    };
  });
});

const signals = (page: import('@playwright/test').Page) =>
  page.evaluate(() => {
    const s = (window as unknown as { signals: Signals }).signals;
    return { tones: s.tones.splice(0), vibrations: s.vibrations.splice(0) };
  });

test('a scan that went through beeps high and buzzes once; a refused one sounds low and buzzes three times', async ({
  page,
}) => {
  await loginWithPassword(page);
  await page.getByRole('link', { name: 'Inventur', exact: true }).click();
  await expect(page.getByLabel('Lagerplatz')).toBeFocused();
  await signals(page);

  await scan(page, 'A-01-01-01');
  await expect(page.getByLabel('Artikel')).toBeFocused();
  await expect.poll(() => signals(page)).toEqual({ tones: [1760, 2349], vibrations: [[60]] });

  await scanInto(page, page.getByLabel('Artikel'), '4711-NIX');
  await expect(page.getByRole('alert')).toHaveText('Artikel "4711-NIX" nicht gefunden!');
  await expect.poll(() => signals(page)).toEqual({ tones: [220], vibrations: [[180, 90, 180, 90, 180]] });
});

test('the device settings switch sound and vibration off, and stay on the device across logins', async ({
  page,
}) => {
  await loginWithPassword(page);
  await page.getByRole('link', { name: 'Einstellungen' }).click();
  await expect(page.getByRole('heading', { name: 'Einstellungen' })).toBeVisible();
  await page.getByLabel('Ton').uncheck();
  await page.getByLabel('Vibration').uncheck();
  await page.getByLabel('Gerätename').fill('Scanner 3 Wareneingang');

  await page.getByRole('link', { name: 'Zurück' }).click();
  await page.getByRole('link', { name: 'Inventur', exact: true }).click();
  await expect(page.getByLabel('Lagerplatz')).toBeFocused();
  await signals(page);
  await scan(page, 'XX-NIRGENDS');
  await expect(page.getByRole('alert')).toBeVisible();
  await page.waitForTimeout(300);
  expect(await signals(page)).toEqual({ tones: [], vibrations: [] });

  // Another worker logs in on the same device: the settings are the device's.
  await page.getByRole('button', { name: 'Demo Nutzer abmelden' }).click();
  await expect(page.getByRole('button', { name: 'Mit Name und Passwort anmelden' })).toBeVisible();
  await loginWithPassword(page);
  await page.getByRole('link', { name: 'Einstellungen' }).click();
  await expect(page.getByLabel('Ton')).not.toBeChecked();
  await expect(page.getByLabel('Vibration')).not.toBeChecked();
  await expect(page.getByLabel('Gerätename')).toHaveValue('Scanner 3 Wareneingang');
});
