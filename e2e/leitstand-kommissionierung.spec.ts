import type { APIRequestContext } from '@playwright/test';
import { seriousAxeFindings } from './support/axe.ts';
import { LEAD, loginAs } from './support/helpers.ts';
import { expect, test } from './support/test.ts';

/**
 * Wellen in the Leitstand (issue 41) at desk size: a pick profile set up and edited in place, a wave
 * released from it, its counts, a note taken out — and a handheld's pick through the API showing in the
 * wave's figures without a reload (the live stream). Each run imports two notes of a Versandart of its own
 * and a profile that takes only that one, so the demo's notes (the cart flow's) stay out of any wave and the
 * spec runs again and again (`--repeat-each`). Both notes leave the wave's open work by the end (one taken
 * out, one picked), so no later spec's cart is filled from this wave. 'Fahrt beenden' runs on a cart and a picker
 * of its own (imported and created per run), whose trip is started through the handheld's API.
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

/** Two single-line notes of Versandart `code` (as the ERP sends them), and stock to pick the second. */
async function importNotes(request: APIRequestContext, code: string): Promise<[string, string]> {
  const admin = await apiLogin(request, 'admin', 'admin');
  const upload = (kind: string, csv: string) =>
    post(request, admin, `/api/admin/import/${kind}`, {
      fileName: `${kind}.csv`,
      content: Buffer.from(csv, 'utf8').toString('base64'),
    });
  await upload('stock', 'Lagerplatz;Artikelnummer;Menge\nA-04-01-02;100008;25');
  const notes: [string, string] = [`LS${code}A`, `LS${code}B`];
  await upload(
    'delivery-notes',
    [
      'Belegnr;EU;Versandart;Projekt;Artikelnummer;Menge',
      `${notes[0]};ja;${code}1;Onlineshop;100007;1`,
      `${notes[1]};ja;${code}2;Onlineshop;100008;2`,
    ].join('\n'),
  );
  return notes;
}

/** A picker on a handheld picks the whole note through the API: claim, then each open line. */
async function pickWhole(request: APIRequestContext, belegnr: string) {
  const picker = await apiLogin(request, 'demo', 'demo');
  const { data } = await post(request, picker, '/api/kommissionierung/auftrag', { belegnr });
  for (const line of data.positionen as { id: number; offen: number; lagerplatz: { id: number } | null }[]) {
    if (!line.lagerplatz) throw new Error(`${belegnr}: no stock to pick`);
    await post(request, picker, '/api/kommissionierung/entnahme', {
      id: data.id,
      positionId: line.id,
      lagerplatzId: line.lagerplatz.id,
      menge: line.offen,
    });
  }
}

test.describe('the Wellen page at desk size', () => {
  test.use({ viewport: { width: 1280, height: 800 }, isMobile: false, hasTouch: false });

  test('a profile set up and edited in place, a wave released, a note taken out, a pick shown live', async ({
    page,
    request,
  }) => {
    const code = `W${Date.now().toString(36).toUpperCase()}`;
    const [first, second] = await importNotes(request, code);
    const name = `Test ${code}`;
    // The page's status line (the header's live state is a status too).
    const notice = page.getByRole('main').getByRole('status');

    await loginAs(page, LEAD);
    await page.goto('/leitstand');
    await page.getByRole('navigation').getByRole('link', { name: 'Wellen' }).click();
    await expect(page).toHaveURL(/\/leitstand\/wellen$/);
    await expect(page.getByRole('heading', { name: 'Wellen', level: 1 })).toBeVisible();
    // The demo's profile is there.
    await expect(page.getByRole('region', { name: 'Einzelteile DHL' })).toBeVisible();

    // A new profile: this run's Versandart, single-line notes.
    const add = page.getByRole('region', { name: 'Profil anlegen' });
    await add.getByLabel('Name').fill(name);
    await add.getByLabel('Versandart').fill(code);
    await add.getByLabel('Höchstens Positionen').fill('1');
    await add.getByLabel('Lieferscheine je Wagen').fill('6');
    await add.getByRole('button', { name: 'Anlegen' }).click();
    await expect(notice).toHaveText(`Profil „${name}“ angelegt.`);
    await expect(add.getByLabel('Name')).toHaveValue('');
    const card = page.getByRole('region', { name, exact: true });
    await expect(card.getByLabel(`Versandart von „${name}“`)).toHaveValue(code);

    // Edited in place: 'Welle freigeben' waits until the change is saved.
    const perCart = card.getByLabel(`Lieferscheine je Wagen von „${name}“`);
    await perCart.fill('4');
    await expect(card.getByRole('button', { name: `Welle aus „${name}“ freigeben` })).toBeDisabled();
    await card.getByRole('button', { name: `Profil „${name}“ speichern` }).click();
    await expect(notice).toHaveText(`Profil „${name}“ gespeichert.`);
    await expect(perCart).toHaveValue('4');
    expect(await seriousAxeFindings(page)).toEqual([]);

    // Released: both notes, open.
    await card.getByRole('button', { name: `Welle aus „${name}“ freigeben` }).click();
    await expect(notice).toHaveText(/^Welle \d+ freigegeben: 2 Lieferscheine\.$/);
    const waveId = Number(/Welle (\d+)/.exec((await notice.textContent()) ?? '')?.[1]);
    const wave = page.getByRole('rowgroup', { name: `Welle ${waveId} · ${name}` });
    const figures = wave.getByRole('row').first().getByRole('cell');
    await expect(figures).toHaveText([new RegExp(`Welle ${waveId}`), '2', '2', '0', '0', '0', '']);

    // Released again: nothing left to take.
    await card.getByRole('button', { name: `Welle aus „${name}“ freigeben` }).click();
    await expect(page.getByRole('main').getByRole('alert')).toHaveText(
      'Keine Lieferscheine passen zu diesem Profil.',
    );

    // Its notes on demand; the first taken out.
    await wave.getByRole('button', { name: `Lieferscheine von Welle ${waveId} zeigen` }).click();
    const notes = wave.getByRole('table', { name: 'Lieferscheine' });
    await expect(notes.getByRole('row')).toHaveCount(3);
    await expect(notes.getByRole('row', { name: new RegExp(second) }).getByRole('cell')).toHaveText([
      second,
      `${code}2`,
      '1',
      'offen',
      '',
      'Herausnehmen',
    ]);
    await notes.getByRole('button', { name: `${first} aus der Welle nehmen` }).click();
    await expect(notice).toHaveText(`${first} aus Welle ${waveId} genommen.`);
    await expect(notes.getByRole('row')).toHaveCount(2);
    await expect(figures).toHaveText([new RegExp(`Welle ${waveId}`), '1', '1', '0', '0', '0', '']);
    expect(await seriousAxeFindings(page)).toEqual([]);

    // A handheld picks the other note: the figures follow without a reload.
    await pickWhole(request, second);
    await expect(figures).toHaveText([/erledigt/, '1', '0', '0', '1', '0', '']);
    await expect(notes.getByRole('row', { name: new RegExp(second) })).toContainText('kommissioniert');
    await expect(notes.getByRole('button', { name: `${second} aus der Welle nehmen` })).toHaveCount(0);

    // The profile removed after a confirm; the wave stays.
    await card.getByRole('button', { name: `Profil „${name}“ entfernen` }).click();
    await page
      .getByRole('dialog', { name: `Profil „${name}“ entfernen?` })
      .getByRole('button', { name: 'Entfernen' })
      .click();
    await expect(notice).toHaveText(`Profil „${name}“ entfernt.`);
    await expect(card).toHaveCount(0);
    await expect(wave).toBeVisible();
  });

  test('the Kommissionierwagen page shows KW01 with its six compartments and links to its labels', async ({
    page,
  }) => {
    await loginAs(page, LEAD);
    await page.goto('/leitstand');
    await page.getByRole('navigation').getByRole('link', { name: 'Kommissionierwagen' }).click();
    await expect(page).toHaveURL(/\/leitstand\/kommissionierwagen$/);
    const cart = page.getByRole('region', { name: 'KW01' });
    await expect(cart.getByRole('row')).toHaveCount(7);
    await expect(
      cart
        .getByRole('row', { name: /KW01-3/ })
        .getByRole('cell')
        .first(),
    ).toHaveText('KW01-3');
    expect(await seriousAxeFindings(page)).toEqual([]);
    await page.getByRole('link', { name: 'Etiketten' }).last().click();
    await expect(page).toHaveURL(/\/leitstand\/etiketten$/);
  });

  test("'Fahrt beenden' asks first, then the cart is free and its notes have left it", async ({
    page,
    request,
  }) => {
    const code = `E${Date.now().toString(36).toUpperCase()}`;
    // Something to pick however far earlier specs took the demo's notes.
    await importNotes(request, code);
    const admin = await apiLogin(request, 'admin', 'admin');
    await post(request, admin, '/api/admin/import/pick-carts', {
      fileName: 'pick-carts.csv',
      content: Buffer.from(`Kommissionierwagen;Fächer\n${code};2`, 'utf8').toString('base64'),
    });
    const picker = { username: code.toLowerCase(), name: `Picker ${code}`, password: 'lang-genug-1' };
    await post(request, admin, '/api/admin/benutzer', {
      ...picker,
      role: 'mitarbeiter',
      newCard: false,
    });
    const handheld = await apiLogin(request, picker.username, picker.password);
    const { data: trip } = await post(request, handheld, '/api/kommissionierung/wagen', { code });

    await loginAs(page, LEAD);
    await page.goto('/leitstand/kommissionierwagen');
    const cart = page.getByRole('region', { name: code });
    await expect(cart).toContainText(`in Arbeit: ${picker.name}`);
    await expect(cart.getByRole('row', { name: new RegExp(`${code}-1`) })).toContainText(
      'wird kommissioniert',
    );

    await cart.getByRole('button', { name: `Fahrt mit ${code} beenden` }).click();
    const question = page.getByRole('dialog', { name: `Fahrt von ${picker.name} mit ${code} beenden?` });
    await expect(question).toContainText('Ware im Fach bleiben');
    expect(await seriousAxeFindings(page)).toEqual([]);
    await question.getByRole('button', { name: 'Fahrt beenden' }).click();
    await expect(page.getByRole('main').getByRole('status')).toHaveText(`Fahrt mit ${code} beendet.`);
    // Nothing was put in: both notes left the cart, and nobody picks with it.
    await expect(cart).toContainText('frei');
    await expect(cart.getByRole('button', { name: `Fahrt mit ${code} beenden` })).toHaveCount(0);
    await expect(cart.getByRole('cell', { name: 'leer' })).toHaveCount(2);

    // The picker's handheld hears at its next call that the trip is over.
    const next = await request.post('/api/kommissionierung/wagen/abbrechen', {
      headers: { ...handheld, 'x-idempotency-key': crypto.randomUUID() },
      data: { fahrtId: trip.id },
    });
    expect(next.status()).toBe(409);
  });
});
