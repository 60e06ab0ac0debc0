import type { APIRequestContext, Page } from '@playwright/test';
import pl from '../src/contract/i18n/catalogues/pl.ts';
import { setLanguageSource } from '../src/contract/i18n/current.ts';
import type { Language } from '../src/contract/i18n/languages.ts';
import { addCatalogue } from '../src/contract/i18n/localized.ts';
import { texts } from '../src/contract/texts.ts';
import { wareneingangTexts } from '../src/contract/wareneingang.ts';
import { DEMO_CARD, loginWithPassword } from './support/helpers.ts';
import { setWorkerLanguage } from './support/language.ts';
import { importCsv } from './support/picking.ts';
import { expect, test } from './support/test.ts';

/**
 * Every worker in their own language (issue 43): the handheld switches at login to the user's language, back
 * to the device's at logout, and a worker chooses their own in Einstellungen. What a Polish worker reads is
 * computed here as the app computes it — the Polish catalogue where it has the text, German where it does
 * not yet — so the expectations stay right as the translators fill the catalogue.
 */
addCatalogue('pl', pl);
function inLanguage<T>(language: Language, read: () => T): T {
  setLanguageSource(() => language);
  try {
    return read();
  } finally {
    setLanguageSource(() => 'de');
  }
}

let count = 0;
/** A worker of the test's own, with a card (more than 205 characters: it logs in without Enter). */
async function newWorker(request: APIRequestContext, language: Language) {
  const tag = `${Date.now().toString(36)}${++count}`;
  const worker = {
    username: `sprache-${tag}`,
    password: `sp-${tag}-pass`,
    name: `Sprache ${tag}`,
    card: `KARTE${tag.toUpperCase()}`.padEnd(220, 'X'),
  };
  await importCsv(
    request,
    'users',
    `Name;Benutzername;Passwort;Karte\n${worker.name};${worker.username};${worker.password};${worker.card}`,
  );
  if (language !== 'de') await setWorkerLanguage(request, language, worker);
  return worker;
}

/** The language every call of the page says it reads (X-Language), by path. */
function heardLanguages(page: Page): { path: string; language: string | undefined }[] {
  const heard: { path: string; language: string | undefined }[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/'))
      heard.push({ path: url.pathname, language: request.headers()['x-language'] });
  });
  return heard;
}

const logoutButton = (page: Page, name: string, language: Language) =>
  page.getByRole('button', { name: inLanguage(language, () => texts.app.logout(name)) });

test('a Polish worker logs in by card and reads Polish — after a reload too, the server’s refusals with their code, in Inventur, Wareneingang and Paketinhalt — and the logout is German again', async ({
  page,
  request,
}) => {
  const worker = await newWorker(request, 'pl');
  const heard = heardLanguages(page);
  await page.goto('/');
  await expect(page.getByLabel('Karte')).toBeFocused();
  await page.keyboard.type(worker.card); // the scanner's burst: logs in by itself
  await expect(logoutButton(page, worker.name, 'pl')).toBeVisible();
  expect(await page.evaluate(() => document.querySelector('.header-title')?.textContent)).toBe(
    inLanguage('pl', () => texts.app.title),
  );
  await expect(page.locator('html')).toHaveAttribute('lang', 'pl'); // a screen reader reads it as Polish

  // At once, without a reload: a text the handheld writes itself (an unknown location in Inventur).
  await page.getByRole('link', { name: inLanguage('pl', () => texts.menu.inventur), exact: true }).click();
  await expect(page.getByLabel(inLanguage('pl', () => texts.inventur.location))).toBeFocused();
  await page.keyboard.type('KEIN-PLATZ-99');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('alert')).toHaveText(pl.lookup.locationNotFound('KEIN-PLATZ-99'));
  // A reload while logged in comes back in Polish before the first screen shows.
  await page.goto('/wareneingang');
  const field = page.getByLabel(inLanguage('pl', () => wareneingangTexts.receipt));
  await expect(field).toBeFocused();
  let body: unknown;
  await page.route('**/api/wareneingang/beleg/**', async (route) => {
    const response = await route.fetch();
    body = await response.json();
    await route.fulfill({ response });
  });
  await page.keyboard.type('WE-GIBT-ES-NICHT');
  await page.keyboard.press('Enter');
  const polish = pl.wareneingang.notFound('WE-GIBT-ES-NICHT');
  await expect(page.getByRole('alert')).toHaveText(polish);
  expect(body).toMatchObject({ success: false, code: 'wareneingang.notFound', message: polish });
  expect(heard.filter((h) => h.path.startsWith('/api/wareneingang')).map((h) => h.language)).toEqual(['pl']);

  // Paketinhalt: an unknown note, then the demo's note and an item that is not on it — each refusal in Polish
  // (nothing scanned that counts, so the note stays as the demo has it).
  await page.goto('/paketinhalt');
  await expect(page.getByLabel(pl.paketinhalt.noteLabel)).toBeFocused();
  await page.keyboard.type('LS999999');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('alert')).toHaveText(pl.paketinhalt.deliveryNoteNotFound('LS999999'));
  await page.keyboard.type('LS100001');
  await page.keyboard.press('Enter');
  await expect(page.getByLabel(pl.paketinhalt.itemLabel)).toBeFocused();
  await expect(page.getByRole('columnheader', { name: pl.paketinhalt.lsmenge })).toBeVisible();
  await page.keyboard.type('999999999');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('alert')).toHaveText(pl.paketinhalt.notInDeliveryNote ?? '');

  await logoutButton(page, worker.name, 'pl').click();
  await expect(page.getByRole('heading', { name: 'Anmelden' })).toBeVisible();
  await expect(page.getByLabel('Karte')).toBeFocused();
  await expect(page.getByRole('combobox', { name: 'Sprache' })).toHaveValue('de');
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  // Logged out, the device's German answers again.
  await page.getByRole('button', { name: 'Mit Name und Passwort anmelden' }).click();
  await page.getByLabel('Name').fill('niemand');
  await page.getByLabel('Passwort').fill('falsch');
  await page.getByRole('button', { name: 'Anmelden', exact: true }).click();
  await expect(page.getByRole('alert')).toHaveText('Benutzer nicht gefunden oder fehlende Rechte!');
  expect(heard.at(-1)).toEqual({ path: '/api/user/login', language: 'de' });
});

test('a catalogue that cannot be downloaded: the login goes through, in German, and says so', async ({
  page,
  request,
}) => {
  const worker = await newWorker(request, 'pl');
  await page.route(/\/assets\/pl-[^/]+\.js$/, (route) => route.abort());
  await page.goto('/');
  await expect(page.getByLabel('Karte')).toBeFocused();
  await page.keyboard.type(worker.card);
  await expect(page.getByRole('button', { name: `${worker.name} abmelden` })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveText('Sprache nicht geladen – die Anzeige bleibt Deutsch.');
  await page.getByRole('link', { name: 'Inventur', exact: true }).click();
  await expect(page.getByLabel('Lagerplatz')).toBeFocused();
  await page.keyboard.type('KEIN-PLATZ-98');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('alert')).toHaveText('Lagerplatz "KEIN-PLATZ-98" nicht gefunden!');
});

test('the login screen’s switch sets the device’s language; a card scanned right after the choice logs in once', async ({
  page,
}) => {
  const heard = heardLanguages(page);
  await page.goto('/');
  const choice = page.getByRole('combobox', { name: 'Sprache' });
  await expect(choice.locator('option')).toHaveText([
    'Deutsch',
    'English',
    'Polski',
    'Română',
    'Українська',
    'Türkçe',
  ]);
  // It does not crowd the login at 360×640: everything the login needs is on the first screen.
  for (const control of [
    page.getByLabel('Karte'),
    page.getByRole('button', { name: 'Anmelden', exact: true }),
    page.getByRole('button', { name: 'Mit Name und Passwort anmelden' }),
  ])
    await expect(control).toBeInViewport({ ratio: 1 });
  await choice.selectOption('pl');
  // The scanner's burst at once, before the screen in Polish is there: it waits for it, then logs in.
  await page.keyboard.type(DEMO_CARD);
  await expect(page.getByRole('button', { name: 'Karten Nutzer abmelden' })).toBeVisible();
  const logins = heard.filter((h) => h.path === '/api/user/login/qrcode');
  expect(logins).toEqual([{ path: '/api/user/login/qrcode', language: 'pl' }]);
  // The card's user reads German: the device's choice is for the login screen only.
  await expect(page.getByRole('link', { name: 'Inventur', exact: true })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('lagerscannerSprache'))).toBe('pl');

  await page.getByRole('button', { name: 'Karten Nutzer abmelden' }).click();
  await expect(
    page.getByRole('combobox', { name: inLanguage('pl', () => texts.login.language) }),
  ).toHaveValue('pl');
  await expect(page.getByLabel(inLanguage('pl', () => texts.login.cardLabel))).toBeFocused();
  // A reload keeps the device's choice; German again by the same switch.
  await page.reload();
  const again = page.getByRole('combobox', { name: inLanguage('pl', () => texts.login.language) });
  await expect(again).toHaveValue('pl');
  await again.selectOption('de');
  await expect(page.getByRole('combobox', { name: 'Sprache' })).toHaveValue('de');
  await page.keyboard.type(DEMO_CARD);
  await expect(page.getByRole('button', { name: 'Karten Nutzer abmelden' })).toBeVisible();
  expect(heard.filter((h) => h.path === '/api/user/login/qrcode').map((h) => h.language)).toEqual([
    'pl',
    'de',
  ]);
});

test('in Einstellungen a worker chooses their own language: at once, kept with the user across logout and login; offline nothing changes', async ({
  page,
  request,
}) => {
  const worker = await newWorker(request, 'de');
  const heard = heardLanguages(page);
  await loginWithPassword(page, worker.username, worker.password, worker.name);
  await page.getByRole('link', { name: 'Einstellungen' }).click();
  const choice = page.getByRole('combobox', { name: 'Meine Sprache' });
  await expect(choice).toHaveValue('de');

  // Offline: a clear message in the language shown, nothing changed.
  await page.route('**/api/einstellungen/sprache', (route) => route.abort());
  await choice.selectOption('pl');
  await expect(page.getByText('Netzwerkfehler. Bitte erneut versuchen.')).toBeVisible();
  await expect(choice).toHaveValue('de');
  await page.unroute('**/api/einstellungen/sprache');

  const sent = page.waitForRequest((r) => r.url().endsWith('/api/einstellungen/sprache'));
  await choice.selectOption('pl');
  expect((await sent).postDataJSON()).toEqual({ language: 'pl' });
  const mine = page.getByRole('combobox', { name: inLanguage('pl', () => texts.settings.language) });
  await expect(mine).toHaveValue('pl');
  // A scan right after the switch: refused once, in the language shown (there is no scan field here).
  await page.keyboard.type('4006381333931');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('alert')).toHaveText(
    inLanguage('pl', () => texts.scan.refused(texts.scan.nothingHere)),
  );
  await expect(page.getByRole('alert')).toHaveCount(1);

  await logoutButton(page, worker.name, 'pl').click();
  await expect(page.getByRole('heading', { name: 'Anmelden' })).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Sprache' })).toHaveValue('de');
  await page.getByRole('button', { name: 'Mit Name und Passwort anmelden' }).click();
  await page.getByLabel('Name').fill(worker.username);
  await page.getByLabel('Passwort').fill(worker.password);
  await page.getByRole('button', { name: 'Anmelden', exact: true }).click();
  await expect(logoutButton(page, worker.name, 'pl')).toBeVisible();
  // Back where the logout was: Einstellungen, in Polish.
  await expect(
    page.getByRole('combobox', { name: inLanguage('pl', () => texts.settings.language) }),
  ).toHaveValue('pl');
  expect(heard.at(-1)?.language).toBe('pl');
});
