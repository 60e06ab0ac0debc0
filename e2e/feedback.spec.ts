import { loginWithPassword, scan, scanInto } from './support/helpers.ts';
import { expect, test } from './support/test.ts';

/**
 * What the page played and vibrated, recorded by wrapping the browser's own calls. A tone is its frequency
 * (to 10 Hz) and how it was played: by a live oscillator, or from a pre-rendered buffer — then read from the
 * buffer's samples (zero crossings per tone), so the test hears what the worker hears.
 */
type Signals = { tones: string[]; vibrations: number[][] };

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => {
    const signals: Signals = { tones: [], vibrations: [] };
    (window as unknown as { signals: Signals }).signals = signals;
    navigator.vibrate = ((pattern: number | Iterable<number>) => {
      signals.vibrations.push(typeof pattern === 'number' ? [pattern] : [...pattern]);
      return true;
    }) as Navigator['vibrate'];
    const to10Hz = (hz: number) => Math.round(hz / 10) * 10;
    const startOscillator = OscillatorNode.prototype.start;
    OscillatorNode.prototype.start = function (this: OscillatorNode, when?: number) {
      // Only what reaches the speaker: not the oscillators rendered offline into a buffer.
      if (this.context instanceof AudioContext) signals.tones.push(`live ${to10Hz(this.frequency.value)}`);
      return startOscillator.call(this, when);
    };
    const startBuffer = AudioBufferSourceNode.prototype.start;
    AudioBufferSourceNode.prototype.start = function (this: AudioBufferSourceNode, ...args: number[]) {
      const buffer = this.buffer;
      if (buffer) {
        const samples = buffer.getChannelData(0);
        const rate = buffer.sampleRate;
        // Tones are the stretches between at least 1 ms of silence; each one's frequency from the time
        // between its first and last zero crossing (interpolated between samples).
        let crossings: number[] = [];
        let quiet = 0;
        const flush = () => {
          const first = crossings[0];
          const last = crossings[crossings.length - 1];
          if (crossings.length > 10 && first !== undefined && last !== undefined)
            signals.tones.push(`buffer ${to10Hz((crossings.length - 1) / 2 / (last - first))}`);
          crossings = [];
        };
        for (let i = 1; i < samples.length; i++) {
          const a = samples[i - 1] ?? 0;
          const b = samples[i] ?? 0;
          quiet = Math.abs(b) < 1e-3 ? quiet + 1 : 0;
          if (quiet === Math.round(rate / 1000)) flush();
          if ((a < 0 && b >= 0) || (a >= 0 && b < 0)) crossings.push((i - 1 + a / (a - b)) / rate);
        }
        flush();
      }
      return startBuffer.apply(this, args as [number?, number?, number?]);
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
  await expect.poll(() => signals(page)).toEqual({ tones: ['live 1760', 'live 2350'], vibrations: [[60]] });

  await scanInto(page, page.getByLabel('Artikel'), '4711-NIX');
  await expect(page.getByRole('alert')).toHaveText('Artikel "4711-NIX" nicht gefunden!');
  await expect
    .poll(() => signals(page))
    .toEqual({ tones: ['live 220'], vibrations: [[180, 90, 180, 90, 180]] });

  // From the second time on, each sound plays from its buffer, rendered once: the same tones.
  await scanInto(page, page.getByLabel('Artikel'), '100001');
  await expect(page.getByRole('button', { name: 'Artikel leeren' })).toBeVisible();
  await expect
    .poll(() => signals(page))
    .toEqual({ tones: ['buffer 1760', 'buffer 2350'], vibrations: [[60]] });
  await page.getByRole('button', { name: 'Artikel leeren' }).click();
  await scanInto(page, page.getByLabel('Artikel'), '4711-NIX');
  await expect
    .poll(() => signals(page))
    .toEqual({ tones: ['buffer 220'], vibrations: [[180, 90, 180, 90, 180]] });
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
