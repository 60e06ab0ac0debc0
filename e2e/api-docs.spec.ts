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
  // The sections start closed (docs.js); each one opened alone lists all its calls, with method and path.
  const tags = page.locator('.opblock-tag');
  await expect(tags).toHaveCount(await countTags(page));
  let listed = 0;
  for (let i = 0; i < (await tags.count()); i++) {
    await tags.nth(i).click();
    await expect(page.locator('.opblock').first()).toBeVisible();
    listed += await page.locator('.opblock').count();
    await tags.nth(i).click();
    await expect(page.locator('.opblock')).toHaveCount(0);
  }
  expect(listed).toBe(await countOperations(page));
  await page.locator('.opblock-tag', { hasText: /^inventur/ }).click();
  await expect(
    page.locator('.opblock-summary-path', { hasText: '/api/inventur/findarticle/{number}' }),
  ).toBeVisible();
  await page.locator('.opblock-tag', { hasText: /^export/ }).click();
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

/** How many tags the served document's calls use. */
async function countTags(page: import('@playwright/test').Page): Promise<number> {
  const document = await page.request.get('/api/openapi.json').then((r) => r.json());
  const used = new Set<string>();
  for (const methods of Object.values(document.paths as Record<string, Record<string, { tags?: string[] }>>))
    for (const operation of Object.values(methods)) for (const tag of operation.tags ?? []) used.add(tag);
  return used.size;
}

/** How many operations the served document has (paths × methods). */
async function countOperations(page: import('@playwright/test').Page): Promise<number> {
  const document = await page.request.get('/api/openapi.json').then((r) => r.json());
  return Object.values(document.paths as Record<string, Record<string, unknown>>).reduce(
    (sum, methods) => sum + Object.keys(methods).length,
    0,
  );
}
