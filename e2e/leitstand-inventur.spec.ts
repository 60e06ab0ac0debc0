import type { APIRequestContext } from '@playwright/test';
import { seriousAxeFindings } from './support/axe.ts';
import { LEAD, loginAs } from './support/helpers.ts';
import { expect, test } from './support/test.ts';

/**
 * Permanente Inventur in the Leitstand (issue 42) at tablet size: a count plan set up on the Zählpläne page,
 * 'Aufträge anlegen' from it, the location counted on handhelds (through the API: a first count above
 * tolerance, then the recount, given on the Zählaufträge page to a second person) — and the difference
 * showing on the open Differenzen page by itself (the live stream), posted with 'Buchen'. Each run imports a
 * location of its own, so the spec runs again and again (`--repeat-each`).
 */

async function apiLogin(request: APIRequestContext, username: string, password: string) {
  const res = await request.post('/api/user/login', { data: { username, password } });
  expect(res.status()).toBe(200);
  return { authorization: `Bearer ${(await res.json()).token as string}` };
}

async function post(request: APIRequestContext, headers: Record<string, string>, path: string, data: object) {
  const res = await request.post(path, {
    headers: { ...headers, 'x-idempotency-key': crypto.randomUUID() },
    data,
  });
  expect(res.status(), await res.text()).toBe(200);
  return res.json();
}

/** A location of this run's own holding 10 × 100001 (as the ERP's files bring them). */
async function importLocation(request: APIRequestContext, code: string): Promise<void> {
  const admin = await apiLogin(request, 'admin', 'admin');
  const upload = (kind: string, csv: string) =>
    post(request, admin, `/api/admin/import/${kind}`, {
      fileName: `${kind}.csv`,
      content: Buffer.from(csv, 'utf8').toString('base64'),
    });
  await upload('locations', `Lagerplatz;Bezeichnung;Lagertyp\n${code};E2E-Inventur;Fach`);
  await upload('stock', `Lagerplatz;Artikelnummer;Menge\n${code};100001;10`);
}

/** A counter on a handheld: the next task (it must be `code`'s), the location, `menge` × the article, 'Fertig'. */
async function count(
  request: APIRequestContext,
  user: { username: string; password: string },
  code: string,
  articleId: number,
  menge: number,
): Promise<string> {
  const counter = await apiLogin(request, user.username, user.password);
  // A count another spec left in work on this shared server (the accessibility walk counts as the demo
  // worker) would come first: given back, this run's task is the next.
  const current = await request.get('/api/zaehlauftrag/aktuell', { headers: counter });
  const inWork = (await current.json()).data as { id: number; lagerplatz: { code: string } } | null;
  if (inWork && inWork.lagerplatz.code !== code)
    await post(request, counter, `/api/zaehlauftrag/${inWork.id}/abbrechen`, {});
  const next = await post(request, counter, '/api/zaehlauftrag/naechster', {});
  expect(next.data?.lagerplatz.code).toBe(code);
  const id = next.data.id as number;
  await post(request, counter, `/api/zaehlauftrag/${id}/platz`, { lagerplatz: code });
  await post(request, counter, `/api/zaehlauftrag/${id}/zaehlung`, { artikelId: articleId, menge });
  const done = await post(request, counter, `/api/zaehlauftrag/${id}/fertig`, {});
  return done.data.ergebnis as string;
}

test.describe('Inventur in the Leitstand at tablet size', () => {
  test.use({ viewport: { width: 800, height: 1280 }, isMobile: false, hasTouch: true });

  test('a plan set up, its tasks made, a recount given away, the difference shown live and posted', async ({
    page,
    request,
  }) => {
    const code = `E2I-${Date.now().toString(36).toUpperCase()}`;
    await importLocation(request, code);
    const lead = await apiLogin(request, LEAD.username, LEAD.password);
    const content = await request.get(`/api/leitstand/bestand/lagerplatz/${code}`, { headers: lead });
    const articleId = (await content.json()).inhalt[0].artikelId as number;
    const notice = page.getByRole('main').getByRole('status');

    await loginAs(page, LEAD);
    await page.goto('/leitstand');
    await page.getByRole('navigation').getByRole('link', { name: 'Zählpläne' }).click();
    await expect(page).toHaveURL(/\/leitstand\/zaehlplaene$/);

    // A plan of this run's one location, for the demo worker, due today.
    const name = `Platz ${code}`;
    const add = page.getByRole('region', { name: 'Zählplan anlegen' });
    await add.getByLabel('Name').fill(name);
    await add.getByLabel('Lagerplatz von').fill(code);
    await add.getByLabel('Lagerplatz bis').fill(code);
    await add.getByLabel('Zuweisen an').selectOption({ label: 'Demo Nutzer' });
    await add.getByRole('button', { name: 'Anlegen' }).click();
    await expect(notice).toHaveText(`Zählplan „${name}“ angelegt.`);
    const plan = page.getByRole('region', { name });
    await expect(plan.getByLabel(`Lagerplatz von (${name})`)).toHaveValue(code);

    await plan.getByRole('button', { name: `Aufträge aus „${name}“ anlegen` }).click();
    await expect(notice).toHaveText('1 Zählauftrag angelegt.');
    await expect(plan.getByText('1 offen')).toBeVisible();
    expect(await seriousAxeFindings(page)).toEqual([]);

    // The demo worker counts 7 of 10: above tolerance, a recount for somebody else.
    expect(await count(request, { username: 'demo', password: 'demo' }, code, articleId, 7)).toBe(
      'nachzaehlung',
    );

    // The recount, on the Zählaufträge page, goes to the IT admin.
    await page.getByRole('navigation').getByRole('link', { name: 'Zählaufträge' }).click();
    await page.getByLabel('Lagerplatz beginnt mit').fill(code);
    const table = page.getByRole('table', { name: 'Zählaufträge' });
    await expect(table.getByRole('row')).toHaveCount(2);
    await expect(table.getByRole('cell', { name: 'Nachzählung' })).toBeVisible();
    const assignee = table.getByLabel(`Zählauftrag ${code} zuweisen an`);
    // Who counted first is not offered.
    await expect(assignee.getByRole('option', { name: 'Demo Nutzer' })).toHaveCount(0);
    await assignee.selectOption({ label: 'IT Admin' });
    await table.getByRole('button', { name: `Zählauftrag ${code} zuweisen` }).click();
    await expect(notice).toHaveText(`Zählauftrag ${code} an IT Admin zugewiesen.`);
    expect(await seriousAxeFindings(page)).toEqual([]);

    // The Differenzen page is open when the recount arrives: the difference shows by itself.
    await page.getByRole('navigation').getByRole('link', { name: 'Differenzen' }).click();
    await expect(page.getByRole('heading', { name: 'Differenzen', level: 1 })).toBeVisible();
    await expect(page.getByRole('region', { name: code })).toHaveCount(0);
    expect(await count(request, { username: 'admin', password: 'admin' }, code, articleId, 7)).toBe('wartet');
    const difference = page.getByRole('region', { name: code });
    await expect(difference).toBeVisible();
    const line = difference.getByRole('row', { name: /100001/ });
    await expect(line.getByRole('cell')).toHaveText([/100001/, '7', '10', '−3', '−30 %', 'Demo Nutzer: 7']);
    expect(await seriousAxeFindings(page)).toEqual([]);

    await difference.getByRole('button', { name: `Differenz an ${code} buchen` }).click();
    const dialog = page.getByRole('dialog', { name: `Differenz an ${code} buchen?` });
    await dialog.getByRole('button', { name: 'Buchen' }).click();
    await expect(notice).toHaveText(`Differenz an ${code} gebucht.`);
    await expect(page.getByRole('region', { name: code })).toHaveCount(0);

    const after = await request.get(`/api/leitstand/bestand/lagerplatz/${code}`, { headers: lead });
    expect((await after.json()).inhalt[0].menge).toBe(7);
  });
});
