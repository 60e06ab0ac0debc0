import type { APIRequestContext } from '@playwright/test';
import { seriousAxeFindings } from './support/axe.ts';
import { importDeliveryNote, LEAD, loginAs, loginWithPassword, scan, scanInto } from './support/helpers.ts';
import { expect, type Page, test } from './support/test.ts';

/**
 * Klärfälle in the Leitstand (issue 20.2, decision 20): the shift lead closes a note a packer reported —
 * 'Erledigt' with a comment, or 'Zurück ins Packen' after a question — at desktop and tablet size; and on
 * the handheld the packer who scans a reported note again is told so and cannot pack it until then.
 * Each test imports notes of its own (a new number each run), so it runs again and again (`--repeat-each`).
 */

type Line = { nummer: string; lsmenge: number; pemenge: number };

async function apiLogin(request: APIRequestContext, username: string, password: string) {
  const res = await request.post('/api/user/login', { data: { username, password } });
  expect(res.status()).toBe(200);
  const { token, id } = (await res.json()) as { token: string; id: number };
  return { headers: { authorization: `Bearer ${token}` }, id };
}

/**
 * A packer reports the note as a Klärfall through the API, after one scan of its first line (one piece, or
 * the whole line above five); answers the lines as reported.
 */
async function reportAfterOnePiece(request: APIRequestContext, belegnr: string): Promise<Line[]> {
  const packer = await apiLogin(request, 'demo', 'demo');
  const content = await request.get(`/api/packagecontent/${belegnr}`, { headers: packer.headers });
  expect(content.status()).toBe(200);
  const note = (await content.json()).data as { id: number; paketinhalt: Line[] };
  const first = note.paketinhalt[0];
  if (!first) throw new Error(`${belegnr} has no lines`);
  const write = { ...packer.headers, 'x-idempotency-key': crypto.randomUUID() };
  const scanned = await request.post(`/api/packagecontent/${first.nummer}`, {
    headers: write,
    data: {
      id: note.id,
      itemNr: first.nummer,
      belegnr,
      eu: 1,
      user_id: packer.id,
      paketinhalt: [],
      versandart: '',
    },
  });
  expect(scanned.status()).toBe(200);
  const lines = (await scanned.json()).data.paketinhalt as Line[];
  const reported = await request.put('/api/paketinhalt/klaerfall', {
    headers: { ...packer.headers, 'x-idempotency-key': crypto.randomUUID() },
    data: { id: note.id },
  });
  expect(reported.status()).toBe(200);
  return lines;
}

/** The closed list's short form of what was missing: "100005 (2), 100007 (1)", or '–'. */
const missingShort = (lines: Line[]) =>
  lines
    .filter((l) => l.pemenge < l.lsmenge)
    .map((l) => `${l.nummer} (${l.lsmenge - l.pemenge})`)
    .join(', ') || '–';

async function openKlaerfaelle(page: Page) {
  await loginAs(page, LEAD);
  await page.getByRole('link', { name: 'Leitstand' }).click();
  await page
    .getByRole('navigation', { name: 'Bereiche des Leitstands' })
    .getByRole('link', { name: 'Klärfälle' })
    .click();
  await expect(page).toHaveURL(/\/leitstand\/klaerfaelle$/);
  await expect(page.getByRole('heading', { name: 'Klärfälle', level: 1 })).toBeVisible();
}

for (const [size, viewport] of [
  ['desktop', { width: 1280, height: 800 }],
  ['tablet', { width: 800, height: 1280 }],
] as const) {
  test.describe(`Klärfälle in the Leitstand at ${size} size`, () => {
    test.use({ viewport, isMobile: false, hasTouch: false });

    test("a shift lead closes one Klärfall as 'Erledigt' with a comment and sends another back into packing", async ({
      page,
      request,
    }) => {
      const erledigtNote = await importDeliveryNote(request);
      const zurueckNote = await importDeliveryNote(request);
      const reported = await reportAfterOnePiece(request, erledigtNote);
      const [first] = reported;
      if (!first) throw new Error('no line');
      await reportAfterOnePiece(request, zurueckNote);
      await openKlaerfaelle(page);

      // Who reported it, when, and its lines short: what is missing stands out.
      const card = page.getByRole('article', { name: erledigtNote });
      await expect(card).toContainText(/Gemeldet: \d\d\.\d\d\., \d\d:\d\d von Demo Nutzer/);
      const lines = card.getByRole('table', { name: `Positionen ${erledigtNote}` });
      await expect(lines.getByRole('columnheader')).toHaveText(['Nummer', 'Artikel', 'Soll', 'Ist', 'Fehlt']);
      await expect(lines.getByRole('row', { name: new RegExp(first.nummer) }).getByRole('cell')).toHaveText([
        first.nummer,
        /.+/,
        String(first.lsmenge),
        String(first.pemenge),
        String(first.lsmenge - first.pemenge),
      ]);
      expect(first.pemenge).toBeGreaterThan(0);
      expect(await seriousAxeFindings(page)).toEqual([]);
      // Nothing spills out sideways at this size.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        viewport.width,
      );

      // 'Erledigt' needs a comment: the server's German refusal, then the real close.
      await card.getByRole('button', { name: 'Erledigt', exact: true }).click();
      const comment = card.getByLabel('Kommentar');
      await expect(comment).toBeFocused();
      await card.getByRole('button', { name: 'Als erledigt abschließen' }).click();
      await expect(card.getByRole('alert')).toHaveText(
        'Bitte einen Kommentar eingeben: was ist mit dem Lieferschein geschehen?',
      );
      expect(await seriousAxeFindings(page)).toEqual([]);
      await comment.fill('Kunde hat storniert');
      await card.getByRole('button', { name: 'Als erledigt abschließen' }).click();
      await expect(card).toHaveCount(0);
      await expect(page.getByText(`Klärfall ${erledigtNote} ist erledigt.`)).toBeVisible();
      const closed = page.getByRole('region', { name: 'Abgeschlossen in den letzten 7 Tagen' });
      const closedRow = closed.getByRole('row', { name: new RegExp(erledigtNote) });
      await expect(closedRow).toContainText('Erledigt');
      await expect(closedRow).toContainText('von Schicht Leitung');
      await expect(closedRow).toContainText('Kunde hat storniert');
      await expect(closedRow.getByRole('cell').nth(2)).toHaveText(missingShort(reported));

      // 'Zurück ins Packen' asks first; 'Abbrechen' leaves it open.
      const second = page.getByRole('article', { name: zurueckNote });
      await second.getByRole('button', { name: 'Zurück ins Packen' }).click();
      const dialog = page.getByRole('dialog', { name: `${zurueckNote} zurück ins Packen?` });
      await expect(dialog).toContainText('Alle gescannten Mengen werden auf 0 gesetzt');
      expect(await seriousAxeFindings(page)).toEqual([]);
      await dialog.getByRole('button', { name: 'Abbrechen' }).click();
      await expect(dialog).toHaveCount(0);
      await expect(second).toBeVisible();
      await second.getByRole('button', { name: 'Zurück ins Packen' }).click();
      await dialog.getByRole('button', { name: 'Zurück ins Packen' }).click();
      await expect(second).toHaveCount(0);
      await expect(page.getByText(`${zurueckNote} kann wieder gepackt werden.`)).toBeVisible();
      await expect(closed.getByRole('row', { name: new RegExp(zurueckNote) })).toContainText(
        'Zurück ins Packen',
      );

      // The note is packable again, from scratch; the one closed as 'Erledigt' is not.
      const packer = await apiLogin(request, 'demo', 'demo');
      const again = await request.get(`/api/packagecontent/${zurueckNote}`, { headers: packer.headers });
      expect(again.status()).toBe(200);
      const lines2 = (await again.json()).data.paketinhalt as Line[];
      expect(lines2.map((l) => l.pemenge)).toEqual(lines2.map(() => 0));
      const refused = await request.get(`/api/packagecontent/${erledigtNote}`, { headers: packer.headers });
      expect(refused.status()).toBe(409);
      expect((await refused.json()).message).toBe(
        'Lieferschein ist als Klärfall erledigt und wird nicht gepackt.',
      );
      expect(await seriousAxeFindings(page)).toEqual([]);

      // The Protokoll names the note and the comment, not the Klärfall's database id (issue 36.9).
      await page.goto('/leitstand/audit');
      const entries = page.getByRole('region', { name: 'Einträge' });
      const erledigt = entries.getByRole('row', { name: new RegExp(`Klärfall erledigt ${erledigtNote}`) });
      await expect(erledigt.getByRole('cell').last()).toHaveText('Kommentar: Kunde hat storniert');
      const zurueck = entries.getByRole('row', {
        name: new RegExp(`Klärfall zurück ins Packen ${zurueckNote}`),
      });
      await expect(zurueck.getByRole('cell').last()).toHaveText('');
    });

    test('a worker sees the German refusal at its address, not the page', async ({ page }) => {
      await loginWithPassword(page);
      await page.goto('/leitstand/klaerfaelle');
      await expect(page.getByRole('alert')).toHaveText('Der Leitstand ist der Schichtleitung vorbehalten.');
      await expect(page.getByRole('heading', { name: 'Klärfälle' })).toHaveCount(0);
    });
  });
}

test.describe('the packer warning on the handheld', () => {
  test("a reported note says 'Lieferschein hat einen offenen Klärfall!' when scanned again; after 'Zurück ins Packen' it is packed", async ({
    page,
    browser,
    request,
  }) => {
    const note = await importDeliveryNote(request);
    await loginWithPassword(page);
    await page.getByRole('link', { name: 'Paketinhalt', exact: true }).click();
    await scanInto(page, page.getByLabel('Lieferschein'), note);
    await expect(page.getByText(`Lieferschein ${note}`)).toBeVisible();
    const token = await page.evaluate(() => localStorage.getItem('vmAccessKey'));
    const lines = (
      await (
        await page.request.get(`/api/packagecontent/${note}`, {
          headers: { authorization: `Bearer ${token}` },
        })
      ).json()
    ).data.paketinhalt as Line[];
    // A line of at most five pieces: one scan counts one (a bigger line asks to confirm the whole).
    const nummer = lines.find((l) => l.lsmenge <= 5)?.nummer ?? '';
    const ist = () =>
      page
        .getByRole('row', { name: new RegExp(nummer) })
        .getByRole('cell')
        .nth(3);
    await scanInto(page, page.getByLabel('Artikel scannen'), nummer);
    await expect(ist()).toHaveText('1');

    // Reported as a Klärfall on the packing screen, as a packer does.
    await page.getByRole('button', { name: 'Klärfall' }).click();
    const alerts: string[] = [];
    page.on('dialog', (alert) => {
      alerts.push(alert.message());
      void alert.accept();
    });
    await page
      .getByRole('dialog', { name: 'Achtung!' })
      .getByRole('button', { name: 'Klärfall melden' })
      .click();
    await expect.poll(() => alerts).toEqual(['Klärfallzettel schreiben!']);

    // Scanned again: the warning, and the note does not open.
    await scanInto(page, page.getByLabel('Lieferschein'), note);
    await expect(page.getByRole('alert')).toHaveText('Lieferschein hat einen offenen Klärfall!');
    await expect(page.getByLabel('Artikel scannen')).toHaveCount(0);
    await expect(page.getByLabel('Lieferschein')).toBeFocused();

    // The shift lead sends it back into packing at a desk.
    const desk = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await loginAs(desk, LEAD);
    await desk.goto('/leitstand/klaerfaelle');
    const card = desk.getByRole('article', { name: note });
    await expect(card).toContainText('von Demo Nutzer');
    await card.getByRole('button', { name: 'Zurück ins Packen' }).click();
    await desk.getByRole('dialog').getByRole('button', { name: 'Zurück ins Packen' }).click();
    await expect(card).toHaveCount(0);
    await desk.close();

    // Scanned again: it opens with nothing scanned, and is packed.
    await scan(page, note);
    await expect(page.getByText(`Lieferschein ${note}`)).toBeVisible();
    await expect(ist()).toHaveText('0');
    await scanInto(page, page.getByLabel('Artikel scannen'), nummer);
    await expect(ist()).toHaveText('1');
  });
});
