import { watchPageProblems } from './support/helpers.ts';
import { expect, test } from './support/test.ts';

test.use({ viewport: { width: 1280, height: 900 }, isMobile: false, hasTouch: false });

test('the API docs show every call from this server alone, under their policy, without an error', async ({
  page,
  baseURL,
}) => {
  const problems = await watchPageProblems(page);
  const foreign: string[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith(baseURL ?? '') && !request.url().startsWith('data:'))
      foreign.push(request.url());
  });

  const response = await page.goto('/api/docs');
  expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
  await expect(page.getByRole('heading', { name: /Lagerscanner API/ })).toBeVisible();
  // Every tag's section opens by default: the calls are listed, with method and path.
  await expect(page.locator('.opblock')).toHaveCount(await countOperations(page));
  await expect(
    page.locator('.opblock-summary-path', { hasText: '/api/inventur/findarticle/{number}' }),
  ).toBeVisible();
  await expect(page.locator('.opblock-summary-path', { hasText: '/api/export/movements' })).toBeVisible();

  // Open one call: its query parameters and the integration token it needs are shown.
  await page.locator('.opblock-summary', { hasText: '/api/export/movements' }).click();
  await expect(page.locator('.parameters-col_name', { hasText: 'cursor' })).toBeVisible();
  await page.getByRole('button', { name: 'Authorize' }).first().click();
  await expect(page.getByText('integrationToken', { exact: false }).first()).toBeVisible();

  expect(await problems.violations()).toEqual([]);
  expect(problems.consoleErrors).toEqual([]);
  expect(foreign).toEqual([]);
});

/** How many operations the served document has (paths × methods). */
async function countOperations(page: import('@playwright/test').Page): Promise<number> {
  const document = await page.request.get('/api/openapi.json').then((r) => r.json());
  return Object.values(document.paths as Record<string, Record<string, unknown>>).reduce(
    (sum, methods) => sum + Object.keys(methods).length,
    0,
  );
}
