import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';
import { decodePdf } from '../test/support/labels.ts';
import { seriousAxeFindings } from './support/axe.ts';
import { ADMIN, LEAD, loginAs, loginWithPassword } from './support/helpers.ts';
import { expect, type Page, test } from './support/test.ts';

/**
 * The Leitstand's admin pages (issue 20.6–20.8) and its Protokoll: users with a printed badge that logs in
 * on a handheld, integration tokens, a CSV import while a handheld books — each at desktop and tablet size,
 * axe without serious findings; a shift lead sees neither the admin pages nor their navigation.
 */

// zxing-wasm fetches its .wasm from a CDN unless given the file: read it from the package.
const wasm = path.join(
  path.dirname(createRequire(import.meta.url).resolve('zxing-wasm/reader')),
  '../../reader/zxing_reader.wasm',
);
prepareZXingModule({ overrides: { wasmBinary: fs.readFileSync(wasm).buffer as ArrayBuffer } });

/** What a barcode reader makes of the picture as the browser draws it. */
async function decode(png: Buffer): Promise<string[]> {
  const found = await readBarcodes(new Blob([new Uint8Array(png)]), { textMode: 'Plain' });
  return found.map((b) => b.text);
}

async function openAdminPage(page: Page, title: string) {
  await loginAs(page, ADMIN);
  await page.getByRole('link', { name: 'Leitstand' }).click();
  await page
    .getByRole('navigation', { name: 'Bereiche des Leitstands' })
    .getByRole('link', { name: title })
    .click();
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
}

for (const [size, viewport] of [
  ['desktop', { width: 1280, height: 800 }],
  ['tablet', { width: 800, height: 1280 }],
] as const) {
  test.describe(`the Leitstand's admin pages at ${size} size`, () => {
    test.use({ viewport, isMobile: false, hasTouch: false });
    const person = { username: `karla-${size}`, name: `Karla Karte ${size}` };

    test('an admin creates a user with a new card: the badge decodes to the card, which logs in on a handheld; then a new role', async ({
      page,
      browser,
    }) => {
      test.setTimeout(60_000); // a badge decoded from the screen and from a PDF, a handheld's login, five writes
      await openAdminPage(page, 'Benutzer');
      await expect(
        page.getByRole('region', { name: 'Alle Benutzer' }).getByRole('row', { name: /IT Admin/ }),
      ).toBeVisible();

      await page.getByLabel('Benutzername').fill(person.username);
      await page.getByLabel('Name', { exact: true }).fill(person.name);
      // The handheld's language, each by its own name (the Leitstand itself stays German).
      const language = page.getByLabel('Sprache', { exact: true });
      await expect(language).toHaveValue('de');
      await expect(language.getByRole('option')).toHaveText([
        'Deutsch',
        'English',
        'Polski',
        'Română',
        'Українська',
        'Türkçe',
      ]);
      await language.selectOption('Polski');
      await page.getByLabel('Neue Karte ausgeben').check();
      await page.getByRole('button', { name: 'Benutzer anlegen' }).click();

      const badge = page.getByRole('dialog', { name: 'Ausweis drucken' });
      await expect(badge).toBeVisible();
      await expect(badge.getByText(person.name)).toBeVisible();
      const cardText = (await badge.getByTestId('card-text').textContent()) ?? '';
      expect(cardText).toMatch(/^[A-Z2-9]{40}$/);
      const code = badge.getByRole('img', { name: `Anmeldecode von ${person.name}` });
      await expect(code).toBeVisible();
      expect(await decode(await code.screenshot())).toEqual([cardText]);
      expect(await seriousAxeFindings(page)).toEqual([]);
      // On paper only the badge: name, code and text, nothing of the page around it.
      // (Hidden for printing, the dialog leaves the accessibility tree: found by alt text and tag here.)
      await page.emulateMedia({ media: 'print' });
      await expect(page.getByAltText(`Anmeldecode von ${person.name}`)).toBeVisible();
      await expect(page.getByText(cardText)).toBeVisible();
      for (const heading of await page.locator('h1').all()) await expect(heading).toBeHidden();
      // Its own two (Schließen, Ausweis drucken) and the label file's and printer's (issue 21).
      await expect(page.locator('dialog button')).toHaveCount(4);
      for (const button of await page.locator('dialog button').all()) await expect(button).toBeHidden();
      await page.emulateMedia({ media: 'screen' });
      // The badge as a label (issue 21): a PDF whose QR code carries exactly the card text.
      const file = page.waitForEvent('download');
      await badge.getByRole('button', { name: 'Herunterladen' }).click();
      const download = await file;
      expect(download.suggestedFilename()).toBe('etiketten-ausweis.pdf');
      const pages = await decodePdf(fs.readFileSync(await download.path()));
      expect(pages.flat()).toEqual([{ format: 'QRCode', text: cardText }]);
      await badge.getByRole('button', { name: 'Schließen' }).click();
      await expect(badge).toBeHidden();

      const row = page.getByRole('row', { name: new RegExp(person.name) });
      await expect(row).toBeVisible();
      await expect(row.getByRole('cell', { name: 'aktiv Karte', exact: true })).toBeVisible();
      // Every column and each row's buttons in view, at this size too: nothing to scroll sideways.
      const list = page.locator('.leitstand-wide');
      expect(await list.evaluate((e) => e.scrollWidth - e.clientWidth)).toBeLessThanOrEqual(0);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        viewport.width,
      );

      await expect(row.getByLabel(`Sprache von ${person.name}`)).toHaveValue('pl');
      await expect(page.getByLabel('Sprache', { exact: true })).toHaveValue('de'); // the form starts over

      // The printed card logs in on a handheld: scanned into the login's card field.
      const handheld = await browser.newPage({ viewport: { width: 360, height: 640 } });
      await handheld.goto('/');
      await expect(handheld.getByLabel('Karte')).toBeFocused();
      await handheld.keyboard.type(cardText);
      await handheld.keyboard.press('Enter');
      // (By the name alone: a Polish user's handheld reads Polish once the web app switches, decision 35.)
      await expect(handheld.getByRole('button', { name: new RegExp(person.name) })).toBeVisible();
      await handheld.close();

      // A new role, chosen in the row.
      await row.getByLabel(`Rolle von ${person.name}`).selectOption('Schichtleitung');
      await expect(page.getByRole('status').filter({ hasText: 'ist jetzt' })).toHaveText(
        `${person.name} ist jetzt Schichtleitung.`,
      );
      await expect(row.getByLabel(`Rolle von ${person.name}`)).toHaveValue('schichtleitung');

      // Another language, chosen in the row.
      await row.getByLabel(`Sprache von ${person.name}`).selectOption('Türkçe');
      await expect(page.getByRole('status').filter({ hasText: 'liest den Handscanner' })).toHaveText(
        `${person.name} liest den Handscanner jetzt auf Türkçe.`,
      );
      await expect(row.getByLabel(`Sprache von ${person.name}`)).toHaveValue('tr');

      // The last admin stays: the demo admin cannot make themselves a shift lead.
      await page
        .getByRole('row', { name: /IT Admin/ })
        .getByLabel('Rolle von IT Admin')
        .selectOption('Schichtleitung');
      await expect(page.getByRole('alert')).toHaveText(
        'Das ist der letzte aktive Admin: bitte zuerst einen anderen Benutzer zum Admin machen, sonst kann niemand mehr Benutzer verwalten.',
      );
      await expect(page.getByLabel('Rolle von IT Admin')).toHaveValue('admin');
      expect(await seriousAxeFindings(page)).toEqual([]);
    });

    test('an admin creates an integration token, shown once, and revokes it: the export API refuses it', async ({
      page,
    }) => {
      const name = `erp-${size}`;
      await openAdminPage(page, 'Schnittstellen');
      await page.getByLabel('Name').fill(name);
      await page.getByRole('button', { name: 'Schlüssel anlegen' }).click();
      const shown = page.getByRole('dialog', { name: `Schlüssel „${name}“` });
      const token = (await shown.getByTestId('new-token').textContent()) ?? '';
      expect(token).toMatch(/^lsi_/);
      expect(await seriousAxeFindings(page)).toEqual([]);
      await shown.getByRole('button', { name: 'Schließen' }).click();

      const feed = '/api/export/movements?since=2026-01-01T00:00:00Z';
      const bearer = { authorization: `Bearer ${token}` };
      expect((await page.request.get(feed, { headers: bearer })).status()).toBe(200);
      const row = page.getByRole('row', { name: new RegExp(name) });
      await expect(row.getByRole('cell', { name: 'gültig' })).toBeVisible();

      await row.getByRole('button', { name: `Widerrufen: ${name}` }).click();
      await page
        .getByRole('dialog', { name: 'Widerrufen' })
        .getByRole('button', { name: 'Widerrufen' })
        .click();
      await expect(page.getByRole('status').filter({ hasText: 'widerrufen' })).toHaveText(
        `Schlüssel „${name}“ widerrufen.`,
      );
      await expect(row.getByRole('cell', { name: /^widerrufen am / })).toBeVisible();
      expect((await page.request.get(feed, { headers: bearer })).status()).toBe(401);
      expect(await seriousAxeFindings(page)).toEqual([]);
    });

    test('an admin imports a CSV while a handheld books; a broken file shows its line errors and imports nothing', async ({
      page,
      browser,
    }) => {
      // 20,000 articles imported beside a booking, then two refused files: 15–25 s alone, more beside other work.
      test.setTimeout(90_000);
      const prefix = size === 'desktop' ? '81' : '82';
      await openAdminPage(page, 'Import');
      await page.getByLabel('Art', { exact: true }).selectOption({ label: 'Artikel (articles)' });
      await expect(page.getByText(/Spalten: Artikelnummer \(Pflicht\), Bezeichnung/)).toBeVisible();
      await expect(page.getByText(/höchstens 15 MB\./)).toBeVisible();

      // A file large enough that the booking below arrives while it is being imported.
      let csv = 'Artikelnummer;Bezeichnung;EAN\n';
      for (let i = 0; i < 20_000; i++) csv += `${prefix}${String(i).padStart(5, '0')};Last-Artikel ${i};\n`;
      await page
        .getByLabel('Datei (CSV)')
        .setInputFiles({ name: 'artikel.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });

      const handheld = await browser.newPage({ viewport: { width: 360, height: 640 } });
      await loginWithPassword(handheld);
      const token = await handheld.evaluate(() => localStorage.getItem('vmAccessKey'));
      const headers = { authorization: `Bearer ${token}` };
      const lp = await (await handheld.request.get('/api/inventur/findlp/A-01-01-02', { headers })).json();
      const article = await (
        await handheld.request.get('/api/inventur/findarticle/100001', { headers })
      ).json();

      const sent = page.waitForRequest((r) => r.url().includes('/api/admin/import/articles'));
      let answeredAt = 0;
      const upload = page
        .waitForResponse((r) => r.url().includes('/api/admin/import/articles'))
        .then((response) => {
          answeredAt = Date.now();
          return response;
        });
      await page.getByRole('button', { name: 'Importieren' }).click();
      await expect(page.getByRole('button', { name: 'Import läuft …' })).toBeDisabled();
      await sent;
      const bookingSentAt = Date.now();
      const booking = await handheld.request.post('/api/inventur/', {
        headers: { ...headers, 'x-idempotency-key': crypto.randomUUID() },
        data: { lp: lp.id, article: article.id, amount: 12 },
      });
      expect(booking.status()).toBe(200);
      expect((await upload).status()).toBe(200);
      expect(bookingSentAt).toBeLessThan(answeredAt); // the booking went out while the server imported
      await expect(page.getByRole('status').filter({ hasText: 'importiert' })).toHaveText(
        '20.000 Zeilen aus artikel.csv importiert.',
      );
      await expect(page.getByRole('region', { name: 'Zusammenfassung' })).toContainText(
        'Artikel: 20.000 neu, 0 geändert, 0 unverändert',
      );
      const found = async (nummer: string) =>
        (await (await handheld.request.get(`/api/inventur/findarticle/${nummer}`, { headers })).json()).found;
      expect(await found(`${prefix}00007`)).toBe(true);

      // A broken file: its line errors on the page, and not even its good rows imported.
      const broken = [
        'Artikelnummer;Bezeichnung;EAN',
        `K${prefix}1;Gute Zeile;`,
        `K${prefix}2;Falsche EAN;4006381333987`,
        `K${prefix}3;;`,
      ].join('\n');
      await page
        .getByLabel('Datei (CSV)')
        .setInputFiles({ name: 'kaputt.csv', mimeType: 'text/csv', buffer: Buffer.from(broken) });
      await page.getByRole('button', { name: 'Importieren' }).click();
      await expect(page.getByRole('alert')).toHaveText(
        '2 von 3 Zeilen abgelehnt. Es wurde nichts importiert.',
      );
      const lines = page.getByRole('region', { name: 'Abgelehnte Zeilen' });
      // The engine's reasons in German (the CLI prints them in English).
      await expect(lines.getByRole('row')).toHaveText([
        /Zeile\s*Spalte\s*Grund/,
        /^3\s*EAN\s*„4006381333987“ ist keine EAN\/GTIN \(8, 12, 13 oder 14 Ziffern mit gültiger Prüfziffer\)$/,
        /^4\s*Bezeichnung\s*ist leer$/,
      ]);
      await expect(page.getByRole('main')).not.toContainText(/is empty|is not|English|Englisch/);

      // A file the CSV reader cannot read: the whole file named, in German.
      await page.getByLabel('Datei (CSV)').setInputFiles({
        name: 'anfuehrung.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from('Artikelnummer;Bezeichnung\n1;"offen\n'),
      });
      await page.getByRole('button', { name: 'Importieren' }).click();
      await expect(page.getByRole('alert')).toHaveText(
        'Die Datei wurde abgelehnt. Es wurde nichts importiert.',
      );
      await expect(lines.getByRole('row', { name: /ganze Datei/ })).toHaveText(
        /^2\s*ganze Datei\s*Ein Feld in Anführungszeichen wird nicht geschlossen\.$/,
      );
      expect(await found(`K${prefix}1`)).toBe(false);
      await handheld.close();
      expect(await seriousAxeFindings(page)).toEqual([]);
    });

    test('a shift lead sees the Protokoll but no admin page: no navigation entry, and the German refusal', async ({
      page,
    }) => {
      await loginAs(page, LEAD);
      await page.getByRole('link', { name: 'Leitstand' }).click();
      const nav = page.getByRole('navigation', { name: 'Bereiche des Leitstands' });
      await expect(nav.getByRole('link', { name: 'Protokoll' })).toBeVisible();
      for (const title of ['Benutzer', 'Schnittstellen', 'Import', 'Datensicherung'])
        await expect(nav.getByRole('link', { name: title })).toHaveCount(0);
      for (const address of ['benutzer', 'schnittstellen', 'import', 'datensicherung']) {
        await page.goto(`/leitstand/${address}`);
        await expect(page.getByRole('alert')).toHaveText(
          'Diese Seite ist der IT-Administration vorbehalten.',
        );
      }

      // What the admin did above, with who and what.
      await page.goto('/leitstand/audit');
      await expect(page.getByRole('heading', { name: 'Protokoll', level: 1 })).toBeVisible();
      const entries = page.getByRole('region', { name: 'Einträge' });
      // What changed, in German: the roles by their names.
      await expect(
        entries.getByRole('row', { name: new RegExp(`IT Admin Rolle geändert ${person.username}`) }),
      ).toContainText('vorher: Mitarbeiter, nachher: Schichtleitung');
      // The languages by their own names.
      await expect(
        entries.getByRole('row', { name: new RegExp(`IT Admin Sprache geändert ${person.username}`) }),
      ).toContainText('vorher: Polski, nachher: Türkçe');
      await expect(
        entries.getByRole('row', { name: new RegExp(`IT Admin Benutzer angelegt ${person.username}`) }),
      ).toContainText('Sprache: Polski');
      await expect(
        entries.getByRole('row', { name: new RegExp(`IT Admin Schlüssel widerrufen erp-${size}`) }),
      ).toBeVisible();
      await expect(
        entries.getByRole('row', { name: /IT Admin CSV importiert artikel\.csv/ }).first(),
      ).toContainText('Art: Artikel, Zeilen: 20.000, geschrieben: 20.000, Kodierung: UTF-8');
      // A refused file is there too, said to be refused (issue 39.6).
      await expect(
        entries.getByRole('row', { name: /IT Admin CSV importiert – abgelehnt kaputt\.csv/ }).first(),
      ).toContainText('Art: Artikel, Zeilen: 3, abgelehnte Zeilen: 2, Ergebnis: abgelehnt');
      expect(await seriousAxeFindings(page)).toEqual([]);
    });
  });
}
