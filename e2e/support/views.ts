import { expect, type Page } from '@playwright/test';
import { newCountLocations } from './counting.ts';
import { scanInto } from './helpers.ts';

/**
 * Every screen of the app in a state worth looking at, shared by the accessibility spec (which checks each
 * one) and the gallery of docs/using.md (which photographs each one). A view's `show` starts from any page of a
 * logged-in session (or none, for the login views) and returns once the state is on screen.
 *
 * What the views write is safe to repeat in a run that other specs share: a parcel or batch scanned twice
 * is recorded once; nothing here books stock or opens a customs cart.
 */
export interface View {
  /** The PNG's file name in docs/screenshots/, without .png: the screen's route, plain ASCII. */
  name: string;
  show(page: Page, beforeSuccess?: () => Promise<void>): Promise<void>;
  /** Only for the accessibility check (a state not worth a picture of its own). */
  checkOnly?: boolean;
  /**
   * A success view hides itself after 1–2 s: `show` calls `beforeSuccess` right before the scan that brings
   * it up, where the accessibility check freezes the page's timers so it stays on screen while checked.
   */
  flash?: boolean;
  /**
   * Further steps for the gallery picture only (`npm run screenshots`, on a server of its own): they book or
   * write what the other specs of a shared run must find untouched.
   */
  moreForPicture?: (page: Page) => Promise<void>;
}

/**
 * Opens a screen by its address, as a deep link does, and waits for its heading. The packing flow's state
 * (kept in sessionStorage) starts afresh, so each packing view begins at the note scan.
 */
async function open(page: Page, path: string, heading: string): Promise<void> {
  if (page.url().startsWith('http')) await page.evaluate(() => sessionStorage.clear());
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1, name: heading, exact: true })).toBeVisible();
}

export const loggedOutViews: View[] = [
  {
    name: 'login',
    show: async (page) => {
      await page.goto('/');
      await expect(page.getByLabel('Karte')).toBeFocused();
    },
  },
  {
    name: 'login-error',
    show: async (page) => {
      await page.goto('/');
      await page.getByRole('button', { name: 'Mit Name und Passwort anmelden' }).click();
      await page.getByLabel('Name').fill('demo');
      await page.getByLabel('Passwort').fill('falsch');
      await page.getByRole('button', { name: 'Anmelden', exact: true }).click();
      await expect(page.getByRole('alert')).toHaveText('Benutzer nicht gefunden oder fehlende Rechte!');
    },
  },
];

export const loggedInViews: View[] = [
  {
    name: 'menu',
    show: async (page) => {
      await page.goto('/');
      await expect(page.getByRole('navigation', { name: 'Hauptmenü' })).toBeVisible();
    },
  },
  {
    name: 'beta',
    show: async (page) => {
      await page.goto('/beta');
      await expect(page.getByRole('navigation', { name: 'Beta' })).toBeVisible();
    },
  },
  {
    name: 'einstellungen',
    show: async (page) => {
      await open(page, '/einstellungen', 'Einstellungen');
      await page.getByLabel('Gerätename').fill('Scanner 7');
    },
  },
  {
    name: 'scannertest',
    show: async (page) => {
      await open(page, '/einstellungen/scannertest', 'Scanner testen');
      // A scanner set to the US layout: y/z and the special characters come out wrong.
      await scanInto(page, page.getByLabel('Hier scannen'), `Yz-1/2_3#4"5"6;7:8'9[0]`);
      await expect(page.getByText('Bitte im Scanner ändern und den Test wiederholen:')).toBeVisible();
    },
  },
  {
    name: 'testbogen',
    show: async (page) => {
      await open(page, '/einstellungen/testbogen', 'Testbogen Scanner');
      await expect(page.getByRole('img', { name: 'Code 3: langer QR-Code' })).toBeVisible();
    },
  },
  {
    name: 'offline',
    show: async (page) => {
      // A Wi-Fi dead spot: the browser still says "online", no request gets through.
      let failedTries = 0;
      await page.route('**/api/**', (route) => {
        if (route.request().url().includes('/findlp/')) failedTries++;
        return route.abort('connectionrefused');
      });
      await open(page, '/inventur', 'Inventur');
      await scanInto(page, page.getByLabel('Lagerplatz'), 'A-01-01-01');
      await expect(page.getByText(/^Keine Verbindung zum Server\./)).toBeVisible();
      // The client has given up on the scan (first try and 4 retries), so the network may come back.
      await expect.poll(() => failedTries).toBe(5);
      await expect(page.getByRole('alert')).toHaveText('Netzwerkfehler. Bitte erneut versuchen.');
      await page.unroute('**/api/**');
    },
  },
  {
    name: 'batcherfassung',
    flash: true,
    show: async (page, beforeSuccess) => {
      await open(page, '/batcherfassung', 'Batch');
      await expect(page.getByLabel('Batch')).toBeFocused();
      await beforeSuccess?.();
      await scanInto(page, page.getByLabel('Batch'), '123456');
      await expect(page.getByRole('status')).toHaveText(/Erfasst!/);
    },
  },
  {
    name: 'paketinhalt',
    show: async (page) => {
      await open(page, '/paketinhalt', 'Paketinhalt');
      await scanInto(page, page.getByLabel('Lieferschein'), 'LS100001');
      await expect(page.getByRole('table')).toContainText('Kugelschreiber blau');
    },
    moreForPicture: async (page) => {
      // Both pieces of 100001; the second after the scanner's double-read window (300 ms), or it counts once.
      const line = page.getByRole('row', { name: /100001/ });
      await scanInto(page, page.getByLabel('Artikel'), '100001');
      await expect(line.getByRole('cell').nth(3)).toHaveText('1');
      await page.waitForTimeout(400);
      await scanInto(page, page.getByLabel('Artikel'), '100001');
      await expect(line).toHaveClass(/row--done/);
    },
  },
  {
    name: 'paketinhalt-klaerfall',
    show: async (page) => {
      await open(page, '/paketinhalt', 'Paketinhalt');
      await scanInto(page, page.getByLabel('Lieferschein'), 'LS100001');
      await page.getByRole('button', { name: 'Klärfall' }).click();
      await expect(page.getByRole('dialog', { name: 'Achtung!' })).toBeVisible();
    },
  },
  {
    name: 'kartonagenerfassung',
    show: async (page) => {
      await open(page, '/kartonagenerfassung', 'Kartonagen');
      await scanInto(page, page.getByLabel('Lieferschein'), 'LS100001');
      await page.getByRole('button', { name: /mehr$/ }).first().click();
    },
  },
  {
    name: 'paketausgang',
    show: async (page) => {
      await open(page, '/paketausgang', 'Paketausgang');
      await scanInto(page, page.getByLabel('Trackingnummer'), '91000100098');
      await expect(page.getByRole('img', { name: 'Versanddienstleister gls' })).toBeVisible();
    },
  },
  {
    name: 'inventur',
    show: async (page) => {
      await open(page, '/inventur', 'Inventur');
      await scanInto(page, page.getByLabel('Lagerplatz'), 'A-01-01-01');
      await scanInto(page, page.getByLabel('Artikel'), '4006381333931');
      await expect(page.getByLabel('Menge')).toBeFocused();
      await page.keyboard.type('48');
    },
    moreForPicture: async (page) => {
      await page.keyboard.press('Enter');
      await page.getByRole('dialog').getByRole('button', { name: 'Buchen' }).click();
      await expect(page.getByRole('status')).toHaveText(/Gezählt!/);
      await expect(page.getByRole('status')).toBeHidden({ timeout: 3000 });
      await scanInto(page, page.getByLabel('Artikel'), '100003');
      await expect(page.getByLabel('Menge')).toBeFocused();
      await page.keyboard.type('41');
    },
  },
  {
    // Checked, not pictured: the count runs on a location of its own, assigned to the logged-in worker (the
    // README's picture counts a demo task: gallery.spec.ts).
    name: 'zaehlauftrag',
    checkOnly: true,
    show: async (page) => {
      const userId = Number(await page.evaluate(() => localStorage.getItem('vmUserID')));
      await newCountLocations(page.request, [[['100001', 3]]], userId);
      await open(page, '/inventur?zaehlauftrag', 'Inventur');
      // A count this view left in work before (a run that shares the server) is given back first; the next
      // task is then that one or the new one, whichever comes first — both hold 100001 × 3.
      const next = page.getByRole('button', { name: 'Nächster Zählauftrag' });
      const abandon = page.getByRole('button', { name: 'Abbrechen' });
      await expect(next.or(abandon)).toBeVisible();
      if (await abandon.isVisible()) {
        await abandon.click();
        await page.getByRole('dialog').getByRole('button', { name: 'Abbrechen' }).click();
      }
      await next.click();
      const shelf = (await page.locator('.count-location').textContent()) ?? '';
      await scanInto(page, page.getByLabel('Lagerplatz'), shelf);
      await scanInto(page, page.getByLabel('Artikel'), '100001');
      await expect(page.getByLabel('Menge')).toBeFocused();
      await page.keyboard.type('2');
      await page.keyboard.press('Enter');
      await expect(page.getByRole('region', { name: 'Gezählt' }).getByRole('listitem')).toHaveText([
        '2 × 100001 Kugelschreiber blau',
      ]);
      await expect(page.getByLabel('Artikel')).toBeFocused();
    },
  },
  {
    name: 'retoure',
    flash: true,
    show: async (page, beforeSuccess) => {
      await open(page, '/retoure', 'Retoure');
      await expect(page.getByLabel('Trackingnummer')).toBeFocused();
      await beforeSuccess?.();
      await scanInto(page, page.getByLabel('Trackingnummer'), '00340434161094042564');
      await expect(page.getByRole('status')).toHaveText(/Retoure erfasst!/);
    },
  },
  {
    name: 'batch',
    show: async (page) => {
      await open(page, '/batch', 'Batch (Lieferschein)');
      await scanInto(page, page.getByLabel('Lieferschein'), 'LS100001');
      await expect(page.getByText('Batch 123456')).toBeVisible();
    },
  },
  {
    name: 'container',
    show: async (page) => {
      await open(page, '/container', 'Wechselbrücke');
      await page.getByRole('button', { name: 'GLS', exact: true }).click();
      await page.getByLabel('Wechselbrücke').fill('WB-4711');
    },
  },
  {
    name: 'transporter',
    show: async (page) => {
      await open(page, '/transporter', 'Transporter');
      await scanInto(page, page.getByLabel('Kennzeichen'), 'B-LS 1234');
    },
  },
  {
    name: 'wmsretoure',
    show: async (page) => {
      await open(page, '/wmsretoure', 'WMS-Retoure');
      await scanInto(page, page.getByLabel('Artikel'), '100002');
      await scanInto(page, page.getByLabel('Charge'), 'CH-2027');
      await scanInto(page, page.getByLabel('MHD'), '311227');
      await expect(page.getByLabel('LHM')).toBeFocused();
    },
  },
  {
    name: 'zollpaket',
    show: async (page) => {
      await open(page, '/zollpaket', 'Zollpaket');
      await page.getByRole('button', { name: 'Neu' }).click();
      await expect(page.getByPlaceholder('Wagennummer')).toBeFocused();
      await page.keyboard.type('ZW01');
    },
    moreForPicture: async (page) => {
      await page.keyboard.press('Enter');
      await scanInto(page, page.getByPlaceholder('Lieferschein'), 'LS100002');
      await expect(page.getByRole('status')).toHaveText(/Erfasst!/);
      await expect(page.getByRole('status')).toBeHidden({ timeout: 3000 });
      await expect(page.getByRole('region', { name: 'Gescannte Pakete' })).toContainText('LS100002');
    },
  },
  {
    name: 'wareneingang',
    show: async (page) => {
      await open(page, '/wareneingang', 'Wareneingang');
      await scanInto(page, page.getByLabel('Wareneingang'), 'WE100001');
      // The announced Charge and MHD come with the line; the amount waits for Enter.
      await scanInto(page, page.getByLabel('Artikel'), '100002');
      await expect(page.getByLabel('Menge')).toBeFocused();
    },
  },
  {
    name: 'kommissionierung',
    show: async (page) => {
      // Claims the demo's pickable note for the demo worker (nobody else picks it in a run); books nothing.
      await open(page, '/kommissionierung', 'Kommissionierung');
      await scanInto(page, page.getByLabel('Lieferschein'), 'LS100003');
      await expect(page.getByRole('region', { name: 'Gehe zu' })).toContainText('A-03-02-01');
    },
    moreForPicture: async (page) => {
      await scanInto(page, page.getByLabel('Lagerplatz scannen'), 'A-03-02-01');
      await expect(page.getByLabel('Artikel scannen')).toBeFocused();
    },
  },
  {
    name: 'umbuchung',
    show: async (page) => {
      await open(page, '/umbuchung', 'Umbuchung');
      await scanInto(page, page.getByLabel('Von Lagerplatz'), 'A-01-01-01');
      await expect(page.getByRole('table')).toBeVisible();
    },
  },
  {
    name: 'artikelumlagern',
    show: async (page) => {
      await open(page, '/artikelumlagern', 'Artikel umlagern');
      await scanInto(page, page.getByLabel('Artikel'), '100001');
      await expect(page.getByRole('region', { name: 'Lagerplätze des Artikels' })).toBeVisible();
    },
  },
  {
    name: 'nachschub',
    show: async (page) => {
      await open(page, '/nachschub', 'Nachschub');
      await expect(page.getByRole('listitem').first()).toBeVisible();
    },
  },
  {
    name: 'lagercheck',
    show: async (page) => {
      await open(page, '/lagercheck', 'Lagerplatzprüfung');
      await scanInto(page, page.getByLabel('Lagerplatz'), 'A-01-01-01');
      await expect(page.getByRole('region', { name: 'Inhalt von A-01-01-01' })).toBeVisible();
    },
  },
  {
    name: 'not-found',
    checkOnly: true,
    show: async (page) => {
      await page.goto('/gibt/es/nicht');
      await expect(page.getByText('Diese Adresse gibt es nicht.')).toBeVisible();
    },
  },
  {
    // Last: the scans it leaves in the outbox would show on every later screen.
    name: 'ungesendet',
    checkOnly: true,
    show: async (page) => {
      await open(page, '/retoure', 'Retoure');
      await page.route('**/api/retourenerfassung', (route) => route.abort('connectionrefused'));
      await scanInto(page, page.getByLabel('Trackingnummer'), 'UNBEKANNT-ANSICHT');
      await expect(page.getByRole('status')).toHaveText(/Gespeichert – wird gesendet/);
      await page.unroute('**/api/retourenerfassung');
      await page.getByRole('link', { name: '1 Scan nicht gesendet' }).click();
      await page.getByRole('button', { name: 'Jetzt senden' }).click();
      await expect(page.getByRole('region', { name: 'Fehlgeschlagen (1)' })).toBeVisible();
      await page.getByRole('link', { name: 'Zurück' }).click();
      await page.getByRole('link', { name: 'Retoure', exact: true }).click();
      await page.route('**/api/retourenerfassung', (route) => route.abort('connectionrefused'));
      await scanInto(page, page.getByLabel('Trackingnummer'), '00340434161094042557');
      await expect(page.getByRole('status')).toHaveText(/Gespeichert – wird gesendet/);
      await page.getByRole('link', { name: /1 Scan nicht gesendet/ }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Ungesendete Scans' })).toBeVisible();
      await expect(page.getByRole('region', { name: '1 Scan nicht gesendet' })).toBeVisible();
    },
  },
];
