import { expect, type Page } from '@playwright/test';
import { kommissionierungTexts } from '../../src/contract/kommissionierung.ts';
import { texts } from '../../src/contract/texts.ts';
import { scannerTestTexts } from '../../src/contract/texts-scanner-test.ts';
import { wareneingangTexts } from '../../src/contract/wareneingang.ts';
import { zaehlauftragTexts } from '../../src/contract/zaehlauftrag.ts';
import { newCountLocations } from './counting.ts';
import { scanInto } from './helpers.ts';
import { withAnyArguments } from './language.ts';

/**
 * Every screen of the app in a state worth looking at, shared by the accessibility spec (which checks each
 * one) and the gallery of docs/using.md (which photographs each one). A view's `show` starts from any page of a
 * logged-in session (or none, for the login views) and returns once the state is on screen.
 *
 * What the views write is safe to repeat in a run that other specs share: a parcel or batch scanned twice
 * is recorded once; nothing here books stock or opens a customs cart.
 *
 * Every text a view looks for comes from the contract's texts, read when the view runs (decision 35), so the
 * same views find their way in any language: `useLanguage` (language.ts) sets which. Data stays data.
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
export async function open(page: Page, path: string, heading: string): Promise<void> {
  if (page.url().startsWith('http')) await page.evaluate(() => sessionStorage.clear());
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1, name: heading, exact: true })).toBeVisible();
}

export const loggedOutViews: View[] = [
  {
    name: 'login',
    show: async (page) => {
      await page.goto('/');
      await expect(page.getByLabel(texts.login.cardLabel)).toBeFocused();
    },
  },
  {
    name: 'login-error',
    show: async (page) => {
      await page.goto('/');
      await page.getByRole('button', { name: texts.login.toPassword }).click();
      await page.getByLabel(texts.login.username).fill('demo');
      await page.getByLabel(texts.login.password).fill('falsch');
      await page.getByRole('button', { name: texts.login.submit, exact: true }).click();
      await expect(page.getByRole('alert')).toHaveText(texts.login.failed);
    },
  },
];

export const loggedInViews: View[] = [
  {
    name: 'menu',
    show: async (page) => {
      await page.goto('/');
      await expect(page.getByRole('navigation', { name: texts.app.mainMenu })).toBeVisible();
    },
  },
  {
    name: 'beta',
    show: async (page) => {
      await page.goto('/beta');
      await expect(page.getByRole('navigation', { name: texts.app.beta })).toBeVisible();
    },
  },
  {
    name: 'einstellungen',
    show: async (page) => {
      await open(page, '/einstellungen', texts.app.settings);
      await page.getByLabel(texts.settings.deviceName).fill('Scanner 7');
    },
  },
  {
    name: 'scannertest',
    show: async (page) => {
      await open(page, '/einstellungen/scannertest', texts.settings.scannerTestTitle);
      // A scanner set to the US layout: y/z and the special characters come out wrong.
      await scanInto(page, page.getByLabel(scannerTestTexts.field), `Yz-1/2_3#4"5"6;7:8'9[0]`);
      await expect(page.getByText(scannerTestTexts.verdictProblems)).toBeVisible();
    },
  },
  {
    name: 'testbogen',
    show: async (page) => {
      await open(page, '/einstellungen/testbogen', texts.settings.testSheetTitle);
      await expect(page.getByRole('img', { name: scannerTestTexts.codes.qr })).toBeVisible();
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
      await open(page, '/inventur', texts.menu.inventur);
      await scanInto(page, page.getByLabel(texts.inventur.location), 'A-01-01-01');
      // Inventur needs the server: its banner says scans wait for the network.
      await expect(page.getByText(texts.app.offline)).toBeVisible();
      // The client has given up on the scan (first try and 4 retries), so the network may come back.
      await expect.poll(() => failedTries).toBe(5);
      await expect(page.getByRole('alert')).toHaveText(texts.errors.network);
      await page.unroute('**/api/**');
    },
  },
  {
    name: 'batcherfassung',
    flash: true,
    show: async (page, beforeSuccess) => {
      await open(page, '/batcherfassung', texts.menu.batcherfassung);
      await expect(page.getByLabel(texts.batch.label)).toBeFocused();
      await beforeSuccess?.();
      await scanInto(page, page.getByLabel(texts.batch.label), '123456');
      await expect(page.getByRole('status')).toContainText(texts.batch.done);
    },
  },
  {
    name: 'paketinhalt',
    show: async (page) => {
      await open(page, '/paketinhalt', texts.menu.paketinhalt);
      await scanInto(page, page.getByLabel(texts.paketinhalt.noteLabel), 'LS100001');
      await expect(page.getByRole('table')).toContainText('Kugelschreiber blau');
    },
    moreForPicture: async (page) => {
      // Both pieces of 100001; the second after the scanner's double-read window (300 ms), or it counts once.
      const line = page.getByRole('row', { name: /100001/ });
      await scanInto(page, page.getByLabel(texts.paketinhalt.itemLabel), '100001');
      await expect(line.getByRole('cell').nth(3)).toHaveText('1');
      await page.waitForTimeout(400);
      await scanInto(page, page.getByLabel(texts.paketinhalt.itemLabel), '100001');
      await expect(line).toHaveClass(/row--done/);
    },
  },
  {
    name: 'paketinhalt-klaerfall',
    show: async (page) => {
      await open(page, '/paketinhalt', texts.menu.paketinhalt);
      await scanInto(page, page.getByLabel(texts.paketinhalt.noteLabel), 'LS100001');
      await page.getByRole('button', { name: texts.paketinhalt.klaerfall }).click();
      await expect(page.getByRole('dialog', { name: texts.paketinhalt.klaerfallTitle })).toBeVisible();
    },
  },
  {
    name: 'kartonagenerfassung',
    show: async (page) => {
      await open(page, '/kartonagenerfassung', texts.menu.kartonagenerfassung);
      await scanInto(page, page.getByLabel(texts.paketinhalt.noteLabel), 'LS100001');
      await page
        .getByRole('button', { name: withAnyArguments(texts.app.more) })
        .first()
        .click();
    },
  },
  {
    name: 'paketausgang',
    show: async (page) => {
      await open(page, '/paketausgang', texts.menu.paketausgang);
      await scanInto(page, page.getByLabel(texts.paketausgang.tracking), '91000100098');
      await expect(page.getByRole('img', { name: texts.paketausgang.carrierImage('gls') })).toBeVisible();
    },
  },
  {
    name: 'inventur',
    show: async (page) => {
      await open(page, '/inventur', texts.menu.inventur);
      await scanInto(page, page.getByLabel(texts.inventur.location), 'A-01-01-01');
      await scanInto(page, page.getByLabel(texts.inventur.article), '4006381333931');
      await expect(page.getByLabel(texts.inventur.amount)).toBeFocused();
      await page.keyboard.type('48');
    },
    moreForPicture: async (page) => {
      await page.keyboard.press('Enter');
      await page.getByRole('dialog').getByRole('button', { name: texts.inventur.submit }).click();
      await expect(page.getByRole('status')).toContainText(texts.inventur.success);
      await expect(page.getByRole('status')).toBeHidden({ timeout: 3000 });
      await scanInto(page, page.getByLabel(texts.inventur.article), '100003');
      await expect(page.getByLabel(texts.inventur.amount)).toBeFocused();
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
      await open(page, '/inventur?zaehlauftrag', texts.menu.inventur);
      // A count this view left in work before (a run that shares the server) is given back first; the next
      // task is then that one or the new one, whichever comes first — both hold 100001 × 3.
      const next = page.getByRole('button', { name: zaehlauftragTexts.next });
      const abandon = page.getByRole('button', { name: zaehlauftragTexts.abandon });
      await expect(next.or(abandon)).toBeVisible();
      if (await abandon.isVisible()) {
        await abandon.click();
        await page.getByRole('dialog').getByRole('button', { name: zaehlauftragTexts.abandon }).click();
      }
      await next.click();
      const shelf = (await page.locator('.count-location').textContent()) ?? '';
      await scanInto(page, page.getByLabel(zaehlauftragTexts.location), shelf);
      await scanInto(page, page.getByLabel(zaehlauftragTexts.article), '100001');
      await expect(page.getByLabel(zaehlauftragTexts.amount)).toBeFocused();
      await page.keyboard.type('2');
      await page.keyboard.press('Enter');
      const counted = page.getByRole('region', { name: zaehlauftragTexts.countedHeading });
      await expect(counted.getByRole('listitem')).toHaveText([
        `${zaehlauftragTexts.countedEntry(2, '100001')} Kugelschreiber blau`,
      ]);
      await expect(page.getByLabel(zaehlauftragTexts.article)).toBeFocused();
    },
  },
  {
    name: 'retoure',
    flash: true,
    show: async (page, beforeSuccess) => {
      await open(page, '/retoure', texts.menu.retoure);
      await expect(page.getByLabel(texts.retoure.tracking)).toBeFocused();
      await beforeSuccess?.();
      await scanInto(page, page.getByLabel(texts.retoure.tracking), '00340434161094042564');
      await expect(page.getByRole('status')).toContainText(texts.retoure.captured);
    },
  },
  {
    name: 'batch',
    show: async (page) => {
      await open(page, '/batch', texts.menu.batch);
      await scanInto(page, page.getByLabel(texts.batch.noteLabel), 'LS100001');
      await expect(page.getByText(texts.batch.batchOfNote('123456'))).toBeVisible();
    },
  },
  {
    name: 'container',
    show: async (page) => {
      await open(page, '/container', texts.menu.container);
      await page.getByRole('button', { name: texts.container.gls, exact: true }).click();
      await page.getByLabel(texts.container.wechselbruecke).fill('WB-4711');
    },
  },
  {
    name: 'transporter',
    show: async (page) => {
      await open(page, '/transporter', texts.menu.transporter);
      await scanInto(page, page.getByLabel(texts.transporter.kennzeichen), 'B-LS 1234');
    },
  },
  {
    name: 'wmsretoure',
    show: async (page) => {
      await open(page, '/wmsretoure', texts.menu.wmsretoure);
      await scanInto(page, page.getByLabel(texts.wmsretoure.article), '100002');
      await scanInto(page, page.getByLabel(texts.wmsretoure.charge), 'CH-2027');
      await scanInto(page, page.getByLabel(texts.wmsretoure.mhd), '311227');
      await expect(page.getByLabel(texts.wmsretoure.lhm)).toBeFocused();
    },
  },
  {
    name: 'zollpaket',
    show: async (page) => {
      await open(page, '/zollpaket', texts.menu.zollpaket);
      await page.getByRole('button', { name: texts.zollpaket.newCart }).click();
      await expect(page.getByPlaceholder(texts.zollpaket.cartPlaceholder)).toBeFocused();
      await page.keyboard.type('ZW01');
    },
    moreForPicture: async (page) => {
      await page.keyboard.press('Enter');
      await scanInto(page, page.getByPlaceholder(texts.zollpaket.notePlaceholder), 'LS100002');
      await expect(page.getByRole('status')).toContainText(texts.zollpaket.captured);
      await expect(page.getByRole('status')).toBeHidden({ timeout: 3000 });
      await expect(page.getByRole('region', { name: texts.zollpaket.historyHeading })).toContainText(
        'LS100002',
      );
    },
  },
  {
    name: 'wareneingang',
    show: async (page) => {
      await open(page, '/wareneingang', texts.menu.wareneingang);
      await scanInto(page, page.getByLabel(wareneingangTexts.receipt), 'WE100001');
      // The announced Charge and MHD come with the line; the amount waits for Enter.
      await scanInto(page, page.getByLabel(wareneingangTexts.article), '100002');
      await expect(page.getByLabel(wareneingangTexts.amount)).toBeFocused();
    },
  },
  {
    name: 'kommissionierung',
    show: async (page) => {
      // Claims the demo's pickable note for the demo worker (nobody else picks it in a run); books nothing.
      await open(page, '/kommissionierung', texts.menu.kommissionierung);
      await scanInto(page, page.getByLabel(kommissionierungTexts.noteLabel), 'LS100003');
      await expect(page.getByRole('region', { name: kommissionierungTexts.goTo })).toContainText(
        'A-03-02-01',
      );
    },
    moreForPicture: async (page) => {
      await scanInto(page, page.getByLabel(kommissionierungTexts.locationLabel), 'A-03-02-01');
      await expect(page.getByLabel(kommissionierungTexts.articleLabel)).toBeFocused();
    },
  },
  {
    name: 'umbuchung',
    show: async (page) => {
      await open(page, '/umbuchung', texts.menu.umbuchung);
      await scanInto(page, page.getByLabel(texts.umbuchung.from), 'A-01-01-01');
      await expect(page.getByRole('table')).toBeVisible();
    },
  },
  {
    name: 'artikelumlagern',
    show: async (page) => {
      await open(page, '/artikelumlagern', texts.menu.artikelumlagern);
      await scanInto(page, page.getByLabel(texts.umlagern.article), '100001');
      await expect(page.getByRole('region', { name: texts.umlagern.infoHeading })).toBeVisible();
    },
  },
  {
    name: 'nachschub',
    show: async (page) => {
      await open(page, '/nachschub', texts.menu.nachschub);
      await expect(page.getByRole('listitem').first()).toBeVisible();
    },
  },
  {
    name: 'lagercheck',
    show: async (page) => {
      await open(page, '/lagercheck', texts.menu.lagercheck);
      await scanInto(page, page.getByLabel(texts.lagercheck.location), 'A-01-01-01');
      await expect(
        page.getByRole('region', { name: texts.lagercheck.contentOf('A-01-01-01') }),
      ).toBeVisible();
    },
  },
  {
    name: 'not-found',
    checkOnly: true,
    show: async (page) => {
      await page.goto('/gibt/es/nicht');
      await expect(page.getByText(texts.errors.routeNotFound)).toBeVisible();
    },
  },
  {
    // Last: the scans it leaves in the outbox would show on every later screen.
    name: 'ungesendet',
    checkOnly: true,
    show: async (page) => {
      const field = page.getByLabel(texts.retoure.tracking);
      await open(page, '/retoure', texts.menu.retoure);
      await page.route('**/api/retourenerfassung', (route) => route.abort('connectionrefused'));
      await scanInto(page, field, 'UNBEKANNT-ANSICHT');
      await expect(page.getByRole('status')).toContainText(texts.outbox.saved);
      await page.unroute('**/api/retourenerfassung');
      await page.getByRole('link', { name: texts.outbox.badge(1) }).click();
      // The heading of the refused scans: the word and their count (src/web/features/ungesendet).
      const refused = page.getByRole('region', { name: `${texts.outbox.failed} (1)` });
      const sendNow = page.getByRole('button', { name: texts.outbox.sendNow });
      // The outbox tries again by itself 2 s after the failed try: on a slow run it has sent the scan (and
      // had it refused) before the tap. Either way the refused scan is what this view shows.
      await expect(refused.or(sendNow)).toBeVisible();
      if (await sendNow.isVisible()) await sendNow.click({ timeout: 2_000 }).catch(() => undefined);
      await expect(refused).toBeVisible();
      await page.getByRole('link', { name: texts.app.back }).click();
      await page.getByRole('link', { name: texts.menu.retoure, exact: true }).click();
      await page.route('**/api/retourenerfassung', (route) => route.abort('connectionrefused'));
      await scanInto(page, field, '00340434161094042557');
      await expect(page.getByRole('status')).toContainText(texts.outbox.saved);
      await page.getByRole('link', { name: texts.outbox.badge(1) }).click();
      await expect(page.getByRole('heading', { level: 1, name: texts.outbox.title })).toBeVisible();
      await expect(page.getByRole('region', { name: texts.outbox.badge(1) })).toBeVisible();
    },
  },
];
