import { seriousAxeFindings } from './support/axe.ts';
import { LEAD, loginAs, loginWithPassword, openBetaScreen, setStock } from './support/helpers.ts';
import { expect, test } from './support/test.ts';

/** A pick place and an article no other spec books: 2 pieces there, no minimum at the start. */
const PLACE = 'A-02-04-04';
const ARTICLE = '100003';

/**
 * The Leitstand's Nachschub page (issue 20.5) at desktop and tablet size: a minimum set and edited in place
 * at the desk changes the handheld's Nachschub list; what is below its minimum is listed as the handheld
 * lists it.
 */
for (const [size, viewport] of [
  ['desktop', { width: 1280, height: 800 }],
  ['tablet', { width: 800, height: 1280 }],
] as const) {
  test.describe(`the Nachschub page at ${size} size`, () => {
    test.use({ viewport, isMobile: false, hasTouch: false });

    test('a minimum set and edited in the Leitstand changes the handheld’s Nachschub list', async ({
      page,
      browser,
    }) => {
      const handheld = await browser.newPage({ viewport: { width: 360, height: 640 } });
      await openBetaScreen(handheld, 'Nachschub');
      await setStock(handheld, PLACE, ARTICLE, 2);
      const task = handheld.getByRole('listitem').filter({ hasText: `${PLACE}: ${ARTICLE}` });
      const reload = handheld.getByRole('button', { name: 'Aktualisieren' });

      await loginAs(page, LEAD);
      await page.goto('/leitstand');
      await page.getByRole('navigation').getByRole('link', { name: 'Nachschub' }).click();
      await expect(page).toHaveURL(/\/leitstand\/nachschub$/);
      await expect(page.getByRole('heading', { name: 'Nachschub', level: 1 })).toBeVisible();
      // The seeded minimum of the demo tour is listed with its stock.
      const minima = page.getByRole('region', { name: 'Mindestbestände' });
      await expect(minima.getByRole('row', { name: /A-01-01-02 100001 Kugelschreiber blau/ })).toBeVisible();
      expect(await seriousAxeFindings(page)).toEqual([]);

      // A refusal in German, nothing set.
      const add = page.getByRole('region', { name: 'Mindestbestand setzen' });
      await add.getByLabel('Lagerplatz').fill('Z-99-99');
      await add.getByLabel('Artikel').fill(ARTICLE);
      await add.getByLabel('Minimum').fill('10');
      await add.getByRole('button', { name: 'Setzen' }).click();
      await expect(page.getByRole('alert')).toHaveText('Lagerplatz "Z-99-99" nicht gefunden!');

      // A new minimum: listed with the stock there, below it now, and on the handheld.
      await add.getByLabel('Lagerplatz').fill(PLACE);
      await add.getByRole('button', { name: 'Setzen' }).click();
      await expect(page.getByText(`Minimum von ${ARTICLE} auf ${PLACE} ist jetzt 10.`)).toBeVisible();
      await expect(add.getByLabel('Lagerplatz')).toHaveValue('');
      const below = page.getByRole('region', { name: 'Unter Minimum' });
      const belowRow = below.getByRole('row', { name: new RegExp(`^${PLACE} ${ARTICLE}`) });
      await expect(belowRow.getByRole('cell')).toHaveText([PLACE, /^100003 /, '2', '10', '8', /./]);
      await minima.getByLabel('Suche').fill(PLACE);
      const field = minima.getByLabel(`Minimum von ${ARTICLE} auf ${PLACE}`, { exact: true });
      await expect(field).toHaveValue('10');
      await expect(minima.getByRole('row', { name: new RegExp(`^${PLACE}`) })).toContainText('2');
      await reload.click();
      await expect(task).toContainText('Bestand 2 / Minimum 10');
      expect(await seriousAxeFindings(page)).toEqual([]);

      // Edited in place down to the stock: no longer below, gone from the handheld's list.
      await field.fill('2');
      await minima.getByRole('button', { name: `Minimum von ${ARTICLE} auf ${PLACE} speichern` }).click();
      await expect(page.getByText(`Minimum von ${ARTICLE} auf ${PLACE} ist jetzt 2.`)).toBeVisible();
      await expect(belowRow).toHaveCount(0);
      await expect(field).toHaveValue('2');
      await reload.click();
      await expect(handheld.getByRole('listitem').first()).toBeVisible();
      await expect(task).toHaveCount(0);

      // Up again: the handheld lists it again.
      await field.fill('6');
      await field.press('Enter');
      await expect(page.getByText(`Minimum von ${ARTICLE} auf ${PLACE} ist jetzt 6.`)).toBeVisible();
      await reload.click();
      await expect(task).toContainText('Bestand 2 / Minimum 6');

      // A bad minimum is refused in German; 'Entfernen' (after a confirm) removes it, from the handheld too.
      await field.fill('-3');
      await field.press('Enter');
      await expect(page.getByRole('alert')).toHaveText('Minimum muss mindestens 0 sein.');
      await minima.getByRole('button', { name: `Minimum von ${ARTICLE} auf ${PLACE} entfernen` }).click();
      const dialog = page.getByRole('dialog', { name: `Minimum von ${ARTICLE} auf ${PLACE} entfernen?` });
      await expect(dialog).toContainText('nicht mehr auf die Nachschubliste');
      expect(await seriousAxeFindings(page)).toEqual([]);
      await dialog.getByRole('button', { name: 'Entfernen' }).click();
      await expect(page.getByText(`Minimum von ${ARTICLE} auf ${PLACE} entfernt.`)).toBeVisible();
      await expect(minima).toContainText('Kein Mindestbestand passt zur Suche.');
      await reload.click();
      await expect(handheld.getByRole('listitem').first()).toBeVisible();
      await expect(task).toHaveCount(0);
      await handheld.close();
      expect(await seriousAxeFindings(page)).toEqual([]);
    });

    test('a worker sees the German refusal at its address, not the page', async ({ page }) => {
      await loginWithPassword(page);
      await page.goto('/leitstand/nachschub');
      await expect(page.getByRole('alert')).toHaveText('Der Leitstand ist der Schichtleitung vorbehalten.');
      await expect(page.getByRole('heading', { name: 'Mindestbestände' })).toHaveCount(0);
    });
  });
}
