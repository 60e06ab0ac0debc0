import type { Page } from '@playwright/test';
import { loginWithPassword, scan, scanInto, setStock } from './support/helpers.ts';
import { claimAsLead, newPickNote, nextForLead } from './support/picking.ts';
import { expect, test } from './support/test.ts';

/**
 * Kommissionierung at 360×640, typed as a scanner types (keys at 0 ms, then Enter): a note of its own per
 * test (e2e/support/picking.ts), so the test can run again and again on the run's shared server.
 */

async function openPicking(page: Page) {
  await loginWithPassword(page);
  // The long word breaks at its soft hyphen: the menu stays as wide as the screen.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await page.getByRole('link', { name: 'Kommissionierung', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Kommissionierung' })).toBeVisible();
  await expect(page.getByLabel('Lieferschein')).toBeFocused();
}

const stop = (page: Page) => page.getByRole('region', { name: 'Gehe zu' });
const locationField = (page: Page) => page.getByLabel('Lagerplatz scannen');
const articleField = (page: Page) => page.getByLabel('Artikel scannen');

/** What the API says lies on a location of an article (the logged-in page's token). */
async function stockOf(page: Page, location: string, article: string): Promise<number> {
  const token = await page.evaluate(() => localStorage.getItem('vmAccessKey'));
  const headers = { authorization: `Bearer ${token}` };
  const lp = await (await page.request.get(`/api/inventur/findlp/${location}`, { headers })).json();
  const art = await (await page.request.get(`/api/inventur/findarticle/${article}`, { headers })).json();
  return (
    await (await page.request.get(`/api/umlagern/checklparticle/${lp.id}/${art.id}`, { headers })).json()
  ).amount;
}

test('picks a note in walking order: a wrong location refused, above five confirmed, a Fehlmenge reported', async ({
  page,
  request,
}) => {
  const belegnr = await newPickNote(request);
  await openPicking(page);
  await scan(page, belegnr);
  await expect(page.getByText(`Auftrag ${belegnr}`)).toBeVisible();
  await expect(page.getByText('0 von 3 Positionen erledigt')).toBeVisible();

  // Aisle A first: A-03-02-01, whatever order the note lists its lines in.
  await expect(stop(page)).toContainText('A-03-02-01');
  await scanInto(page, locationField(page), 'B-01-02-01');
  await expect(page.getByRole('alert')).toHaveText('Falscher Lagerplatz – bitte A-03-02-01 scannen.');
  await scanInto(page, locationField(page), 'A-03-02-01');
  await scanInto(page, articleField(page), '100008');
  await expect(page.getByRole('alert')).toHaveText('Artikel 100008 wird auf A-03-02-01 nicht entnommen.');
  // 8 pieces: above five, one scan and a question in the page take them all.
  await scanInto(page, articleField(page), '100007');
  const confirm = page.getByRole('dialog', { name: 'Menge bestätigen' });
  await expect(confirm).toContainText('8 × 100007 entnehmen?');
  await confirm.getByRole('button', { name: 'Bestätigen' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Entnommen!' })).toBeVisible();

  // Next: A-04-01-02. One of the three is not there: a Fehlmenge of 1, then two scans pick the rest.
  await expect(stop(page)).toContainText('A-04-01-02');
  await scanInto(page, locationField(page), 'A-04-01-02');
  await page.getByRole('button', { name: 'Fehlmenge 100008' }).click();
  const shortage = page.getByRole('dialog', { name: 'Fehlmenge für 100008' });
  const missing = shortage.getByLabel('Fehlende Menge');
  await expect(missing).toHaveValue('3');
  await expect(missing).toBeFocused();
  await page.keyboard.type('1');
  await shortage.getByRole('button', { name: 'Fehlmenge melden' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Fehlmenge gemeldet.' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Positionen an diesem Lagerplatz' })).toContainText('2 Stück');
  await scanInto(page, articleField(page), '100008');
  await expect(page.getByRole('list', { name: 'Positionen an diesem Lagerplatz' })).toContainText('1 Stück');
  await scanInto(page, articleField(page), 'KOM-100008'); // by its Herstellernummer: no double read

  // Then aisle B.
  await expect(stop(page)).toContainText('B-01-02-01');
  await expect(page.getByText('2 von 3 Positionen erledigt')).toBeVisible();
  await scanInto(page, locationField(page), 'B-01-02-01');
  await scanInto(page, articleField(page), '100006');
  await expect(page.getByRole('list', { name: 'Positionen an diesem Lagerplatz' })).toContainText('1 Stück');
  await scanInto(page, articleField(page), 'KOM-100006');
  await expect(
    page.getByText(`Lieferschein ${belegnr} ist kommissioniert – mit Fehlmenge, als Klärfall gemeldet.`),
  ).toBeVisible();
  await expect(page.getByLabel('Lieferschein')).toBeFocused();

  // The stock left the locations; the packing station holds the note back for the shift lead.
  expect(await stockOf(page, 'A-03-02-01', '100007')).toBe(52);
  expect(await stockOf(page, 'A-04-01-02', '100008')).toBe(23);
  expect(await stockOf(page, 'B-01-02-01', '100006')).toBe(38);
  await page.getByRole('link', { name: 'Zurück' }).click();
  await page.getByRole('link', { name: 'Paketinhalt', exact: true }).click();
  await scanInto(page, page.getByLabel('Lieferschein'), belegnr);
  await expect(page.getByRole('alert')).toHaveText('Lieferschein hat einen offenen Klärfall!');
  // The Fehlmenge marked A-04-01-02 for a count; counted, picking leads there again (the tests below).
  await setStock(page, 'A-04-01-02', '100008', 23);
});

test('a note picked completely shows as picked at the packing station, which checks its content as before', async ({
  page,
  request,
}) => {
  const belegnr = await newPickNote(request, [['100006', 1]]);
  await openPicking(page);
  await scan(page, belegnr);
  await scanInto(page, locationField(page), 'B-01-02-01');
  await scanInto(page, articleField(page), '100006');
  await expect(page.getByText(`Lieferschein ${belegnr} ist kommissioniert.`)).toBeVisible();

  await page.getByRole('link', { name: 'Zurück' }).click();
  await page.getByRole('link', { name: 'Paketinhalt', exact: true }).click();
  await scanInto(page, page.getByLabel('Lieferschein'), belegnr);
  await expect(page.getByText(`Lieferschein ${belegnr}`)).toBeVisible();
  await expect(page.getByText('✓ Kommissioniert von Demo Nutzer')).toBeVisible();
  await scanInto(page, page.getByLabel('Artikel scannen'), '100006');
  await expect(page.getByText('Alle Positionen gescannt.')).toBeVisible();
});

test('a second picker is refused with the name of the one picking; abandoning lets go at once', async ({
  page,
  request,
}) => {
  const belegnr = await newPickNote(request, [['100008', 1]]);
  await claimAsLead(request, belegnr);
  await openPicking(page);
  await scan(page, belegnr);
  await expect(page.getByRole('alert')).toHaveText('Wird schon von Schicht Leitung kommissioniert');
  await expect(page.getByLabel('Lieferschein')).toBeFocused();

  // A note of the worker's own, abandoned: the lead takes it over at once.
  const own = await newPickNote(request, [['100008', 1]]);
  await scanInto(page, page.getByLabel('Lieferschein'), own);
  await expect(stop(page)).toContainText('A-04-01-02');
  await page.getByRole('button', { name: 'Abbrechen' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Auftrag abbrechen' }).click();
  await expect(page.getByText(`Auftrag ${own} abgebrochen.`)).toBeVisible();
  await expect(page.getByLabel('Lieferschein')).toBeFocused();
  await claimAsLead(request, own);
});

test("'Nächster Auftrag' claims the oldest open note nobody else is picking; 'Abbrechen' lets go of it", async ({
  page,
  request,
}) => {
  await openPicking(page);
  await page.getByRole('button', { name: 'Nächster Auftrag' }).click();
  const heading = page.getByText(/^Auftrag LS\w+$/);
  await expect(heading).toBeVisible();
  const taken = ((await heading.textContent()) ?? '').replace('Auftrag ', '');
  // While the worker holds it, the lead's 'Nächster Auftrag' is another note; let go of, it is the oldest free.
  expect(await nextForLead(request)).not.toBe(taken);
  await page.getByRole('button', { name: 'Abbrechen' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Auftrag abbrechen' }).click();
  await expect(page.getByText(`Auftrag ${taken} abgebrochen.`)).toBeVisible();
  expect(await nextForLead(request)).toBe(taken);
});
