import { LEAD, loginAs } from './support/helpers.ts';
import { expect, test } from './support/test.ts';

/**
 * Issue 39: a Bestand search lists at most 50 stock rows per article and counts the others
 * (`bestandWeitere`). The demo warehouse has no article on that many locations, so the server's real answer
 * is passed on with a count added: the page must say that more stock lies elsewhere, beside the whole total.
 */
test.use({ viewport: { width: 1280, height: 800 }, isMobile: false, hasTouch: false });

test('an article with more stock rows than the search lists says how many more, beside the whole total', async ({
  page,
}) => {
  // The whole total as the server counts it now: other specs book the demo article too.
  let total = Number.NaN;
  await page.route('**/api/leitstand/bestand/artikel?*', async (route) => {
    const real = await route.fetch();
    const answer = await real.json();
    answer.artikel[0].bestandWeitere = 1234;
    total = answer.artikel[0].gesamt;
    await route.fulfill({ response: real, json: answer });
  });
  await loginAs(page, LEAD);
  await page.goto('/leitstand/bestand?q=4006381333931');
  const stock = page.getByRole('region', { name: '100001 Kugelschreiber blau' });
  await expect(stock.getByRole('row', { name: /^A-01-01-01 / })).toBeVisible();
  const article = page.getByRole('article').filter({ has: stock });
  await expect(article.getByText(`Gesamt: ${total.toLocaleString('de-DE')}`)).toBeVisible();
  await expect(
    article.getByText('… und 1.234 weitere Bestände auf anderen Lagerplätzen (Gesamt zählt alle).'),
  ).toBeVisible();
});
