import net from 'node:net';
import { decodePng, renderZpl, zplLabels } from '../test/support/labels.ts';
import { seriousAxeFindings } from './support/axe.ts';
import { E2E_PRINTER } from './support/global-setup.ts';
import { ADMIN, LEAD, loginAs, loginWithPassword, scan } from './support/helpers.ts';
import { expect, test } from './support/test.ts';

/**
 * Labels (issue 21): a worker prints a location's label from Lagerplatzprüfung to the station's printer — a
 * TCP listener on loopback standing in for a Zebra's raw port 9100 (PRINTERS names it for this run's server,
 * e2e/support/global-setup.ts) — and the Leitstand's Etiketten page downloads and prints at desk and tablet size.
 */
const jobs: string[] = [];
let printer: net.Server;

test.beforeAll(async () => {
  printer = net.createServer((socket) => {
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    socket.on('end', () => {
      jobs.push(Buffer.concat(chunks).toString('utf8'));
      socket.end();
    });
  });
  await new Promise<void>((resolve) =>
    printer.listen(Number(process.env.E2E_PORT) + 1, '127.0.0.1', resolve),
  );
});
test.afterAll(async () => {
  await new Promise((resolve) => printer.close(resolve));
});
test.beforeEach(() => {
  jobs.length = 0;
});

test('a worker chooses the station printer in Einstellungen and prints a location label from Lagerplatzprüfung', async ({
  page,
}) => {
  await loginWithPassword(page);
  await page.goto('/einstellungen');
  await page.getByLabel('Etikettendrucker').selectOption({ label: `${E2E_PRINTER} (100 × 50 mm, 203 dpi)` });

  await page.goto('/lagercheck');
  await expect(page.getByLabel('Lagerplatz')).toBeFocused();
  await scan(page, 'A-01-01-01');
  await expect(page.getByRole('table')).toBeVisible();
  await page.getByRole('button', { name: 'Etikett drucken' }).click();
  await expect(page.getByText(`1 Etikett an ${E2E_PRINTER} gesendet.`)).toBeVisible();

  // The printer got exactly one job with exactly one label, which scans as the location.
  await expect.poll(() => jobs.length).toBe(1);
  const labels = zplLabels(jobs[0] ?? '');
  expect(labels).toHaveLength(1);
  expect(await decodePng(await renderZpl(labels[0] ?? '', 100, 50, 203))).toEqual([
    { format: 'Code128', text: 'A-01-01-01' },
  ]);
  // The next scan still goes to the location field.
  await scan(page, 'A-01-01-02');
  await expect(page.getByRole('heading', { name: /A-01-01-02/ })).toBeVisible();
});

for (const [size, viewport] of [
  ['desktop', { width: 1280, height: 800 }],
  ['tablet', { width: 800, height: 1280 }],
] as const) {
  test.describe(`the Etiketten page at ${size} size`, () => {
    test.use({ viewport, isMobile: false, hasTouch: false });

    test('downloads a location range as PDF, prints it, and has no serious accessibility finding', async ({
      page,
    }) => {
      await loginAs(page, LEAD);
      await page.goto('/leitstand');
      await page.getByRole('navigation').getByRole('link', { name: 'Etiketten' }).click();
      await expect(page).toHaveURL(/\/leitstand\/etiketten$/);
      await expect(page.getByRole('heading', { name: 'Etiketten', level: 1 })).toBeVisible();
      expect(await seriousAxeFindings(page)).toEqual([]);

      const locations = page.getByRole('region', { name: 'Lagerplätze und LHM' });
      // Nothing chosen yet: the buttons wait and say what for (issue 36.9).
      const download = locations.getByRole('button', { name: 'Herunterladen' });
      await expect(download).toBeDisabled();
      await expect(download).toHaveAccessibleDescription(/Bitte „Von Lagerplatz“ angeben/);
      await expect(
        page.getByRole('region', { name: 'Artikel' }).getByRole('button', { name: 'Herunterladen' }),
      ).toHaveAccessibleDescription('Bitte zuerst Artikel suchen und auswählen.');
      // 'Von' alone is one label.
      await locations.getByLabel('Von Lagerplatz').fill('A-01-01-01');
      await expect(download).toBeEnabled();
      const single = page.waitForEvent('download');
      await download.click();
      expect((await single).suggestedFilename()).toBe('etiketten-lagerplatz.pdf');
      await locations.getByLabel('Bis Lagerplatz').fill('A-01-03-04');
      const downloading = page.waitForEvent('download');
      await download.click();
      expect((await downloading).suggestedFilename()).toBe('etiketten-lagerplatz.pdf');
      await expect(locations.getByRole('status')).toHaveText('etiketten-lagerplatz.pdf heruntergeladen.');

      await locations.getByRole('button', { name: 'Drucken' }).click();
      await expect(locations.getByRole('status')).toHaveText(`12 Etiketten an ${E2E_PRINTER} gesendet.`);
      await expect.poll(() => jobs.length).toBe(1);
      expect(zplLabels(jobs[0] ?? '')).toHaveLength(12);

      // A refusal is said in German where the range was typed.
      await locations.getByLabel('Bis Lagerplatz').fill('A-99');
      await locations.getByRole('button', { name: 'Herunterladen' }).click();
      await expect(locations.getByRole('alert')).toHaveText('Lagerplatz „A-99“ gibt es nicht.');

      // Articles by search and selection.
      const articles = page.getByRole('region', { name: 'Artikel' });
      await articles.getByLabel('Artikel suchen').fill('100001');
      await articles.getByRole('button', { name: 'Suchen' }).click();
      await articles.getByLabel('Artikel 100001 auswählen').check();
      await expect(articles.getByText('1 Artikel ausgewählt')).toBeVisible();
      const articleFile = page.waitForEvent('download');
      await articles.getByRole('button', { name: 'Herunterladen' }).click();
      expect((await articleFile).suggestedFilename()).toBe('etiketten-artikel.pdf');
      expect(await seriousAxeFindings(page)).toEqual([]);
    });
  });
}

test.describe('the admin’s printer list', () => {
  test.use({ viewport: { width: 1280, height: 800 }, isMobile: false, hasTouch: false });

  test('an admin sets up a 300 dpi printer for 57×32 mm labels, prints all carts on it, and removes it', async ({
    page,
  }) => {
    await loginAs(page, ADMIN);
    await page.goto('/leitstand/etiketten');
    const printers = page.getByRole('region', { name: 'Drucker (IT-Administration)' });
    // The printer from PRINTERS is listed, not changeable.
    await expect(printers.getByRole('row', { name: new RegExp(`${E2E_PRINTER} .*Umgebung`) })).toBeVisible();

    await printers.getByRole('button', { name: 'Drucker hinzufügen' }).click();
    await printers.getByLabel('Name').fill('Büro-Zebra');
    await printers.getByLabel('Adresse').fill('127.0.0.1');
    await printers.getByLabel('Port').fill(String(Number(process.env.E2E_PORT) + 1));
    await printers.getByLabel('Auflösung').selectOption('300');
    await printers.getByLabel('Etikettengröße').selectOption('57x32');
    await printers.getByRole('button', { name: 'Speichern' }).click();
    await expect(printers.getByRole('status')).toHaveText('Drucker „Büro-Zebra“ gespeichert.');
    await expect(printers.getByRole('row', { name: /Büro-Zebra .*Leitstand/ })).toBeVisible();
    expect(await seriousAxeFindings(page)).toEqual([]);

    const carts = page.getByRole('region', { name: 'Zollwagen' });
    await carts.getByLabel('Drucker').selectOption({ label: 'Büro-Zebra (57 × 32 mm, 300 dpi)' });
    await carts.getByRole('button', { name: 'Drucken' }).click();
    await expect(carts.getByRole('status')).toHaveText('5 Etiketten an Büro-Zebra gesendet.');
    await expect.poll(() => jobs.length).toBe(1);
    const labels = zplLabels(jobs[0] ?? '');
    expect(labels).toHaveLength(5);
    expect(labels[0]).toContain(`^PW${Math.round((57 * 300) / 25.4)}`);
    expect(await decodePng(await renderZpl(labels[0] ?? '', 57, 32, 300))).toEqual([
      { format: 'Code128', text: 'ZW01' },
    ]);

    await printers.getByRole('button', { name: 'Drucker Büro-Zebra entfernen' }).click();
    await expect(printers.getByRole('status')).toHaveText('Drucker „Büro-Zebra“ entfernt.');
    await expect(printers.getByRole('row', { name: /Büro-Zebra/ })).toHaveCount(0);
  });
});
