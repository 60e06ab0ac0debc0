import { E2E_CHEAT_CODE } from './support/global-setup.ts';
import { importDeliveryNote, LEAD, loginAs, loginWithPassword, scan, scanInto } from './support/helpers.ts';
import { expect, type Page, test } from './support/test.ts';

async function openPaketinhalt(page: Page, user?: typeof LEAD) {
  if (user) await loginAs(page, user);
  else await loginWithPassword(page);
  await page.getByRole('link', { name: 'Paketinhalt', exact: true }).click();
  await expect(page.getByLabel('Lieferschein')).toBeFocused();
}

const itemField = (page: Page) => page.getByLabel('Artikel scannen');
const istOf = (page: Page, nummer: string) =>
  page
    .getByRole('row', { name: new RegExp(nummer) })
    .getByRole('cell')
    .nth(3);

test('packs LS100001 from the note to the parcel-out compare', async ({ page }) => {
  await openPaketinhalt(page);
  await scan(page, 'LS100001');
  await expect(page.getByText('Lieferschein LS100001')).toBeVisible();
  await expect(itemField(page)).toBeFocused();

  // 100001: 2 pieces, one per scan, by number and by EAN.
  await scan(page, '100001');
  await expect(istOf(page, '100001')).toHaveText('1');
  await scanInto(page, itemField(page), '4006381333931');
  await expect(istOf(page, '100001')).toHaveText('2');
  await scanInto(page, itemField(page), '100001');
  await expect(page.getByRole('alert')).toHaveText('100001 Kugelschreiber blau wurde schon gescannt');
  await scanInto(page, itemField(page), '999999999');
  await expect(page.getByRole('alert')).toHaveText('Artikel nicht im Lieferschein enthalten');

  // Not complete yet: the arrow refuses, naming the line never picked (its 2 scans booked 100001 out).
  await page.getByRole('button', { name: 'Weiter' }).click();
  await expect(page.getByRole('alert')).toHaveText(
    'Bitte alle Positionen scannen! Nicht kommissioniert: 100003 (8).',
  );
  await expect(itemField(page)).toBeFocused();

  // 100003: 8 pieces — above 5, so one confirmed scan counts them all.
  await scanInto(page, itemField(page), '04012345678901');
  const confirm = page.getByRole('dialog', { name: 'Menge bestätigen' });
  await expect(confirm).toContainText('8 × 100003 im Paket?');
  await confirm.getByRole('button', { name: 'Bestätigen' }).click();
  await expect(istOf(page, '100003')).toHaveText('8');
  await expect(page.getByText('Warenpost National!')).toBeVisible();
  await expect(page.getByText('Es werden Zollpapiere benötigt!')).toHaveCount(0);

  // Step 2: cartons.
  await page.getByRole('button', { name: 'Weiter' }).click();
  await expect(page).toHaveURL('/kartonagenerfassung');
  await expect(page.getByText('Karton M')).toBeVisible();
  await page.getByRole('button', { name: 'Karton M mehr' }).click();
  await page.getByRole('button', { name: 'Karton M mehr' }).click();
  await page.getByRole('button', { name: 'Karton M weniger' }).click();
  await page.getByRole('button', { name: 'Karton S weniger' }).click();
  await expect(page.getByRole('group', { name: 'Karton M' }).locator('.counter-value')).toHaveText('1');
  await expect(page.getByRole('group', { name: 'Karton S' }).locator('.counter-value')).toHaveText('0');
  await page.getByRole('button', { name: 'Bild von Karton M' }).click();
  const picture = page.getByRole('img', { name: 'Bild von Karton M' });
  await expect(picture).toBeVisible();
  // Visible as soon as the element is laid out; loaded a moment later (slower on a busy machine).
  await expect
    .poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
    .toBe(true);
  await page.getByRole('button', { name: 'Schließen' }).click();
  await page.getByRole('button', { name: 'Speichern' }).click();
  await expect(page.getByRole('status')).toHaveText(/Kartonagen gespeichert!/);

  // Step 3: the parcel must belong to this note.
  await expect(page).toHaveURL('/paketausgang');
  await expect(page.getByRole('heading', { name: 'Paket für Lieferschein LS100001 scannen' })).toBeVisible();
  await scanInto(page, page.getByLabel('Trackingnummer'), '00340434161094042564');
  await expect(page.getByRole('alert')).toHaveText(
    'Trackingnummer 00340434161094042564 stimmt nicht mit Lieferschein überein oder ist nicht vorhanden.',
  );
  await scanInto(page, page.getByLabel('Trackingnummer'), '00340434161094042557');
  await expect(page.getByRole('img', { name: 'Versanddienstleister dhl' })).toBeVisible();
  await expect(page).toHaveURL('/paketinhalt', { timeout: 5000 });
  await expect(page.getByLabel('Lieferschein')).toBeFocused();
});

test('shows every shipping notice of a non-EU Warenpost International note with engraving', async ({
  page,
}) => {
  await openPaketinhalt(page);
  await scan(page, 'LS100002');
  await scanInto(page, itemField(page), '100001');
  for (const notice of [
    'Warenpost International Premium!',
    'Es werden Zollpapiere benötigt!',
    'Enthält Gravurartikel!',
  ]) {
    await expect(page.getByText(notice)).toBeVisible();
  }
});

test('says when a note does not exist or has no content', async ({ page }) => {
  await openPaketinhalt(page);
  await scan(page, 'LS999');
  await expect(page.getByRole('alert')).toHaveText('Lieferschein LS999 kann nicht gefunden werden.');
  await scanInto(page, page.getByLabel('Lieferschein'), 'LS100099');
  await expect(page.getByRole('alert')).toHaveText('Lieferschein hat keinen Inhalt. Bitte an die IT wenden.');
});

test("shows the server's 406 when another packer finished the line first, and its 404", async ({ page }) => {
  await openPaketinhalt(page);
  await scan(page, 'LS100022');
  await expect(itemField(page)).toBeFocused();
  const firstRow = page.locator('tbody tr').first();
  const nummer = ((await firstRow.getByRole('cell').first().textContent()) ?? '').slice(0, 6);
  // The other packer: the same note on another device scans that line to the end.
  const token = await page.evaluate(() => localStorage.getItem('vmAccessKey'));
  const headers = { authorization: `Bearer ${token}` };
  const note = await (await page.request.get('/api/packagecontent/LS100022', { headers })).json();
  const line = note.data.paketinhalt.find((r: { nummer: string }) => r.nummer === nummer);
  for (let i = 0; i < (line.lsmenge > 5 ? 1 : line.lsmenge); i++) {
    const other = await page.request.post(`/api/packagecontent/${nummer}`, {
      headers: { ...headers, 'x-idempotency-key': crypto.randomUUID() },
      data: {
        id: note.data.id,
        itemNr: nummer,
        belegnr: 'LS100022',
        eu: 1,
        user_id: 1,
        paketinhalt: [],
        versandart: '',
      },
    });
    expect(other.status()).toBe(200);
  }
  page.on('dialog', (d) => void d.accept());
  await scan(page, nummer);
  const dialog = page.getByRole('dialog', { name: 'Menge bestätigen' });
  if (line.lsmenge > 5) await dialog.getByRole('button', { name: 'Bestätigen' }).click();
  await expect(page.getByRole('alert')).toHaveText(`Maximale Menge für Artikel ${nummer} erreicht`);

  // The server's 404 (the note changed under the packer's feet) is shown as the server words it.
  await page.getByRole('button', { name: 'Anderer Lieferschein' }).click();
  await scanInto(page, page.getByLabel('Lieferschein'), 'LS100023');
  const other = (
    (await page.locator('tbody tr').first().getByRole('cell').first().textContent()) ?? ''
  ).slice(0, 6);
  await page.route(`**/api/packagecontent/${other}`, (route) =>
    route.fulfill({
      status: 404,
      contentType: 'application/json',
      body: JSON.stringify({
        success: false,
        message: `ArtikelNr/EAN: ${other} nicht im Lieferschein vorhanden.`,
      }),
    }),
  );
  await scanInto(page, itemField(page), other);
  await expect(dialog.or(page.getByRole('alert'))).toBeVisible();
  if (await dialog.isVisible()) await dialog.getByRole('button', { name: 'Bestätigen' }).click();
  await expect(page.getByRole('alert')).toHaveText(
    `ArtikelNr/EAN: ${other} nicht im Lieferschein vorhanden.`,
  );
});

test('Klärfall: confirm titled "Achtung!", then "Klärfallzettel schreiben!" and back to the note scan', async ({
  page,
}) => {
  await openPaketinhalt(page);
  await scan(page, 'LS100020');
  // Five lines with long codes: the table still fits the handheld's 360 px, its "Ist" column visible.
  await expect(page.getByRole('columnheader', { name: 'Ist' })).toBeInViewport({ ratio: 1 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await page.getByRole('button', { name: 'Klärfall' }).click();
  const dialog = page.getByRole('dialog', { name: 'Achtung!' });
  await expect(dialog).toBeVisible();
  // Answered inside the event (Playwright's advice): awaiting accept() later raced the navigation after it.
  const alerts: string[] = [];
  page.on('dialog', (alert) => {
    alerts.push(alert.message());
    void alert.accept();
  });
  await dialog.getByRole('button', { name: 'Klärfall melden' }).click();
  await expect.poll(() => alerts).toEqual(['Klärfallzettel schreiben!']);
  await expect(page).toHaveURL('/paketinhalt');
  await expect(page.getByLabel('Lieferschein')).toBeFocused();
});

test('the cheat code configured on the server completes the note, for a shift lead', async ({
  page,
  request,
}) => {
  const note = await importDeliveryNote(request); // two lines
  await openPaketinhalt(page, LEAD);
  await scan(page, note);
  await scanInto(page, itemField(page), E2E_CHEAT_CODE);
  await expect(page.getByText('Alle Positionen gescannt.')).toBeVisible();
  const rows = page.locator('tbody tr');
  const count = await rows.count();
  expect(count).toBeGreaterThan(1);
  // It counted every line at once: no single one is named as counted last.
  await expect(page.getByRole('status').filter({ hasText: 'Gezählt:' })).toHaveCount(0);
  await expect(page.locator('tr.row--last')).toHaveCount(0);
  for (let i = 0; i < count; i++) {
    const cells = rows.nth(i).getByRole('cell');
    await expect(cells.nth(3)).toHaveText((await cells.nth(2).textContent()) ?? '');
  }
});

test('the cheat code scanned by a worker is refused in German, and nothing is packed', async ({ page }) => {
  await openPaketinhalt(page);
  await scan(page, 'LS100043');
  await scanInto(page, itemField(page), E2E_CHEAT_CODE);
  await expect(page.getByText('Den Abkürzungscode darf nur die Schichtleitung scannen.')).toBeVisible();
  await expect(page.getByText('Alle Positionen gescannt.')).toHaveCount(0);
});

test("a scan not on the note is one call; another note's number offers to switch to that note", async ({
  page,
}) => {
  await openPaketinhalt(page);
  await scan(page, 'LS100002');
  await expect(itemField(page)).toBeFocused();
  const calls: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/packagecontent')) calls.push(`${r.method()} ${new URL(r.url()).pathname}`);
  });
  await scanInto(page, itemField(page), '999999999');
  await expect(page.getByRole('alert')).toHaveText('Artikel nicht im Lieferschein enthalten');
  expect(calls).toEqual(['POST /api/packagecontent/999999999']); // no second call to try it as the cheat code

  await scanInto(page, itemField(page), 'LS100002');
  await expect(page.getByRole('alert')).toHaveText(
    'Das ist der Lieferschein, der gerade gepackt wird – bitte Artikel scannen.',
  );

  await scanInto(page, itemField(page), 'LS100001');
  const offer = page.getByRole('dialog', { name: 'Lieferschein wechseln?' });
  await expect(offer).toContainText('Lieferschein LS100001 gescannt – zu diesem Lieferschein wechseln?');
  await offer.getByRole('button', { name: 'Abbrechen' }).click();
  await expect(page.getByText('Lieferschein LS100002')).toBeVisible();
  await expect(itemField(page)).toBeFocused();

  await scanInto(page, itemField(page), 'LS100001');
  await offer.getByRole('button', { name: 'Wechseln' }).click();
  await expect(page.getByText('Lieferschein LS100001')).toBeVisible();
  await expect(page.getByRole('row', { name: /^100003 / })).toBeVisible();
});

test('cartons on their own: a project without cartons says so', async ({ page }) => {
  await loginWithPassword(page);
  await page.getByRole('link', { name: 'Kartonagen', exact: true }).click();
  await scanInto(page, page.getByLabel('Lieferschein'), 'LS100098');
  await expect(page.getByRole('alert')).toHaveText(
    'Projekt hat keine Kartonagen zugewiesen. Bitte an die IT wenden.',
  );
});

test('outgoing parcel on its own: carrier picture, unknown tracking, empty input ignored', async ({
  page,
}) => {
  await loginWithPassword(page);
  await page.getByRole('link', { name: 'Paketausgang', exact: true }).click();
  const field = page.getByLabel('Trackingnummer');
  await expect(field).toBeFocused();
  let calls = 0;
  page.on('request', (r) => {
    if (r.url().includes('/api/paketausgang')) calls++;
  });
  await page.keyboard.press('Enter');
  await page.keyboard.type('   ');
  await page.keyboard.press('Enter');
  expect(calls).toBe(0);
  await field.fill('');
  await scan(page, '91000100098');
  const picture = page.getByRole('img', { name: 'Versanddienstleister gls' });
  await expect(picture).toBeVisible();
  // Visible as soon as the element is laid out; loaded a moment later (slower on a busy machine).
  await expect
    .poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
    .toBe(true);
  await scanInto(page, field, 'XX123');
  await expect(page.getByRole('alert')).toHaveText('Trackingnummer XX123 kann nicht gefunden werden.');
});

test('returns desk: a known parcel is recorded, an unknown one refused', async ({ page }) => {
  await loginWithPassword(page);
  await page.getByRole('link', { name: 'Retoure', exact: true }).click();
  await scanInto(page, page.getByLabel('Trackingnummer'), '00340434161094042564');
  await expect(page.getByRole('status')).toHaveText(/Retoure erfasst!/);
  await expect(page.getByRole('status')).toBeHidden({ timeout: 3000 });
  await scanInto(page, page.getByLabel('Trackingnummer'), 'RT-UNBEKANNT');
  await expect(page.getByRole('alert')).toHaveText('Trackingnummer RT-UNBEKANNT kann nicht gefunden werden.');
});

test('a scanner double read (the same code twice within 300 ms) packs one piece, not two', async ({
  page,
}) => {
  await openPaketinhalt(page);
  // A generated note with a line of 2–5 pieces, none packed yet (the demo data is the same every run).
  const token = await page.evaluate(() => localStorage.getItem('vmAccessKey'));
  let found: { belegnr: string; nummer: string } | null = null;
  for (let n = 100040; n <= 100070 && !found; n++) {
    const res = await page.request.get(`/api/packagecontent/LS${n}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    if (!res.ok()) continue;
    const lines = (await res.json()).data.paketinhalt as {
      nummer: string;
      lsmenge: number;
      pemenge: number;
    }[];
    const line = lines.find((l) => l.lsmenge >= 2 && l.lsmenge <= 5 && l.pemenge === 0);
    if (line) found = { belegnr: `LS${n}`, nummer: line.nummer };
  }
  if (!found) throw new Error('no generated note with a small open line');
  await scan(page, found.belegnr);
  await expect(itemField(page)).toBeFocused();
  await page.keyboard.type(`${found.nummer}\n${found.nummer}\n`); // both reads at once, as the wedge sends them
  await expect(istOf(page, found.nummer)).toHaveText('1');
  await page.waitForTimeout(500); // a second booking would have answered by now
  await expect(istOf(page, found.nummer)).toHaveText('1');
  await expect(itemField(page)).toHaveValue('');
  // A deliberate second scan later counts.
  await scanInto(page, itemField(page), found.nummer);
  await expect(istOf(page, found.nummer)).toHaveText('2');
});

test('the line a scan counted shows under the scan field, also when it lies below the screen, and after a burst', async ({
  page,
  request,
}) => {
  // Six lines: on a 360 × 640 handheld the last ones are below the screen.
  const note = await importDeliveryNote(request, [
    ['100001', 2],
    ['100004', 1],
    ['100005', 1],
    ['100006', 2],
    ['100007', 1],
    ['100008', 3],
  ]);
  await openPaketinhalt(page);
  await scan(page, note);
  await expect(itemField(page)).toBeFocused();
  const counted = page.getByRole('status').filter({ hasText: 'Gezählt:' });
  await expect(counted).toHaveCount(0); // nothing counted yet
  const lastRow = page.getByRole('row', { name: /100008/ });
  await expect(lastRow).not.toBeInViewport();

  await scanInto(page, itemField(page), '100008');
  await expect(istOf(page, '100008')).toHaveText('1');
  await expect(counted).toHaveText('Gezählt: 100008 Kopierpapier A4 500 Blatt 1 von 3');
  await expect(counted).toBeInViewport({ ratio: 1 });
  await expect(itemField(page)).toBeInViewport({ ratio: 1 });
  await expect(itemField(page)).toBeFocused();
  await expect(lastRow).toHaveClass(/row--last/);
  await expect(lastRow).not.toBeInViewport(); // the page did not scroll away from the field

  // A burst at wedge speed: three codes at once. Each is counted, the strip names the last one.
  await page.keyboard.type('100006\n100007\n100001\n');
  await expect(istOf(page, '100006')).toHaveText('1');
  await expect(istOf(page, '100007')).toHaveText('1');
  await expect(istOf(page, '100001')).toHaveText('1');
  await expect(counted).toHaveText('Gezählt: 100001 Kugelschreiber blau 1 von 2');
  await expect(page.locator('tr.row--last')).toHaveCount(1);
  await expect(page.getByRole('row', { name: /100001/ })).toHaveClass(/row--last/);
  await expect(itemField(page)).toBeFocused();

  // A line made complete is marked so in the strip too.
  await scanInto(page, itemField(page), '100007');
  // Complete already: not sent, and the message names the article (issue 36.9).
  await expect(page.getByRole('alert')).toHaveText('100007 Ordner A4 blau wurde schon gescannt');
  await expect(counted).toHaveText('Gezählt: 100001 Kugelschreiber blau 1 von 2');
  await scanInto(page, itemField(page), '4006381333931');
  await expect(counted).toHaveText('Gezählt: 100001 Kugelschreiber blau 2 von 2 ✓');

  // A reload in the middle of packing keeps the note and the strip.
  await page.reload();
  await expect(counted).toHaveText('Gezählt: 100001 Kugelschreiber blau 2 von 2 ✓');
});
