import fs from 'node:fs';
import { seriousAxeFindings } from './support/axe.ts';
import { LEAD, loginAs, loginWithPassword, setStock } from './support/helpers.ts';
import { expect, test } from './support/test.ts';

/**
 * The Leitstand's Bestand and movement journal (issue 20.3) at desktop and tablet size: the demo article
 * found by its EAN with its locations, a location's content, the journal filtered by a location showing a
 * booking made in the test, paged with 'Weitere laden', and its CSV download holding the filtered rows.
 */
for (const [size, viewport] of [
  ['desktop', { width: 1280, height: 800 }],
  ['tablet', { width: 800, height: 1280 }],
] as const) {
  test.describe(`the Leitstand's Bestand at ${size} size`, () => {
    test.use({ viewport, isMobile: false, hasTouch: false });

    test('the demo article by its EAN shows its locations; a location shows its content', async ({
      page,
    }) => {
      await loginAs(page, LEAD);
      await page.goto('/leitstand');
      await page
        .getByRole('navigation', { name: 'Bereiche des Leitstands' })
        .getByRole('link', { name: 'Bestand' })
        .click();
      await expect(page.getByRole('heading', { name: 'Bestand', level: 1 })).toBeVisible();

      await page.getByLabel('Artikel suchen').fill('4006381333931');
      await page.getByRole('button', { name: 'Suchen' }).click();
      const article = page.getByRole('region', { name: '100001 Kugelschreiber blau' });
      await expect(article.getByRole('row', { name: /^A-01-01-01 / })).toBeVisible();
      await expect(article.getByRole('row', { name: /^A-01-01-02 / })).toBeVisible();
      await expect(page.getByText('Gefunden über: EAN')).toBeVisible();
      expect(await seriousAxeFindings(page)).toEqual([]);

      await article.getByRole('link', { name: 'A-01-01-01' }).click();
      const location = page.getByRole('region', { name: 'Lagerplatz A-01-01-01' });
      await expect(location.getByRole('row', { name: /^100001 Kugelschreiber blau/ })).toBeVisible();
      await expect(page).toHaveURL(/\/leitstand\/bestand\?q=4006381333931&lp=A-01-01-01$/);
      expect(await seriousAxeFindings(page)).toEqual([]);

      await page.getByLabel('Lagerplatz anzeigen').fill('X-99-99-99');
      await page.getByRole('button', { name: 'Anzeigen' }).click();
      await expect(page.getByRole('alert')).toHaveText(/Lagerplatz "X-99-99-99" nicht gefunden!/);
    });

    test('the journal by location shows a booking made here, pages on, and downloads the filtered rows as CSV', async ({
      page,
    }) => {
      await loginAs(page, LEAD);
      // More bookings on A-01-01-01 by the lead than one page holds; the last one is 1 piece in.
      for (let i = 0; i < 30; i++) {
        await setStock(page, 'A-01-01-01', '100001', 30);
        await setStock(page, 'A-01-01-01', '100001', 31);
      }

      await page.goto('/leitstand/journal');
      await expect(page.getByRole('heading', { name: 'Bewegungsjournal', level: 1 })).toBeVisible();
      await page.getByLabel('Lagerplatz').fill('A-01-01-01');
      await page.getByLabel('Benutzer').fill('leitung');
      await page.getByRole('button', { name: 'Filtern' }).click();
      await expect(page).toHaveURL(/lagerplatz=A-01-01-01/);
      const table = page.getByRole('region', { name: 'Buchungen' });
      const rows = table.getByRole('row');
      await expect(rows.nth(1)).toHaveText(
        /Inventur.*100001 Kugelschreiber blau.*A-01-01-01.*1.*Schicht Leitung/,
      );
      await expect(page.getByText('50 Buchungen angezeigt.')).toBeVisible();
      expect(await seriousAxeFindings(page)).toEqual([]);

      // Every page, 'Weitere laden' at a time: each row once.
      while (await page.getByRole('button', { name: 'Weitere laden' }).isVisible()) {
        const before = await rows.count();
        await page.getByRole('button', { name: 'Weitere laden' }).click();
        await expect.poll(() => rows.count()).toBeGreaterThan(before);
      }
      await expect(page.getByText('Ende des Journals.')).toBeVisible();
      const shown = (await rows.count()) - 1;
      expect(shown).toBeGreaterThanOrEqual(60);
      await expect(page.getByRole('status').filter({ hasText: 'Buchungen angezeigt' })).toHaveText(
        `${shown} Buchungen angezeigt.`,
      );

      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Als CSV herunterladen' }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/^journal-\d{4}-\d{2}-\d{2}\.csv$/);
      const csv = fs.readFileSync(await download.path(), 'utf8');
      expect(
        csv.startsWith(
          '\uFEFFZeit;Art;Artikelnummer;Bezeichnung;Von;Nach;Menge;Charge;MHD;Benutzer;Buchungsnummer;Beleg\r\n',
        ),
      ).toBe(true);
      const lines = csv.trimEnd().split('\r\n').slice(1);
      expect(lines).toHaveLength(shown);
      for (const line of lines) {
        expect(line).toMatch(/;A-01-01-01;/);
        expect(line).toContain(';Schicht Leitung;');
      }
      expect(lines[0]).toMatch(
        /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2};Inventur;100001;Kugelschreiber blau;;A-01-01-01;1;;;Schicht Leitung;\d+;$/,
      );
    });

    test('the journal of a pallet fits the page: its 18-digit SSCC breaks, a location code stays whole', async ({
      page,
    }) => {
      const sscc = '340123450000000017';
      await loginAs(page, LEAD);
      await page.goto(`/leitstand/journal?lagerplatz=${sscc}`);
      const rows = page.getByRole('region', { name: 'Buchungen' }).getByRole('row');
      await expect(rows.nth(1)).toContainText(sscc);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        viewport.width,
      );
    });

    test('a bad filter is refused in German; a worker sees the refusal, not the pages', async ({ page }) => {
      await loginAs(page, LEAD);
      await page.goto('/leitstand/journal?artikel=GIBTSNICHT');
      await expect(page.getByRole('alert')).toContainText('Artikel "GIBTSNICHT" nicht gefunden!');
      await page.getByRole('button', { name: 'Als CSV herunterladen' }).click();
      await expect(page.getByRole('alert').filter({ hasText: 'GIBTSNICHT' })).toHaveCount(2);

      await page.evaluate(() => localStorage.clear());
      await loginWithPassword(page);
      await page.goto('/leitstand/bestand');
      await expect(page.getByRole('alert')).toHaveText('Der Leitstand ist der Schichtleitung vorbehalten.');
    });
  });
}
