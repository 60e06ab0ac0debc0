import type { APIRequestContext, Page, Request } from '@playwright/test';
import { seriousAxeFindings } from './support/axe.ts';
import { LEAD, loginAs, loginWithPassword, scan, scanInto, setStock, wedgeScan } from './support/helpers.ts';
import { newPickCart, newPicker, OwnWave } from './support/picking.ts';
import { expect, test } from './support/test.ts';

/**
 * Rollende Kommissionierung on the handheld (issue 41) at 360×640, typed as a scanner types: a cart of the
 * test's own, filled from a wave of the test's own (e2e/support/picking.ts `OwnWave`: the cart takes the oldest
 * released wave, and every spec's wave is closed at its end) for a worker of its own, so the test runs again
 * and again on the run's shared server.
 */

const stop = (page: Page) => page.getByRole('region', { name: 'Gehe zu' });
const locationField = (page: Page) => page.getByLabel('Lagerplatz scannen');
const articleField = (page: Page) => page.getByLabel('Artikel scannen');
const compartmentField = (page: Page) => page.getByLabel('Fach scannen');
const banner = (page: Page) => page.getByRole('alert').and(page.locator('.banner'));
const compartments = (page: Page) => page.getByRole('list', { name: 'Fächer' });
const puts = (sent: Request[]) =>
  sent.filter(
    (r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/kommissionierung/wagen/ablage',
  );

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

/**
 * Single-line notes of the test's own, in this order (the cart puts them in compartments 1, 2, … in the order
 * they came), released as a wave of their own, a cart for them, and a worker logged in at Kommissionierung.
 * `release` closes the wave (in the test's `finally`): nothing of it is left for another spec's cart.
 */
async function cartWithNotes(
  page: Page,
  request: APIRequestContext,
  lines: [nummer: string, menge: number][],
): Promise<{
  cart: string;
  notes: string[];
  picker: { username: string; password: string };
  wave: OwnWave;
  release: () => Promise<void>;
}> {
  const wave = new OwnWave(request);
  const notes: string[] = [];
  for (const line of lines) notes.push(await wave.note([line]));
  await wave.release(notes.length);
  const release = () => wave.close();
  try {
    const cart = await newPickCart(request, lines.length);
    const picker = await newPicker(request);
    await loginWithPassword(page, picker.username, picker.password, picker.name);
    wave.logins.push((await page.evaluate(() => localStorage.getItem('vmAccessKey'))) as string);
    await page.getByRole('link', { name: 'Kommissionierung', exact: true }).click();
    await expect(page.getByLabel('Lieferschein')).toBeFocused();
    return { cart, notes, picker, wave, release };
  } catch (e) {
    await release();
    throw e;
  }
}

test('picks a cart to the end: a wrong compartment refused, above five asked, Später, Rückgängig, a Fehlmenge, Wagen fertig; the packing station opens a compartment', async ({
  page,
  request,
}) => {
  test.slow();
  // Two notes per location, as the demo's wave: 100007 on A-03-02-01, 100008 on A-04-01-02, 100006 on B-01-02-01.
  const { cart, notes, release } = await cartWithNotes(page, request, [
    ['100007', 1],
    ['100007', 6],
    ['100008', 1],
    ['100008', 2],
    ['100006', 1],
    ['100006', 3],
  ]);
  const sent: Request[] = [];
  page.on('request', (r) => sent.push(r));
  try {
    await scan(page, cart);
    await expect(page.getByText(`Wagen ${cart}`)).toBeVisible();
    await expect(page.getByRole('region', { name: 'Noch offen' })).toContainText(
      'Noch 3 Lagerplätze, 14 Stück',
    );
    await expect(compartments(page).getByRole('listitem')).toHaveText([
      `Fach 1 ${notes[0]} noch 1 Stück`,
      `Fach 2 ${notes[1]} noch 6 Stück`,
      `Fach 3 ${notes[2]} noch 1 Stück`,
      `Fach 4 ${notes[3]} noch 2 Stück`,
      `Fach 5 ${notes[4]} noch 1 Stück`,
      `Fach 6 ${notes[5]} noch 3 Stück`,
    ]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

    // The first stop put off to the end of the route.
    await expect(stop(page)).toContainText('A-03-02-01');
    await stop(page).getByRole('button', { name: 'Später' }).click();
    await expect(stop(page)).toContainText('A-04-01-02');

    // One scan of the article, then one put per compartment; the wrong compartment first: refused, nothing booked.
    await scanInto(page, locationField(page), 'A-04-01-02');
    await scanInto(page, articleField(page), '100008');
    await expect(page.getByText('Fach 3: 1 Stück').first()).toBeVisible();
    expect(await seriousAxeFindings(page)).toEqual([]);
    await scanInto(page, compartmentField(page), `${cart}-4`);
    await expect(banner(page)).toHaveText(`Falsches Fach – bitte ${cart}-3 scannen.`);
    await page.waitForTimeout(300);
    expect(puts(sent)).toHaveLength(0);
    expect(await stockOf(page, 'A-04-01-02', '100008')).toBe(25);
    await scanInto(page, compartmentField(page), `${cart}-3`);
    await expect(page.getByRole('status').filter({ hasText: 'Entnommen!' })).toBeVisible();
    await expect(page.locator('.cart-put')).toContainText('Fach 4: 2 Stück');
    await scanInto(page, compartmentField(page), `${cart}-4`);
    await expect(stop(page)).toContainText('B-01-02-01');
    expect(puts(sent).map((r) => r.postDataJSON())).toMatchObject([
      { fach: `${cart}-3`, menge: 1 },
      { fach: `${cart}-4`, menge: 2 },
    ]);

    // B-01-02-01: one into Fach 5; of Fach 6's three one is missing (a Fehlmenge), two go in.
    await scanInto(page, locationField(page), 'B-01-02-01');
    await scanInto(page, articleField(page), '100006');
    await scanInto(page, compartmentField(page), `${cart}-5`);
    await expect(page.locator('.cart-put')).toContainText('Fach 6: 3 Stück');
    await page.getByRole('button', { name: 'Fehlmenge 100006 für Fach 6' }).click();
    const shortage = page.getByRole('dialog', { name: 'Fehlmenge für 100006' });
    await expect(shortage.getByLabel('Fehlende Menge')).toBeFocused();
    await page.keyboard.type('1');
    await shortage.getByRole('button', { name: 'Fehlmenge melden' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Fehlmenge gemeldet.' })).toBeVisible();
    await expect(page.locator('.cart-put')).toContainText('Fach 6: 2 Stück');
    await scanInto(page, compartmentField(page), `${cart}-6`);

    // The stop put off comes last: six pieces into Fach 2, asked in the page first.
    await expect(stop(page)).toContainText('A-03-02-01');
    await scanInto(page, locationField(page), 'A-03-02-01');
    await scanInto(page, articleField(page), '100007');
    await scanInto(page, compartmentField(page), `${cart}-1`);
    await expect(page.locator('.cart-put')).toContainText('Fach 2: 6 Stück');
    await scanInto(page, compartmentField(page), `${cart}-2`);
    const confirm = page.getByRole('dialog', { name: 'Menge bestätigen' });
    await expect(confirm).toContainText('6 × 100007 entnehmen?');
    await confirm.getByRole('button', { name: 'Bestätigen' }).click();
    await expect(page.getByRole('button', { name: 'Wagen fertig' })).toBeVisible();
    expect(await stockOf(page, 'A-03-02-01', '100007')).toBe(53);

    // A put reversed: asked in the page, the piece back on its location, then put again.
    await page.getByRole('button', { name: `Rückgängig: 1 × 100007 aus Fach 1` }).click();
    const undo = page.getByRole('dialog', { name: '1 × 100007 aus Fach 1 zurücklegen?' });
    await expect(undo).toContainText('Die Stücke gehen zurück auf A-03-02-01.');
    await undo.getByRole('button', { name: 'Zurücklegen' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Zurückgelegt.' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Wagen fertig' })).toBeHidden();
    expect(await stockOf(page, 'A-03-02-01', '100007')).toBe(54);
    await expect(compartments(page).getByRole('listitem').first()).toHaveText(
      `Fach 1 ${notes[0]} noch 1 Stück`,
    );
    await scanInto(page, locationField(page), 'A-03-02-01');
    await scanInto(page, articleField(page), '100007');
    await scanInto(page, compartmentField(page), `${cart}-1`);

    // Every line done: 'Wagen fertig', then the summary per compartment, and the next cart or note is scanned.
    await expect(compartments(page).getByRole('listitem')).toHaveText([
      `Fach 1 ${notes[0]} komplett`,
      `Fach 2 ${notes[1]} komplett`,
      `Fach 3 ${notes[2]} komplett`,
      `Fach 4 ${notes[3]} komplett`,
      `Fach 5 ${notes[4]} komplett`,
      `Fach 6 ${notes[5]} mit Fehlmenge`,
    ]);
    await page.getByRole('button', { name: 'Wagen fertig' }).click();
    const summary = page.getByRole('region', { name: `Wagen ${cart} fertig` });
    await expect(summary.getByRole('listitem')).toHaveText([
      `Fach 1 ${notes[0]} komplett`,
      `Fach 2 ${notes[1]} komplett`,
      `Fach 3 ${notes[2]} komplett`,
      `Fach 4 ${notes[3]} komplett`,
      `Fach 5 ${notes[4]} komplett`,
      `Fach 6 ${notes[5]} mit Fehlmenge`,
    ]);
    await expect(page.getByLabel('Lieferschein')).toBeFocused();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    expect(await seriousAxeFindings(page)).toEqual([]);
    expect(await stockOf(page, 'A-03-02-01', '100007')).toBe(53);
    expect(await stockOf(page, 'A-04-01-02', '100008')).toBe(22);
    expect(await stockOf(page, 'B-01-02-01', '100006')).toBe(37);

    // At the packing station a compartment's code opens the note lying in it.
    await page.getByRole('link', { name: 'Zurück' }).click();
    await page.getByRole('link', { name: 'Paketinhalt', exact: true }).click();
    await scanInto(page, page.getByLabel('Lieferschein'), `${cart}-1`);
    await expect(page.getByText(`Lieferschein ${notes[0]}`)).toBeVisible();
    await expect(page.getByRole('row', { name: /^100007 / })).toBeVisible();
    await scanInto(page, page.getByLabel('Artikel scannen'), '100007');
    await expect(page.getByText('Alle Positionen gescannt.')).toBeVisible();
  } finally {
    // The Fehlmenge marked B-01-02-01 for a count; counted, picking leads there again for the other specs
    // (before the wave is closed: that ends the picker's login, whose token counts).
    await setStock(page, 'B-01-02-01', '100006', 37);
    await release();
  }
});

test("'Abbrechen' asks in the page and releases the cart's notes", async ({ page, request }) => {
  const { cart, notes, release } = await cartWithNotes(page, request, [['100008', 1]]);
  try {
    await scan(page, cart);
    await expect(compartments(page)).toContainText(notes[0] as string);
    await page.getByRole('button', { name: 'Abbrechen' }).click();
    const question = page.getByRole('dialog', { name: `Wagen ${cart} abbrechen?` });
    await expect(question).toContainText('Was schon entnommen ist, bleibt im Fach bei seinem Auftrag.');
    await question.getByRole('button', { name: 'Weiter kommissionieren' }).click();
    await expect(locationField(page)).toBeFocused();
    await page.getByRole('button', { name: 'Abbrechen' }).click();
    await question.getByRole('button', { name: 'Wagen abbrechen' }).click();
    await expect(page.getByText(`Wagen ${cart} abgebrochen.`)).toBeVisible();
    await expect(page.getByLabel('Lieferschein')).toBeFocused();
    // Released: the note is the worker's to pick as a single note again.
    await scanInto(page, page.getByLabel('Lieferschein'), notes[0] as string);
    await expect(page.getByText(`Auftrag ${notes[0]}`)).toBeVisible();
    await page.getByRole('button', { name: 'Abbrechen' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Auftrag abbrechen' }).click();
  } finally {
    await release();
  }
});

test('a burst of the cart, location, article and compartment at scanner speed while the answers come late', async ({
  page,
  request,
}) => {
  const { cart, release } = await cartWithNotes(page, request, [
    ['100008', 1],
    ['100006', 1],
  ]);
  const sent: Request[] = [];
  page.on('request', (r) => sent.push(r));
  try {
    // The trip's start and every put answer late (the carts' list, fetched when the screen opened, does not).
    for (const call of ['**/api/kommissionierung/wagen', '**/api/kommissionierung/wagen/ablage'])
      await page.route(call, async (route) => {
        if (route.request().method() === 'POST') await new Promise((r) => setTimeout(r, 1500));
        await route.fallback();
      });
    // The cart, the whole first stop, and the next stop's location and article while its put is on its way.
    for (const code of [cart, 'A-04-01-02', '100008', `${cart}-1`, 'B-01-02-01', '100006'])
      await wedgeScan(page, code);
    await expect(stop(page)).toContainText('B-01-02-01');
    await expect(page.locator('.cart-put')).toContainText('Fach 2: 1 Stück');
    await expect(compartmentField(page)).toBeFocused();
    await expect(compartmentField(page)).toHaveValue('');
    expect(puts(sent).map((r) => r.postDataJSON())).toMatchObject([{ fach: `${cart}-1`, menge: 1 }]);
    await wedgeScan(page, `${cart}-2`);
    await expect(page.getByRole('button', { name: 'Wagen fertig' })).toBeVisible();
    expect(puts(sent)).toHaveLength(2);
    await expect(banner(page)).toBeHidden();
    await page.getByRole('button', { name: 'Wagen fertig' }).click();
    await expect(page.getByRole('region', { name: `Wagen ${cart} fertig` })).toBeVisible();
  } finally {
    await release();
  }
});

test('a trip taken over on another handheld of the same login ends on this one', async ({
  page,
  request,
}) => {
  const { cart, notes, picker, wave, release } = await cartWithNotes(page, request, [['100008', 1]]);
  try {
    await scan(page, cart);
    await expect(compartments(page)).toContainText(notes[0] as string);
    // The same worker logs in on a second handheld and scans the cart there: the trip moves to it.
    const login = await request.post('/api/user/login', { data: picker });
    const secondToken = (await login.json()).token as string;
    wave.logins.push(secondToken);
    const second = { authorization: `Bearer ${secondToken}` };
    const taken = await request.post('/api/kommissionierung/wagen', {
      headers: { ...second, 'x-idempotency-key': crypto.randomUUID() },
      data: { code: cart },
    });
    expect(taken.status()).toBe(200);
    // This handheld's next call is refused as over (by the answer's marker): the trip is gone from it.
    await page.getByRole('button', { name: 'Später' }).click();
    await expect(banner(page)).toHaveText(
      `Wagen ${cart} ist nicht mehr in Arbeit. Bitte den Wagen neu scannen.`,
    );
    await expect(page.getByLabel('Lieferschein')).toBeFocused();
    await expect(compartments(page)).toBeHidden();
    // The second handheld lets go of the cart, so the wave can be closed.
    const released = await request.post('/api/kommissionierung/wagen/abbrechen', {
      headers: { ...second, 'x-idempotency-key': crypto.randomUUID() },
      data: { fahrtId: (await taken.json()).data.id },
    });
    expect(released.status()).toBe(200);
  } finally {
    await release();
  }
});

test('the Leitstand sees the wave go from open to on the cart to picked and short while the handheld picks, without a reload', async ({
  page,
  request,
  browser,
}) => {
  test.slow();
  const wave = new OwnWave(request);
  const notes = [await wave.note([['100008', 1]]), await wave.note([['100006', 2]])];
  await wave.profile();
  const cart = await newPickCart(request, 2);
  const picker = await newPicker(request);
  const desk = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    isMobile: false,
    hasTouch: false,
  });
  try {
    // The lead at the desk releases the test's wave on Leitstand › Wellen.
    const lead = await desk.newPage();
    await loginAs(lead, LEAD);
    await lead.goto('/leitstand');
    await lead.getByRole('navigation').getByRole('link', { name: 'Wellen' }).click();
    await expect(lead.getByRole('heading', { name: 'Wellen', level: 1 })).toBeVisible();
    await lead
      .getByRole('region', { name: wave.name, exact: true })
      .getByRole('button', { name: `Welle aus „${wave.name}“ freigeben` })
      .click();
    const notice = lead.getByRole('main').getByRole('status');
    await expect(notice).toHaveText(/^Welle \d+ freigegeben: 2 Lieferscheine\.$/);
    wave.adopt(Number(/Welle (\d+)/.exec((await notice.textContent()) ?? '')?.[1]));
    // Cells: wave, notes, open, on a cart, picked, short, carts.
    const figures = lead
      .getByRole('rowgroup', { name: `Welle ${wave.id} · ${wave.name}` })
      .getByRole('row')
      .first()
      .getByRole('cell');
    await expect(figures).toHaveText([new RegExp(`Welle ${wave.id}`), '2', '2', '0', '0', '0', '']);
    // Whatever follows must reach the page without a reload: a mark on its window stays.
    await lead.evaluate(() => {
      (window as unknown as { notReloaded: boolean }).notReloaded = true;
    });

    // The handheld scans the cart: both notes on it, with the cart and its picker.
    await loginWithPassword(page, picker.username, picker.password, picker.name);
    wave.logins.push((await page.evaluate(() => localStorage.getItem('vmAccessKey'))) as string);
    await page.getByRole('link', { name: 'Kommissionierung', exact: true }).click();
    await expect(page.getByLabel('Lieferschein')).toBeFocused();
    await scan(page, cart);
    await expect(compartments(page).getByRole('listitem')).toHaveText([
      `Fach 1 ${notes[0]} noch 1 Stück`,
      `Fach 2 ${notes[1]} noch 2 Stück`,
    ]);
    await expect(figures).toHaveText([
      new RegExp(`Welle ${wave.id}`),
      '2',
      '0',
      '2',
      '0',
      '0',
      `${cart}: ${picker.name}`,
    ]);

    // The first note put: picked.
    await scanInto(page, locationField(page), 'A-04-01-02');
    await scanInto(page, articleField(page), '100008');
    await scanInto(page, compartmentField(page), `${cart}-1`);
    await expect(stop(page)).toContainText('B-01-02-01');
    await expect(figures).toHaveText([new RegExp(`Welle ${wave.id}`), '2', '0', '1', '1', '0', /.*/]);

    // Of the second note's two one is missing: a Fehlmenge, then the other put; picked, short.
    await scanInto(page, locationField(page), 'B-01-02-01');
    await scanInto(page, articleField(page), '100006');
    await page.getByRole('button', { name: 'Fehlmenge 100006 für Fach 2' }).click();
    const shortage = page.getByRole('dialog', { name: 'Fehlmenge für 100006' });
    await expect(shortage.getByLabel('Fehlende Menge')).toBeFocused();
    await page.keyboard.type('1');
    await shortage.getByRole('button', { name: 'Fehlmenge melden' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Fehlmenge gemeldet.' })).toBeVisible();
    await expect(figures).toHaveText([new RegExp(`Welle ${wave.id}`), '2', '0', '1', '1', '1', /.*/]);
    await scanInto(page, compartmentField(page), `${cart}-2`);
    await expect(page.getByRole('button', { name: 'Wagen fertig' })).toBeVisible();
    await expect(figures).toHaveText([/erledigt/, '2', '0', '0', '2', '1', /.*/]);
    await page.getByRole('button', { name: 'Wagen fertig' }).click();
    await expect(page.getByRole('region', { name: `Wagen ${cart} fertig` })).toBeVisible();

    expect(await lead.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(
      true,
    );
  } finally {
    await desk.close();
    // The Fehlmenge marked B-01-02-01 for a count; counted (one piece of 40 picked), picking leads there again.
    if (wave.logins.length > 0) await setStock(page, 'B-01-02-01', '100006', 39);
    await wave.close();
  }
});
