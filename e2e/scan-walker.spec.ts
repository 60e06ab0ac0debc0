import type { APIRequestContext, Request } from '@playwright/test';
import { druckTexts } from '../src/contract/etiketten-druck.ts';
import type { Language } from '../src/contract/i18n/languages.ts';
import { kommissionierungTexts } from '../src/contract/kommissionierung.ts';
import { kommissionierwagenTexts } from '../src/contract/kommissionierwagen.ts';
import { texts } from '../src/contract/texts.ts';
import { scannerTestTexts } from '../src/contract/texts-scanner-test.ts';
import { wareneingangTexts } from '../src/contract/wareneingang.ts';
import { zaehlauftragTexts } from '../src/contract/zaehlauftrag.ts';
import { newCountTasks } from './support/counting.ts';
import { E2E_CHEAT_CODE } from './support/global-setup.ts';
import { DEMO_CARD, importDeliveryNote, scan, setStock, wedgeScan } from './support/helpers.ts';
import {
  anyOf,
  setLanguageOfLogin,
  startingWith,
  useLanguage,
  withAnyArguments,
} from './support/language.ts';
import { newPickCart, newPicker, newPickNote, OwnWave } from './support/picking.ts';
import { pushReceipt } from './support/receipts.ts';
import { expect, type Page, test } from './support/test.ts';

/**
 * The walker (issue 16): every screen, in every state it can be in, gets a scanner's burst — keys 2 ms apart,
 * ended by Enter — and the burst must land whole where the screen expects the next scan, or be refused out
 * loud ('Scan nicht angenommen – …' in the banner). Each state is also walked after the worker tapped the
 * background and with the focus on a button (the header's logout: a burst's Enter must never press it).
 *
 * A screen whose code loads when it is opened (`openedFrom`) is also walked 'screen opening': its entry in the
 * menu tapped, its code 1 s late, and the burst right after the tap — it must land whole as its first state
 * says, never split between the menu and the screen (its head refused 'hier wird nichts gescannt', its tail
 * in the screen's field).
 *
 * A new screen or state is walked by adding a row to `screens` below, not by writing a new test.
 *
 * Every text a row looks for or expects is read from the contract's texts when the walk runs (decision 35):
 * `screens()` builds the rows anew for each walk, so after `useLanguage('pl')` the same rows expect the Polish
 * words. Data stays data (an article's name, a scanned code). The walk in Polish is at the end of this file.
 */

type Landing =
  /** The looked-up value is locked in the field with this label. */
  | { locked: string; text: string | RegExp }
  /** The field with this label holds exactly this. */
  | { value: string; text: string }
  /** A call went out with the whole code in its address or body ('GET /api/…': in the address of a GET). */
  | { request: string }
  /** The success view (role status) says this (among its other words). */
  | { status: string }
  /** The scan was refused: the banner says exactly this, and nothing was booked. */
  | { refused: string }
  /** Anything else a screen shows (a heading, the next step). */
  | { shows: (page: Page) => Promise<void> };

interface State {
  name: string;
  /** From the screen just opened to this state. */
  reach?: (page: Page) => Promise<void>;
  /** What the scanner reads in this state. */
  scan: string;
  lands: Landing;
  /** Variants that make no sense here (e.g. no logout button before login). */
  skip?: Variant[];
  /** Walked on a page of its own, which may fake a server's answer (page.route). */
  ownPage?: boolean;
}

interface Screen {
  name: string;
  path: string;
  /** Opened without a login (the login screen). */
  loggedOut?: boolean;
  /**
   * The menu whose entry opens this screen, whose code loads then (lazily): its first state is also walked
   * 'screen opening'.
   */
  openedFrom?: string;
  states: State[];
  /** Puts back what a walk changed that other specs rely on. */
  after?: (request: APIRequestContext) => Promise<void>;
  /** The screen is there (default: its code is loaded and it shows a control). */
  ready?: (page: Page) => Promise<void>;
  /** Sets up what each walk needs and answers whom it is walked as (default: the shift lead). */
  login?: (request: APIRequestContext) => Promise<Login>;
}

interface Login {
  token: string;
  id: number;
  name: string;
}

type Variant = 'as left' | 'background tapped' | 'button focused' | 'screen opening';
const VARIANTS: Variant[] = ['as left', 'background tapped', 'button focused'];
/** How late a screen's code comes when the walk opens it from its menu ('screen opening'). */
const OPENING_CODE_LATE_MS = 1000;

// ── Reaching states ─────────────────────────────────────────────────────────────────────────────────────

/**
 * A step a worker takes: a scan, then waiting until the screen took it. '@note': the packing note of this
 * walk; '@pick': the note to pick of this walk; '@cart': the pick cart of this walk.
 */
async function step(page: Page, code: string, done: () => Promise<void>): Promise<void> {
  await scan(page, fillIn(code));
  await done();
}

/** The walk's own codes in a scan or an expected call: '@note', '@line', '@pick', '@zoll1', '@zoll2'. */
function fillIn(text: string): string {
  return text
    .replace('@note', packing.note)
    .replace('@line', packing.nummer)
    .replace('@pick', picking.note)
    .replace('@cart', cartWalk.cart)
    .replace('@zoll1', customs.first)
    .replace('@zoll2', customs.second)
    .replace('@count1', counting.shelf)
    .replace('@count2', counting.other);
}

/** The Zollpaket walk's delivery notes: two new ones each walk (no cart holds them yet). */
let customs = { first: '', second: '' };

/** Opens the walk's customs cart ZW04 (closed again after each walk: closeOpenCart). */
async function openCustomsCart(page: Page): Promise<void> {
  await page.getByRole('button', { name: texts.zollpaket.newCart }).click();
  await step(page, 'ZW04', () =>
    expect(page.getByPlaceholder(texts.zollpaket.notePlaceholder)).toBeVisible(),
  );
}

/** The Kommissionierung walk's note: a new one each walk (e2e/support/picking.ts), first stop A-03-02-01. */
let picking = { note: '' };

/**
 * The Kommissionierwagen walk's cart (issue 41): a new one each walk with two notes of its own — 100008 × 1 in
 * Fach 1, 100007 × 6 in Fach 2 — released as a wave of its own (e2e/support/picking.ts `OwnWave`, closed
 * after each walk), for a worker of its own. Its route: A-03-02-01 (six into Fach 2, asked first), then
 * A-04-01-02 (one into Fach 1).
 */
let cartWalk: { cart: string; wave: OwnWave | null } = { cart: '', wave: null };

/** Starts the walk's trip: the cart scanned in the note field, the first stop's location expected. */
async function startTrip(page: Page): Promise<void> {
  await step(page, '@cart', () => expect(page.getByLabel(kommissionierungTexts.locationLabel)).toBeFocused());
}

/** From the trip started to Fach 2 expected for the six pieces of 100007. */
async function chooseArticle(page: Page): Promise<void> {
  await startTrip(page);
  await step(page, 'A-03-02-01', () =>
    expect(page.getByLabel(kommissionierungTexts.articleLabel)).toBeFocused(),
  );
  await step(page, '100007', () =>
    expect(page.getByLabel(kommissionierwagenTexts.compartmentLabel)).toBeFocused(),
  );
}

/** From the trip started to the six pieces put into Fach 2 (asked, confirmed). */
async function putSix(page: Page): Promise<void> {
  await chooseArticle(page);
  await step(page, '@cart-2', () =>
    expect(page.getByRole('dialog', { name: kommissionierungTexts.confirmTitle })).toBeVisible(),
  );
  await page.getByRole('dialog').getByRole('button', { name: kommissionierungTexts.confirm }).click();
  await expect(page.getByLabel(kommissionierungTexts.locationLabel)).toBeFocused();
}

/** From the trip started to every line put: 'Wagen fertig' expected. */
async function putAll(page: Page): Promise<void> {
  await putSix(page);
  await step(page, 'A-04-01-02', () =>
    expect(page.getByLabel(kommissionierungTexts.articleLabel)).toBeFocused(),
  );
  await step(page, '100008', () =>
    expect(page.getByLabel(kommissionierwagenTexts.compartmentLabel)).toBeFocused(),
  );
  await step(page, '@cart-1', () =>
    expect(page.getByRole('button', { name: kommissionierwagenTexts.finish })).toBeVisible(),
  );
}

/**
 * The Zählauftrag walk's tasks (issue 42): two locations of its own — '@count1' with 100001 × 2, '@count2'
 * empty — both assigned to a counter of the walk's own (e2e/support/counting.ts), '@count1' first.
 */
let counting = { shelf: '', other: '' };

/** From the screen opened to the walk's first task claimed: its location expected. */
async function claimCountTask(page: Page): Promise<void> {
  await page.getByRole('button', { name: zaehlauftragTexts.next }).click();
  await expect(page.getByLabel(zaehlauftragTexts.location)).toBeFocused();
}

/** From the screen opened to the counter at the task's location: an article expected. */
async function atCountLocation(page: Page): Promise<void> {
  await claimCountTask(page);
  await step(page, '@count1', () => expect(page.getByLabel(zaehlauftragTexts.article)).toBeFocused());
}

/** From the screen opened to 100001 scanned at the location: its amount expected. */
async function countArticleChosen(page: Page): Promise<void> {
  await atCountLocation(page);
  await step(page, '100001', waitLocked(page, zaehlauftragTexts.article));
}

/** The packing note and open line of the walk under way (see openLine). */
let packing = { note: '', nummer: '' };

const lockedField = (page: Page, label: string) =>
  page.locator('.field').filter({ has: page.locator('.field-label').getByText(label, { exact: true }) });
const lockedValue = (page: Page, label: string) => lockedField(page, label).locator('.locked-value');
const waitLocked = (page: Page, label: string) => () => expect(lockedValue(page, label)).toBeVisible();
const banner = (page: Page) => page.getByRole('alert').and(page.locator('.banner'));
const waitAlert = (page: Page) => () => expect(banner(page)).toBeVisible();

/**
 * The server's answer to these calls comes 2 s late: a state 'on its way' is walked while it is (ownPage).
 * The scan must land where the answer leads — a scan that comes later lands there too, so a slow machine
 * walks the state after the answer rather than failing.
 */
async function answerSlowly(page: Page, pattern: string): Promise<void> {
  await page.route(pattern, async (route) => {
    await new Promise((r) => setTimeout(r, 2000));
    await route.fallback();
  });
}

// The scan router's refusals, read when a walk runs (in the language it walks in).
const refused = (what: string) => texts.scan.refused(what);
const nothingHere = () => refused(texts.scan.nothingHere);
const answerFirst = () => refused(texts.scan.answerFirst);
const digitsOnly = (label: string) => refused(texts.scan.digitsOnly(label));
/** A scanner's burst of digits (an article number) where an amount is typed. */
const typeIn = (label: string) => refused(texts.scan.typeIn(label));

/** An amount as a person types it, a key every 80 ms: a scanner's burst of digits is refused there. */
async function typeAmount(page: Page, amount: string, done: () => Promise<void>): Promise<void> {
  await page.keyboard.type(amount, { delay: 80 });
  await page.keyboard.press('Enter');
  await done();
}

let token = '';
let userId = 0;

/** Receipts of the walk (pushed in beforeAll): one open with lines enough for every walk, one closed. */
const WALK_RECEIPT = 'WE900100';
const CLOSED_RECEIPT = 'WE900101';

/**
 * A packing note no other spec uses (LS100040–LS100069) with a line of at most five pieces still open, and
 * that line's article number: read at run time, as each walk packs a piece.
 */
async function openLine(request: APIRequestContext): Promise<{ note: string; nummer: string }> {
  for (let n = 100040; n < 100070; n++) {
    const res = await request.get(`/api/packagecontent/LS${n}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    if (!res.ok()) continue;
    const lines: { nummer: string; lsmenge: number; pemenge: number }[] = (await res.json()).data.paketinhalt;
    const open = lines.find((l) => l.lsmenge <= 5 && l.pemenge < l.lsmenge);
    if (open) return { note: `LS${n}`, nummer: open.nummer };
  }
  throw new Error('no demo note LS100040–LS100069 has a small line left to pack');
}

/** The walk's rows, built when called: their texts are in the language the test process reads then. */
const screens = (): Screen[] => [
  {
    name: 'Anmeldung',
    path: '/',
    loggedOut: true,
    states: [
      {
        name: 'card field',
        scan: DEMO_CARD,
        lands: {
          shows: (page) =>
            expect(page.getByRole('button', { name: texts.app.logout('Karten Nutzer') })).toBeVisible(),
        },
        skip: ['button focused'],
      },
      {
        name: 'after a refused card',
        reach: (page) => step(page, 'KEINEKARTE-4711', waitAlert(page)),
        scan: DEMO_CARD,
        lands: {
          shows: (page) =>
            expect(page.getByRole('button', { name: texts.app.logout('Karten Nutzer') })).toBeVisible(),
        },
        skip: ['button focused'],
      },
      {
        name: 'after a server error',
        reach: async (page) => {
          await page.route(
            '**/api/user/login/qrcode',
            (route) => route.fulfill({ status: 500, body: '{}' }),
            {
              times: 1,
            },
          );
          await step(page, 'IRGENDEINEKARTE', waitAlert(page));
        },
        scan: DEMO_CARD,
        lands: {
          shows: (page) =>
            expect(page.getByRole('button', { name: texts.app.logout('Karten Nutzer') })).toBeVisible(),
        },
        skip: ['button focused'],
        ownPage: true,
      },
      {
        name: 'name and password form',
        reach: (page) => page.getByRole('button', { name: texts.login.toPassword }).click(),
        scan: DEMO_CARD,
        lands: {
          shows: (page) =>
            expect(page.getByRole('button', { name: texts.app.logout('Karten Nutzer') })).toBeVisible(),
        },
        skip: ['button focused'],
      },
    ],
  },
  {
    name: 'Hauptmenü',
    path: '/',
    states: [{ name: 'menu', scan: 'A-01-01-01', lands: { refused: nothingHere() } }],
  },
  {
    name: 'Beta-Menü',
    path: '/beta',
    states: [{ name: 'menu', scan: 'A-01-01-01', lands: { refused: nothingHere() } }],
  },
  {
    // No scan target: the device's settings are typed by a person, and a scan is refused.
    name: 'Einstellungen',
    path: '/einstellungen',
    openedFrom: '/',
    states: [
      { name: 'settings', scan: 'A-01-01-01', lands: { refused: nothingHere() } },
      {
        // A scanner's burst into the device's name (a field for a person) is taken back and refused.
        name: 'Gerätename tapped',
        reach: (page) => page.getByLabel(texts.settings.deviceName).click(),
        scan: 'A-01-01-01',
        lands: { refused: nothingHere() },
        skip: ['background tapped', 'button focused'],
      },
    ],
  },
  {
    // A field of its own that records what the scanner sends: a code not on the test sheet is shown as received.
    name: 'Scanner testen',
    path: '/einstellungen/scannertest',
    openedFrom: '/einstellungen',
    states: [
      {
        name: 'nothing scanned yet',
        scan: 'A-01-01-01',
        lands: {
          shows: (page) =>
            expect(page.locator('main [role="alert"]')).toHaveText(
              `${scannerTestTexts.unknownCode} ${scannerTestTexts.received('A-01-01-01')}`,
            ),
        },
      },
    ],
  },
  {
    name: 'Testbogen',
    path: '/einstellungen/testbogen',
    openedFrom: '/einstellungen',
    states: [{ name: 'sheet', scan: 'A-01-01-01', lands: { refused: nothingHere() } }],
  },
  {
    name: 'Ungesendet',
    path: '/ungesendet',
    ready: (page) => expect(page.getByText(texts.outbox.none)).toBeVisible(),
    states: [{ name: 'nothing waiting', scan: '00340434161094042557', lands: { refused: nothingHere() } }],
  },
  {
    name: 'Inventur',
    path: '/inventur',
    openedFrom: '/',
    states: [
      { name: 'empty', scan: 'A-01-01-01', lands: { locked: texts.inventur.location, text: 'A-01-01-01' } },
      {
        name: 'after an unknown location',
        reach: (page) => step(page, 'X-99-99', waitAlert(page)),
        scan: 'A-01-01-01',
        lands: { locked: texts.inventur.location, text: 'A-01-01-01' },
      },
      {
        name: 'location chosen',
        reach: (page) => step(page, 'A-01-01-02', waitLocked(page, texts.inventur.location)),
        scan: '4006381333931',
        lands: { locked: texts.inventur.article, text: '100001 Kugelschreiber blau' },
      },
      {
        name: 'location and article chosen',
        reach: async (page) => {
          await step(page, 'A-01-01-02', waitLocked(page, texts.inventur.location));
          await step(page, '100001', waitLocked(page, texts.inventur.article));
        },
        scan: 'A-01-01-01',
        lands: { refused: digitsOnly(texts.inventur.amount) },
      },
      {
        // Digits only, but a scanner's burst: an article number is not taken as the count.
        name: 'location and article chosen, an article number scanned',
        reach: async (page) => {
          await step(page, 'A-01-01-02', waitLocked(page, texts.inventur.location));
          await step(page, '100001', waitLocked(page, texts.inventur.article));
        },
        scan: '100003',
        lands: { refused: typeIn(texts.inventur.amount) },
      },
      {
        name: 'during "Gezählt!"',
        reach: async (page) => {
          await step(page, 'A-01-01-02', waitLocked(page, texts.inventur.location));
          await step(page, '100003', waitLocked(page, texts.inventur.article));
          // The count as it stands: nothing changes in the books.
          const amount = await stockOf(page, 'A-01-01-02', '100003');
          await typeAmount(page, String(amount), () => expect(page.getByRole('dialog')).toBeVisible());
          await page.getByRole('dialog').getByRole('button', { name: texts.inventur.submit }).click();
          await expect(page.getByRole('status')).toBeVisible();
        },
        scan: '4006381333931',
        lands: { locked: texts.inventur.article, text: '100001 Kugelschreiber blau' },
      },
      {
        name: 'the count booked, its answer on its way',
        reach: async (page) => {
          await step(page, 'A-01-01-02', waitLocked(page, texts.inventur.location));
          await step(page, '100003', waitLocked(page, texts.inventur.article));
          const amount = await stockOf(page, 'A-01-01-02', '100003');
          await typeAmount(page, String(amount), () => expect(page.getByRole('dialog')).toBeVisible());
          await answerSlowly(page, '**/api/inventur/');
          await page.getByRole('dialog').getByRole('button', { name: texts.inventur.submit }).click();
        },
        // The next article: not typed into the amount of the one being booked.
        scan: '4006381333931',
        lands: { locked: texts.inventur.article, text: '100001 Kugelschreiber blau' },
        ownPage: true,
      },
      {
        name: '"Ist das korrekt?" asked',
        reach: async (page) => {
          await step(page, 'A-01-01-02', waitLocked(page, texts.inventur.location));
          await step(page, '100003', waitLocked(page, texts.inventur.article));
          await step(page, '7', () => expect(page.getByRole('dialog')).toBeVisible());
        },
        scan: '100001',
        lands: { refused: answerFirst() },
        skip: ['button focused', 'background tapped'],
      },
      {
        name: 'a code longer than any location',
        scan: `A-${'0'.repeat(298)}`,
        lands: { refused: refused(texts.errors.input.tooLong(texts.inventur.location, 200)) },
      },
    ],
  },
  {
    name: 'Zählauftrag',
    path: '/inventur?zaehlauftrag',
    login: async (request) => {
      const own = await newCountTasks(request, [[['100001', 2]], []]);
      counting = { shelf: own.locations[0] ?? '', other: own.locations[1] ?? '' };
      return { token: own.counter.token, id: own.counter.id, name: own.counter.name };
    },
    states: [
      {
        name: 'no task in work',
        scan: '@count1',
        lands: { refused: refused(zaehlauftragTexts.expectsNext) },
      },
      {
        name: '"Nächster Zählauftrag" tapped, its answer on its way',
        reach: async (page) => {
          await answerSlowly(page, '**/api/zaehlauftrag/naechster');
          await page.getByRole('button', { name: zaehlauftragTexts.next }).click();
        },
        // The task's location: into the location field once the task is there, and that starts the count.
        scan: '@count1',
        lands: { shows: (page) => expect(page.getByLabel(zaehlauftragTexts.article)).toBeFocused() },
        ownPage: true,
      },
      {
        name: 'a task: its location expected',
        reach: claimCountTask,
        scan: '@count1',
        lands: { shows: (page) => expect(page.getByLabel(zaehlauftragTexts.article)).toBeFocused() },
      },
      {
        name: 'a task: another location scanned',
        reach: claimCountTask,
        scan: '@count2',
        lands: { refused: zaehlauftragTexts.wrongLocation('@count1') },
      },
      {
        name: 'at the location: an article expected',
        reach: atCountLocation,
        scan: '4006381333931',
        lands: { locked: zaehlauftragTexts.article, text: '100001 Kugelschreiber blau' },
      },
      {
        name: 'article scanned: its amount expected',
        reach: countArticleChosen,
        scan: '@count1',
        lands: { refused: digitsOnly(zaehlauftragTexts.amount) },
      },
      {
        name: 'article scanned, an article number scanned',
        reach: countArticleChosen,
        scan: '100003',
        lands: { refused: typeIn(zaehlauftragTexts.amount) },
      },
      {
        name: 'during "Gezählt!"',
        reach: async (page) => {
          await countArticleChosen(page);
          await typeAmount(page, '2', () =>
            expect(page.getByRole('status')).toContainText(zaehlauftragTexts.counted),
          );
        },
        scan: '4012345678901',
        lands: { locked: zaehlauftragTexts.article, text: '100003 Textmarker gelb 4er' },
      },
      {
        name: 'the count sent, its answer on its way',
        reach: async (page) => {
          await countArticleChosen(page);
          await answerSlowly(page, '**/api/zaehlauftrag/*/zaehlung');
          await page.keyboard.type('2', { delay: 80 });
          await page.keyboard.press('Enter');
        },
        // The next article: not typed into the amount being sent.
        scan: '100003',
        lands: { locked: zaehlauftragTexts.article, text: '100003 Textmarker gelb 4er' },
        ownPage: true,
      },
      {
        name: '"Platz leer?" asked',
        reach: async (page) => {
          await atCountLocation(page);
          await page.getByRole('button', { name: zaehlauftragTexts.finish }).click();
          await expect(page.getByRole('dialog', { name: zaehlauftragTexts.emptyTitle })).toBeVisible();
        },
        scan: '100001',
        lands: { refused: answerFirst() },
        skip: ['button focused', 'background tapped'],
      },
      {
        name: '"Abbrechen" asked',
        reach: async (page) => {
          await claimCountTask(page);
          await page.getByRole('button', { name: zaehlauftragTexts.abandon }).click();
          await expect(page.getByRole('dialog')).toBeVisible();
        },
        scan: '@count1',
        lands: { refused: answerFirst() },
        skip: ['button focused', 'background tapped'],
      },
      {
        name: 'the count ended: the next task expected',
        reach: async (page) => {
          await countArticleChosen(page);
          await typeAmount(page, '2', () => expect(page.getByLabel(zaehlauftragTexts.article)).toBeFocused());
          await page.getByRole('button', { name: zaehlauftragTexts.finish }).click();
          await expect(page.getByText(zaehlauftragTexts.outcome.gebucht)).toBeVisible();
        },
        scan: '@count2',
        lands: { refused: refused(zaehlauftragTexts.expectsNext) },
      },
    ],
  },
  {
    name: 'Artikel umlagern',
    path: '/artikelumlagern',
    openedFrom: '/beta',
    states: [
      {
        name: 'empty',
        scan: '100001',
        lands: { locked: texts.umlagern.article, text: '100001 Kugelschreiber blau' },
      },
      {
        name: 'article chosen',
        reach: (page) => step(page, '100001', waitLocked(page, texts.umlagern.article)),
        scan: 'A-01-01-01',
        lands: { locked: texts.umlagern.source, text: 'A-01-01-01' },
      },
      {
        name: 'article chosen, a location without it',
        reach: (page) => step(page, '100001', waitLocked(page, texts.umlagern.article)),
        scan: 'B-02-01-01',
        lands: { refused: texts.umlagern.nothingOnSource },
      },
      {
        name: 'article and location chosen',
        reach: async (page) => {
          await step(page, '100001', waitLocked(page, texts.umlagern.article));
          await step(page, 'A-01-01-01', waitLocked(page, texts.umlagern.source));
        },
        scan: 'B-02-01-01',
        lands: { refused: digitsOnly(texts.umlagern.amount) },
      },
      {
        name: 'amount set',
        reach: async (page) => {
          await step(page, '100001', waitLocked(page, texts.umlagern.article));
          await step(page, 'A-01-01-01', waitLocked(page, texts.umlagern.source));
          await step(page, '1', waitLocked(page, texts.umlagern.amount));
        },
        scan: 'B-02-01-01',
        lands: { locked: texts.umlagern.target, text: 'B-02-01-01' },
      },
      {
        name: 'amount set, the source as target',
        reach: async (page) => {
          await step(page, '100001', waitLocked(page, texts.umlagern.article));
          await step(page, 'A-01-01-01', waitLocked(page, texts.umlagern.source));
          await step(page, '1', waitLocked(page, texts.umlagern.amount));
        },
        scan: 'A-01-01-01',
        lands: { refused: texts.umlagern.sameLocation },
      },
      {
        name: 'everything chosen',
        reach: async (page) => {
          await step(page, '100001', waitLocked(page, texts.umlagern.article));
          await step(page, 'A-01-01-01', waitLocked(page, texts.umlagern.source));
          await step(page, '1', waitLocked(page, texts.umlagern.amount));
          await step(page, 'B-02-01-01', waitLocked(page, texts.umlagern.target));
        },
        scan: 'A-01-01-02',
        lands: { refused: refused(texts.umlagern.readyToMove) },
      },
      {
        name: 'confirm dialog open',
        reach: async (page) => {
          await step(page, '100001', waitLocked(page, texts.umlagern.article));
          await step(page, 'A-01-01-01', waitLocked(page, texts.umlagern.source));
          await step(page, '1', waitLocked(page, texts.umlagern.amount));
          await step(page, 'B-02-01-01', waitLocked(page, texts.umlagern.target));
          await page.getByRole('button', { name: texts.umlagern.submit }).click();
          await expect(page.getByRole('dialog')).toBeVisible();
        },
        scan: 'A-01-01-02',
        lands: { refused: answerFirst() },
        skip: ['button focused', 'background tapped'], // a modal dialog: nothing else can be tapped
      },
    ],
  },
  {
    name: 'Umbuchung',
    path: '/umbuchung',
    openedFrom: '/beta',
    states: [
      { name: 'empty', scan: 'A-01-01-02', lands: { locked: texts.umbuchung.from, text: 'A-01-01-02' } },
      {
        name: 'from chosen',
        reach: (page) => step(page, 'A-01-01-02', waitLocked(page, texts.umbuchung.from)),
        scan: 'B-02-01-01',
        lands: { locked: texts.umbuchung.to, text: 'B-02-01-01' },
      },
      {
        name: 'from chosen, the same as to',
        reach: (page) => step(page, 'A-01-01-02', waitLocked(page, texts.umbuchung.from)),
        scan: 'A-01-01-02',
        lands: { refused: texts.umlagern.sameLocation },
      },
      {
        name: 'both chosen',
        reach: async (page) => {
          await step(page, 'A-01-01-02', waitLocked(page, texts.umbuchung.from));
          await step(page, 'B-02-01-01', waitLocked(page, texts.umbuchung.to));
        },
        scan: 'A-01-01-01',
        lands: { refused: refused(texts.umbuchung.readyToMove) },
      },
      {
        name: 'confirm dialog open',
        reach: async (page) => {
          await step(page, 'A-01-01-02', waitLocked(page, texts.umbuchung.from));
          await step(page, 'B-02-01-01', waitLocked(page, texts.umbuchung.to));
          await page.getByRole('button', { name: texts.umbuchung.submit }).click();
          await expect(page.getByRole('dialog')).toBeVisible();
        },
        scan: 'A-01-01-01',
        lands: { refused: answerFirst() },
        skip: ['button focused', 'background tapped'],
      },
      {
        name: 'during the success view',
        reach: async (page) => {
          // A location of its own with one piece, moved to its neighbour: no other spec counts on them.
          await setStock(page, 'C-04-03-01', '100001', 1);
          await step(page, 'C-04-03-01', waitLocked(page, texts.umbuchung.from));
          await step(page, 'C-04-03-02', waitLocked(page, texts.umbuchung.to));
          await page.getByRole('button', { name: texts.umbuchung.submit }).click();
          await page.getByRole('dialog').getByRole('button', { name: texts.umbuchung.confirmButton }).click();
          // Every article on the location moves: as many as the demo and earlier walks left there.
          const moved = (count: number) => texts.umbuchung.done(count, 'C-04-03-01', 'C-04-03-02');
          await expect(page.getByRole('status')).toContainText(
            anyOf(Array.from({ length: 20 }, (_, n) => moved(n + 1))),
          );
        },
        scan: 'A-01-01-02',
        lands: { locked: texts.umbuchung.from, text: 'A-01-01-02' },
      },
    ],
  },
  {
    name: 'Lagerplatzprüfung',
    path: '/lagercheck',
    openedFrom: '/beta',
    states: [
      { name: 'empty', scan: 'A-01-01-01', lands: { request: '/api/inventur/findlp/A-01-01-01' } },
      {
        name: 'a location shown',
        reach: (page) => step(page, 'A-01-01-02', () => expect(page.getByRole('table')).toBeVisible()),
        scan: 'A-01-01-01',
        lands: { request: '/api/inventur/findlp/A-01-01-01' },
      },
      {
        // 'Etikett drucken' tapped (no printer chosen on this device: the banner says so); the button keeps
        // the focus, and the next burst still goes to the location field, never onto the button.
        name: "after 'Etikett drucken'",
        reach: async (page) => {
          await step(page, 'A-01-01-02', () => expect(page.getByRole('table')).toBeVisible());
          await page.getByRole('button', { name: druckTexts.handheldPrint }).click();
          await expect(banner(page)).toContainText(druckTexts.handheldNoPrinter);
        },
        scan: 'A-01-01-01',
        lands: { request: '/api/inventur/findlp/A-01-01-01' },
      },
    ],
  },
  {
    name: 'Nachschub',
    path: '/nachschub',
    openedFrom: '/beta',
    states: [
      {
        name: 'task list',
        scan: 'A-01-01-01',
        lands: { refused: refused(texts.nachschub.chooseTask) },
      },
      {
        name: 'task taken',
        reach: takeReplenishmentTask,
        scan: 'A-01-01-01',
        lands: { locked: texts.nachschub.scanSource, text: 'A-01-01-01' },
      },
      {
        name: 'source scanned',
        reach: async (page) => {
          await takeReplenishmentTask(page);
          await step(page, 'A-01-01-01', waitLocked(page, texts.nachschub.scanSource));
        },
        scan: '4006381333931',
        lands: { locked: texts.nachschub.scanArticle, text: /^100001 / },
      },
      {
        name: 'article scanned (amount pre-filled)',
        reach: async (page) => {
          await takeReplenishmentTask(page);
          await step(page, 'A-01-01-01', waitLocked(page, texts.nachschub.scanSource));
          await step(page, '100001', waitLocked(page, texts.nachschub.scanArticle));
        },
        scan: 'A-01-01-02',
        lands: { refused: digitsOnly(texts.nachschub.amount) },
      },
      {
        name: 'amount set',
        reach: async (page) => {
          await takeReplenishmentTask(page);
          await step(page, 'A-01-01-01', waitLocked(page, texts.nachschub.scanSource));
          await step(page, '100001', waitLocked(page, texts.nachschub.scanArticle));
          await step(page, '5', waitLocked(page, texts.nachschub.amount));
        },
        scan: 'A-01-01-02',
        lands: { locked: texts.nachschub.scanTarget, text: 'A-01-01-02' },
      },
      {
        name: 'everything proven',
        reach: async (page) => {
          await takeReplenishmentTask(page);
          await step(page, 'A-01-01-01', waitLocked(page, texts.nachschub.scanSource));
          await step(page, '100001', waitLocked(page, texts.nachschub.scanArticle));
          await step(page, '5', waitLocked(page, texts.nachschub.amount));
          await step(page, 'A-01-01-02', waitLocked(page, texts.nachschub.scanTarget));
        },
        scan: 'A-01-01-02',
        lands: { refused: refused(texts.nachschub.readyToBook) },
      },
    ],
  },
  {
    name: 'WMS-Retoure',
    path: '/wmsretoure',
    openedFrom: '/',
    states: [
      { name: 'empty', scan: '100002', lands: { locked: texts.wmsretoure.article, text: /^100002 / } },
      {
        // The worker tapped the amount first: the article's number goes to the article, not into the amount.
        name: 'amount tapped first',
        reach: (page) => page.getByLabel(texts.wmsretoure.amount).click(),
        scan: '100001',
        lands: { locked: texts.wmsretoure.article, text: /^100001 / },
        skip: ['background tapped', 'button focused'],
      },
      {
        name: 'article with Charge and MHD chosen',
        reach: (page) => step(page, '100002', waitLocked(page, texts.wmsretoure.article)),
        scan: 'CH-4711-B',
        lands: { value: texts.wmsretoure.charge, text: 'CH-4711-B' },
      },
      {
        name: 'Charge scanned',
        reach: async (page) => {
          await step(page, '100002', waitLocked(page, texts.wmsretoure.article));
          await step(page, 'CH-4711-B', () => expect(page.getByLabel(texts.wmsretoure.mhd)).toBeFocused());
        },
        scan: '311227',
        lands: { value: texts.wmsretoure.mhd, text: '31.12.2027' },
      },
      {
        name: 'Charge and MHD scanned',
        reach: async (page) => {
          await step(page, '100002', waitLocked(page, texts.wmsretoure.article));
          await step(page, 'CH-4711-B', () => expect(page.getByLabel(texts.wmsretoure.mhd)).toBeFocused());
          await step(page, '311227', () => expect(page.getByLabel(texts.wmsretoure.lhm)).toBeFocused());
        },
        scan: 'LHM000001',
        lands: { locked: texts.wmsretoure.lhm, text: 'LHM000001' },
      },
      {
        name: 'load carrier chosen (amount 1 pre-filled)',
        reach: async (page) => {
          await step(page, '100001', waitLocked(page, texts.wmsretoure.article));
          await step(page, 'LHM000001', waitLocked(page, texts.wmsretoure.lhm));
        },
        scan: 'LHM000001',
        lands: { refused: digitsOnly(texts.wmsretoure.amount) },
      },
      {
        name: 'confirm dialog open',
        reach: async (page) => {
          await step(page, '100001', waitLocked(page, texts.wmsretoure.article));
          await step(page, 'LHM000001', waitLocked(page, texts.wmsretoure.lhm));
          await page.keyboard.press('Enter');
          await expect(page.getByRole('dialog')).toBeVisible();
        },
        scan: '100003',
        lands: { refused: answerFirst() },
        skip: ['button focused', 'background tapped'],
      },
      {
        name: 'during "Gebucht!"',
        reach: async (page) => {
          await step(page, '100001', waitLocked(page, texts.wmsretoure.article));
          await step(page, 'LHM000001', waitLocked(page, texts.wmsretoure.lhm));
          await page.keyboard.press('Enter');
          await page.getByRole('dialog').getByRole('button', { name: texts.wmsretoure.submit }).click();
          await expect(page.getByRole('status')).toBeVisible();
        },
        scan: '100003',
        lands: { locked: texts.wmsretoure.article, text: /^100003 / },
      },
      {
        name: "after a booking, 'Etikett drucken' for its LHM tapped",
        reach: async (page) => {
          await step(page, '100001', waitLocked(page, texts.wmsretoure.article));
          await step(page, 'LHM000001', waitLocked(page, texts.wmsretoure.lhm));
          await page.keyboard.press('Enter');
          await page.getByRole('dialog').getByRole('button', { name: texts.wmsretoure.submit }).click();
          await page.getByRole('button', { name: druckTexts.handheldPrint }).click();
          await expect(banner(page)).toContainText(druckTexts.handheldNoPrinter);
        },
        scan: '100003',
        lands: { locked: texts.wmsretoure.article, text: /^100003 / },
      },
    ],
  },
  {
    name: 'Batch',
    path: '/batcherfassung',
    openedFrom: '/',
    states: [
      { name: 'empty', scan: '123456', lands: { status: texts.batch.done } },
      {
        name: 'after a refusal',
        reach: (page) => step(page, '1234567', waitAlert(page)),
        scan: '123456',
        lands: { status: texts.batch.done },
      },
      {
        name: 'during "Erfasst!"',
        reach: (page) => step(page, '123456', () => expect(page.getByRole('status')).toBeVisible()),
        scan: '999999',
        lands: { request: '"batch":"999999"' },
      },
    ],
  },
  {
    name: 'Batch (Lieferschein)',
    path: '/batch',
    openedFrom: '/',
    states: [
      {
        name: 'empty',
        scan: 'LS100001',
        lands: { locked: texts.batch.noteLabel, text: texts.batch.batchOfNote('123456') },
      },
      {
        name: 'note scanned',
        reach: (page) => step(page, 'LS100001', waitLocked(page, texts.batch.noteLabel)),
        scan: DEMO_CARD,
        lands: { status: texts.batch.done },
      },
      {
        name: 'during "Erfasst!" (2 s)',
        reach: async (page) => {
          await step(page, 'LS100001', waitLocked(page, texts.batch.noteLabel));
          await step(page, DEMO_CARD, () => expect(page.getByRole('status')).toBeVisible());
        },
        scan: 'LS100001',
        lands: { locked: texts.batch.noteLabel, text: texts.batch.batchOfNote('123456') },
      },
    ],
  },
  {
    name: 'Wechselbrücke',
    path: '/container',
    openedFrom: '/',
    states: [
      { name: 'no option chosen', scan: '123456', lands: { refused: refused(texts.container.chooseOption) } },
      {
        name: 'GLS chosen',
        reach: (page) => page.getByRole('button', { name: texts.container.gls, exact: true }).click(),
        scan: 'WB-4711',
        lands: { value: texts.container.wechselbruecke, text: 'WB-4711' },
      },
      {
        name: 'GLS, swap body scanned',
        reach: async (page) => {
          await page.getByRole('button', { name: texts.container.gls, exact: true }).click();
          await step(page, 'WB-4711', () =>
            expect(page.getByLabel(texts.container.batchLabel)).toBeFocused(),
          );
        },
        scan: '123456',
        lands: { request: '{"container":"WB-4711","batch":"123456"}' },
      },
      {
        name: 'DHL chosen',
        reach: (page) => page.getByRole('button', { name: texts.container.dhl, exact: true }).click(),
        scan: '123456',
        lands: { request: '{"container":"ABGESCHLOSSENDHL","batch":"123456"}' },
      },
      {
        name: 'DHL, during "Erfasst!"',
        reach: async (page) => {
          await page.getByRole('button', { name: texts.container.dhl, exact: true }).click();
          await step(page, '123456', () => expect(page.getByRole('status')).toBeVisible());
        },
        scan: '654321',
        lands: { request: '{"container":"ABGESCHLOSSENDHL","batch":"654321"}' },
      },
      {
        name: 'DHL, after a refusal',
        reach: async (page) => {
          await page.getByRole('button', { name: texts.container.dhl, exact: true }).click();
          await step(page, '1234567', waitAlert(page));
        },
        scan: '123456',
        lands: { request: '{"container":"ABGESCHLOSSENDHL","batch":"123456"}' },
      },
    ],
  },
  {
    name: 'Transporter',
    path: '/transporter',
    openedFrom: '/',
    states: [
      {
        name: 'empty',
        scan: 'B-LS-4711',
        lands: { value: texts.transporter.kennzeichen, text: 'B-LS-4711' },
      },
      {
        name: 'Kennzeichen scanned',
        reach: (page) =>
          step(page, 'B-LS-4711', () => expect(page.getByLabel(texts.transporter.plombe)).toBeFocused()),
        scan: 'PL-99881',
        lands: { value: texts.transporter.plombe, text: 'PL-99881' },
      },
      {
        name: 'Kennzeichen and Plombe scanned',
        reach: async (page) => {
          await step(page, 'B-LS-4711', () =>
            expect(page.getByLabel(texts.transporter.plombe)).toBeFocused(),
          );
          await step(page, 'PL-99881', () =>
            expect(page.getByLabel(texts.transporter.container)).toBeFocused(),
          );
        },
        scan: 'WB-0815',
        lands: { request: '"container":"WB-0815"' },
      },
      {
        name: 'captured, its answer on its way',
        reach: async (page) => {
          await answerSlowly(page, '**/api/transporterfassung');
          await step(page, 'B-LS-4711', () =>
            expect(page.getByLabel(texts.transporter.plombe)).toBeFocused(),
          );
          await step(page, 'PL-99881', () =>
            expect(page.getByLabel(texts.transporter.container)).toBeFocused(),
          );
          await scan(page, 'WB-0815');
        },
        // The next transporter's Kennzeichen: not typed on into this one's Wechselbrücke and captured with it.
        scan: 'B-LS-0816',
        lands: { value: texts.transporter.kennzeichen, text: 'B-LS-0816' },
        ownPage: true,
      },
      {
        name: 'during "Erfasst!"',
        reach: async (page) => {
          await step(page, 'B-LS-4711', () =>
            expect(page.getByLabel(texts.transporter.plombe)).toBeFocused(),
          );
          await step(page, 'PL-99881', () =>
            expect(page.getByLabel(texts.transporter.container)).toBeFocused(),
          );
          await step(page, 'WB-0815', () => expect(page.getByRole('status')).toBeVisible());
        },
        scan: 'B-LS-0816',
        lands: { value: texts.transporter.kennzeichen, text: 'B-LS-0816' },
      },
      {
        name: 'fill level set',
        reach: (page) => page.getByLabel(startingWith(texts.transporter.fill)).click(),
        scan: 'B-LS-4711',
        lands: { value: texts.transporter.kennzeichen, text: 'B-LS-4711' },
      },
    ],
  },
  {
    name: 'Paketinhalt',
    path: '/paketinhalt',
    openedFrom: '/',
    states: [
      { name: 'empty', scan: '@note', lands: { request: '/api/packagecontent/@note' } },
      {
        name: 'note open',
        reach: (page) =>
          step(page, '@note', () =>
            expect(page.getByText(startingWith(`${texts.paketinhalt.noteLabel} LS`))).toBeVisible(),
          ),
        scan: '@line',
        lands: { request: '/api/packagecontent/@line' },
      },
      {
        name: 'after a refused item',
        reach: async (page) => {
          await step(page, '@note', () =>
            expect(page.getByText(startingWith(`${texts.paketinhalt.noteLabel} LS`))).toBeVisible(),
          );
          await step(page, 'NICHTIMLS-4711', waitAlert(page));
        },
        scan: '@line',
        lands: { request: '/api/packagecontent/@line' },
      },
      {
        name: '"Weiter" tapped too early',
        reach: async (page) => {
          await step(page, '@note', () =>
            expect(page.getByText(startingWith(`${texts.paketinhalt.noteLabel} LS`))).toBeVisible(),
          );
          await page.getByRole('button', { name: texts.paketinhalt.continue }).click();
          await expect(banner(page)).toHaveText(startingWith(texts.paketinhalt.scanAllPositions));
        },
        scan: '@line',
        lands: { request: '/api/packagecontent/@line' },
      },
      {
        name: 'Klärfall dialog open',
        reach: async (page) => {
          await step(page, '@note', () =>
            expect(page.getByText(startingWith(`${texts.paketinhalt.noteLabel} LS`))).toBeVisible(),
          );
          await page.getByRole('button', { name: texts.paketinhalt.klaerfall }).click();
          await expect(page.getByRole('dialog')).toBeVisible();
        },
        scan: '@line',
        lands: { refused: answerFirst() },
        skip: ['button focused', 'background tapped'],
      },
      {
        name: 'another note scanned as an item',
        reach: async (page) => {
          await step(page, '@note', () =>
            expect(page.getByText(startingWith(`${texts.paketinhalt.noteLabel} LS`))).toBeVisible(),
          );
          await step(page, 'LS100002', () => expect(page.getByRole('dialog')).toBeVisible());
        },
        scan: '@line',
        lands: { refused: answerFirst() },
        skip: ['button focused', 'background tapped'],
      },
      {
        name: 'packed, cartons saved: on to the parcel',
        reach: async (page) => {
          await step(page, '@note', () =>
            expect(page.getByText(startingWith(`${texts.paketinhalt.noteLabel} LS`))).toBeVisible(),
          );
          await step(page, E2E_CHEAT_CODE, () =>
            expect(page.getByText(texts.paketinhalt.complete)).toBeVisible(),
          );
          await page.getByRole('button', { name: texts.paketinhalt.continue }).click();
          await page.getByRole('button', { name: texts.kartonagen.save }).click();
          await expect(page.getByRole('status')).toBeVisible();
        },
        scan: '00340434161094042557',
        lands: { request: '/api/paketausgangcompare' },
      },
    ],
  },
  {
    name: 'Kommissionierung',
    path: '/kommissionierung',
    openedFrom: '/',
    states: [
      { name: 'no note', scan: '@pick', lands: { request: '/api/kommissionierung/auftrag' } },
      {
        name: 'a stop: location expected',
        reach: (page) =>
          step(page, '@pick', () =>
            expect(page.getByLabel(kommissionierungTexts.locationLabel)).toBeFocused(),
          ),
        scan: 'A-03-02-01',
        lands: { shows: (page) => expect(page.getByLabel(kommissionierungTexts.articleLabel)).toBeFocused() },
      },
      {
        name: 'at the location: article expected',
        reach: async (page) => {
          await step(page, '@pick', () =>
            expect(page.getByLabel(kommissionierungTexts.locationLabel)).toBeFocused(),
          );
          await step(page, 'A-03-02-01', () =>
            expect(page.getByLabel(kommissionierungTexts.articleLabel)).toBeFocused(),
          );
        },
        scan: '100007',
        lands: {
          shows: (page) =>
            expect(page.getByRole('dialog', { name: kommissionierungTexts.confirmTitle })).toBeVisible(),
        },
      },
      {
        name: '"8 × 100007 entnehmen?" asked',
        reach: async (page) => {
          await step(page, '@pick', () =>
            expect(page.getByLabel(kommissionierungTexts.locationLabel)).toBeFocused(),
          );
          await step(page, 'A-03-02-01', () =>
            expect(page.getByLabel(kommissionierungTexts.articleLabel)).toBeFocused(),
          );
          await step(page, '100007', () => expect(page.getByRole('dialog')).toBeVisible());
        },
        scan: '100007',
        lands: { refused: answerFirst() },
        skip: ['button focused', 'background tapped'],
      },
      {
        name: 'during "Entnommen!": the next stop',
        reach: async (page) => {
          await step(page, '@pick', () =>
            expect(page.getByLabel(kommissionierungTexts.locationLabel)).toBeFocused(),
          );
          await step(page, 'A-03-02-01', () =>
            expect(page.getByLabel(kommissionierungTexts.articleLabel)).toBeFocused(),
          );
          await step(page, '100007', () => expect(page.getByRole('dialog')).toBeVisible());
          await page.getByRole('dialog').getByRole('button', { name: kommissionierungTexts.confirm }).click();
          await expect(
            page.getByRole('status').filter({ hasText: kommissionierungTexts.picked }),
          ).toBeVisible();
        },
        scan: 'A-04-01-02',
        lands: { shows: (page) => expect(page.getByLabel(kommissionierungTexts.articleLabel)).toBeFocused() },
      },
      {
        name: 'Fehlmenge asked',
        reach: async (page) => {
          await step(page, '@pick', () =>
            expect(page.getByLabel(kommissionierungTexts.locationLabel)).toBeFocused(),
          );
          await page.getByRole('button', { name: kommissionierungTexts.shortageFor('100007') }).click();
          await expect(page.getByLabel(kommissionierungTexts.shortageAmount)).toBeFocused();
        },
        scan: 'A-03-02-01',
        lands: { refused: digitsOnly(kommissionierungTexts.shortageAmount) },
        skip: ['button focused', 'background tapped'],
      },
    ],
  },
  {
    name: 'Kommissionierwagen',
    path: '/kommissionierung',
    openedFrom: '/',
    login: async (request) => {
      const wave = new OwnWave(request);
      cartWalk = { cart: '', wave };
      await wave.note([['100008', 1]]);
      await wave.note([['100007', 6]]);
      await wave.release(2);
      cartWalk.cart = await newPickCart(request, 2);
      const picker = await newPicker(request);
      const res = await request.post('/api/user/login', {
        data: { username: picker.username, password: picker.password },
      });
      const answer = await res.json();
      wave.logins.push(answer.token);
      return { token: answer.token, id: answer.id, name: picker.name };
    },
    // The walk's wave closed: the picker's logout ends the trip as 'Abbrechen', what is left is picked or
    // taken out.
    after: async () => cartWalk.wave?.close(),
    states: [
      { name: "a cart's code in the note field", scan: '@cart', lands: { request: '@cart' } },
      {
        name: 'trip started: location expected',
        reach: startTrip,
        scan: 'A-03-02-01',
        lands: { shows: (page) => expect(page.getByLabel(kommissionierungTexts.articleLabel)).toBeFocused() },
      },
      {
        name: 'at the location: article expected',
        reach: async (page) => {
          await startTrip(page);
          await step(page, 'A-03-02-01', () =>
            expect(page.getByLabel(kommissionierungTexts.articleLabel)).toBeFocused(),
          );
        },
        scan: '100007',
        lands: {
          shows: async (page) => {
            await expect(page.getByLabel(kommissionierwagenTexts.compartmentLabel)).toBeFocused();
            await expect(page.locator('.cart-put')).toContainText(kommissionierwagenTexts.put(2, 6));
          },
        },
      },
      {
        name: 'article chosen: compartment expected',
        reach: chooseArticle,
        scan: '@cart-2',
        lands: {
          shows: (page) =>
            expect(page.getByRole('dialog', { name: kommissionierungTexts.confirmTitle })).toBeVisible(),
        },
      },
      {
        name: 'a wrong compartment scanned',
        reach: chooseArticle,
        scan: '@cart-1',
        lands: { refused: kommissionierwagenTexts.wrongCompartment('@cart-2') },
      },
      {
        name: 'after a wrong compartment: the right one',
        reach: async (page) => {
          await chooseArticle(page);
          await step(page, '@cart-1', waitAlert(page));
        },
        scan: '@cart-2',
        lands: {
          shows: (page) =>
            expect(page.getByRole('dialog', { name: kommissionierungTexts.confirmTitle })).toBeVisible(),
        },
      },
      {
        name: '"6 × 100007 entnehmen?" asked',
        reach: async (page) => {
          await chooseArticle(page);
          await step(page, '@cart-2', () => expect(page.getByRole('dialog')).toBeVisible());
        },
        scan: '@cart-2',
        lands: { refused: answerFirst() },
        skip: ['button focused', 'background tapped'],
      },
      {
        name: 'a put made: the next stop',
        reach: putSix,
        scan: 'A-04-01-02',
        lands: { shows: (page) => expect(page.getByLabel(kommissionierungTexts.articleLabel)).toBeFocused() },
      },
      {
        name: '"Rückgängig" asked',
        reach: async (page) => {
          await putSix(page);
          await page.getByRole('button', { name: kommissionierwagenTexts.undoFor(6, '100007', 2) }).click();
          await expect(
            page.getByRole('dialog', { name: kommissionierwagenTexts.undoTitle(6, '100007', 2) }),
          ).toBeVisible();
        },
        scan: 'A-04-01-02',
        lands: { refused: answerFirst() },
        skip: ['button focused', 'background tapped'],
      },
      {
        name: "every line put: 'Wagen fertig' expected",
        reach: putAll,
        scan: '@cart-1',
        lands: { refused: refused(kommissionierwagenTexts.expectsFinish) },
      },
      {
        name: 'the summary: the next cart or note',
        reach: async (page) => {
          await putAll(page);
          await page.getByRole('button', { name: kommissionierwagenTexts.finish }).click();
          await expect(
            page.getByRole('region', { name: withAnyArguments(kommissionierwagenTexts.finishedTitle) }),
          ).toBeVisible();
          await expect(page.getByLabel(kommissionierungTexts.noteLabel)).toBeFocused();
        },
        scan: '@cart',
        lands: { request: '@cart' },
      },
    ],
  },
  {
    name: 'Kartonagen',
    path: '/kartonagenerfassung',
    openedFrom: '/',
    states: [
      {
        name: 'empty',
        scan: 'LS100002',
        lands: { request: 'GET /api/packagerecording/LS100002' },
      },
      {
        name: 'cartons shown, + tapped',
        reach: async (page) => {
          await step(page, 'LS100002', () => expect(page.getByText('Karton M')).toBeVisible());
          await page.getByRole('button', { name: texts.app.more('Karton M') }).click();
        },
        scan: 'LS100001',
        lands: { refused: refused(texts.kartonagen.countThenSave) },
      },
      {
        name: 'a carton picture open',
        reach: async (page) => {
          await step(page, 'LS100002', () => expect(page.getByText('Karton M')).toBeVisible());
          await page.getByRole('button', { name: texts.kartonagen.image('Karton M') }).click();
          await expect(page.getByRole('dialog', { name: texts.kartonagen.image('Karton M') })).toBeVisible();
        },
        scan: 'LS100001',
        lands: { refused: refused(texts.kartonagen.countThenSave) },
      },
      {
        name: '"Speichern" tapped, its answer on its way',
        reach: async (page) => {
          await step(page, 'LS100002', () => expect(page.getByText('Karton M')).toBeVisible());
          await answerSlowly(page, '**/api/packagerecording/*');
          await page.getByRole('button', { name: texts.kartonagen.save }).click();
        },
        // The next note: it waits for the note field, not refused because the cartons are still shown.
        scan: 'LS100002',
        lands: { request: 'GET /api/packagerecording/LS100002' },
        ownPage: true,
      },
      {
        name: 'after "Speichern"',
        reach: async (page) => {
          await step(page, 'LS100002', () => expect(page.getByText('Karton M')).toBeVisible());
          await page.getByRole('button', { name: texts.kartonagen.save }).click();
          await expect(page.getByRole('status')).toBeVisible();
        },
        scan: 'LS100002',
        lands: { request: 'GET /api/packagerecording/LS100002' },
      },
    ],
  },
  {
    name: 'Paketausgang',
    path: '/paketausgang',
    openedFrom: '/',
    states: [
      {
        name: 'empty',
        scan: '00340434161094042557',
        lands: { request: '"tracking":"00340434161094042557"' },
      },
      {
        name: 'after a capture',
        reach: (page) =>
          step(page, '00340434161094042557', () => expect(page.locator('output.captured')).toBeVisible()),
        scan: '00340434161094100099',
        lands: { request: '"tracking":"00340434161094100099"' },
      },
      {
        name: 'after a refusal',
        reach: (page) => step(page, '0'.repeat(101), waitAlert(page)),
        scan: '00340434161094100099',
        lands: { request: '"tracking":"00340434161094100099"' },
      },
    ],
  },
  {
    name: 'Retoure',
    path: '/retoure',
    openedFrom: '/',
    states: [
      { name: 'empty', scan: '00340434161094042557', lands: { status: texts.retoure.captured } },
      {
        name: 'during "Erfasst!"',
        reach: (page) =>
          step(page, '00340434161094042557', () => expect(page.getByRole('status')).toBeVisible()),
        scan: '00340434161094100099',
        lands: { request: '"tracking":"00340434161094100099"' },
      },
    ],
  },
  {
    name: 'Zollpaket',
    path: '/zollpaket',
    openedFrom: '/',
    after: closeOpenCart,
    states: [
      { name: 'no cart', scan: 'ZW04', lands: { refused: refused(texts.zollpaket.pressNew) } },
      {
        name: '"Neu" tapped, its answer on its way',
        reach: async (page) => {
          await answerSlowly(page, '**/api/zollpaketerfassung/checkWagen');
          await page.getByRole('button', { name: texts.zollpaket.newCart }).click();
        },
        // The cart's number: it waits for the cart field, not refused because 'Neu' has not answered yet.
        scan: 'ZW04',
        lands: { request: '/api/zollpaketerfassung/findWagen/ZW04' },
        ownPage: true,
      },
      {
        name: 'cart number expected',
        reach: async (page) => {
          await page.getByRole('button', { name: texts.zollpaket.newCart }).click();
          await expect(page.getByPlaceholder(texts.zollpaket.cartPlaceholder)).toBeVisible();
        },
        scan: 'ZW04',
        lands: { request: '/api/zollpaketerfassung/findWagen/ZW04' },
      },
      {
        name: "cart open, 'Etikett drucken' tapped",
        reach: async (page) => {
          await page.getByRole('button', { name: texts.zollpaket.newCart }).click();
          await step(page, 'ZW04', () =>
            expect(page.getByPlaceholder(texts.zollpaket.notePlaceholder)).toBeVisible(),
          );
          await page.getByRole('button', { name: druckTexts.handheldPrint }).click();
          await expect(banner(page)).toContainText(druckTexts.handheldNoPrinter);
        },
        // A note no cart can take (404): nothing lands on the cart that other specs rely on.
        scan: 'LS999999',
        lands: { request: 'LS999999' },
      },
      {
        name: 'note expected',
        reach: openCustomsCart,
        scan: '@zoll1',
        lands: { request: '"lieferschein":"@zoll1"' },
      },
      {
        name: 'during "Erfasst!"',
        reach: async (page) => {
          await openCustomsCart(page);
          await step(page, '@zoll1', () =>
            expect(page.getByRole('status')).toContainText(texts.zollpaket.captured),
          );
        },
        scan: '@zoll2',
        lands: { request: '"lieferschein":"@zoll2"' },
      },
      {
        name: '"Abschließen" asked',
        reach: async (page) => {
          await openCustomsCart(page);
          await page.getByRole('button', { name: texts.zollpaket.close }).click();
          await expect(page.getByRole('dialog')).toBeVisible();
        },
        scan: '@zoll1',
        lands: { refused: answerFirst() },
        skip: ['button focused', 'background tapped'],
      },
      {
        // The cart is closed: its notes cannot go on it any more, the next one needs 'Neu'.
        name: 'during "Wagen abgeschlossen!"',
        reach: async (page) => {
          await openCustomsCart(page);
          await page.getByRole('button', { name: texts.zollpaket.close }).click();
          await page.getByRole('dialog').getByRole('button', { name: texts.zollpaket.confirmButton }).click();
          await expect(page.getByRole('status')).toContainText(texts.zollpaket.cartClosed);
        },
        scan: '@zoll1',
        lands: { refused: refused(texts.zollpaket.pressNew) },
      },
    ],
  },
  {
    name: 'Wareneingang',
    path: '/wareneingang',
    openedFrom: '/',
    states: [
      { name: 'empty', scan: WALK_RECEIPT, lands: { locked: wareneingangTexts.receipt, text: /^WE900100 / } },
      {
        name: 'after an unknown receipt',
        reach: (page) => step(page, 'WE000000', waitAlert(page)),
        scan: WALK_RECEIPT,
        lands: { locked: wareneingangTexts.receipt, text: /^WE900100 / },
      },
      {
        name: 'a closed receipt shown',
        reach: (page) => step(page, CLOSED_RECEIPT, waitAlert(page)),
        scan: WALK_RECEIPT,
        lands: { locked: wareneingangTexts.receipt, text: /^WE900100 / },
      },
      {
        name: 'receipt open',
        reach: (page) => step(page, WALK_RECEIPT, waitLocked(page, wareneingangTexts.receipt)),
        scan: '4006381333931',
        lands: {
          locked: wareneingangTexts.position,
          text: startingWith(`100001 Kugelschreiber blau · ${wareneingangTexts.open} `),
        },
      },
      {
        name: 'receipt open, an article not on it',
        reach: (page) => step(page, WALK_RECEIPT, waitLocked(page, wareneingangTexts.receipt)),
        scan: '100003',
        lands: { refused: wareneingangTexts.notOnReceipt('100003', WALK_RECEIPT) },
      },
      {
        name: 'Charge asked',
        reach: async (page) => {
          await step(page, WALK_RECEIPT, waitLocked(page, wareneingangTexts.receipt));
          await step(page, '100002', waitLocked(page, wareneingangTexts.position));
        },
        scan: 'CH-4711',
        lands: { locked: wareneingangTexts.charge, text: 'CH-4711' },
      },
      {
        name: 'MHD asked',
        reach: async (page) => {
          await step(page, WALK_RECEIPT, waitLocked(page, wareneingangTexts.receipt));
          await step(page, '100002', waitLocked(page, wareneingangTexts.position));
          await step(page, 'CH-4711', waitLocked(page, wareneingangTexts.charge));
        },
        scan: '311227',
        lands: { locked: wareneingangTexts.mhd, text: '31.12.2027' },
      },
      {
        name: 'amount asked',
        reach: async (page) => {
          await step(page, WALK_RECEIPT, waitLocked(page, wareneingangTexts.receipt));
          await step(page, '100001', waitLocked(page, wareneingangTexts.position));
        },
        scan: 'B-02-01-01',
        lands: { refused: digitsOnly(wareneingangTexts.amount) },
      },
      {
        name: 'amount asked, an article number scanned',
        reach: async (page) => {
          await step(page, WALK_RECEIPT, waitLocked(page, wareneingangTexts.receipt));
          await step(page, '100001', waitLocked(page, wareneingangTexts.position));
        },
        scan: '100001',
        lands: { refused: typeIn(wareneingangTexts.amount) },
      },
      {
        name: '"Mehr als erwartet" asked',
        reach: async (page) => {
          await step(page, WALK_RECEIPT, waitLocked(page, wareneingangTexts.receipt));
          await step(page, '100001', waitLocked(page, wareneingangTexts.position));
          await typeAmount(page, '999999', () => expect(page.getByRole('dialog')).toBeVisible());
        },
        scan: 'B-02-01-01',
        lands: { refused: answerFirst() },
        skip: ['button focused', 'background tapped'],
      },
      {
        name: 'amount set: the location books',
        reach: async (page) => {
          await step(page, WALK_RECEIPT, waitLocked(page, wareneingangTexts.receipt));
          await step(page, '100001', waitLocked(page, wareneingangTexts.position));
          await step(page, '1', waitLocked(page, wareneingangTexts.amount));
        },
        scan: 'B-02-01-01',
        lands: { request: '"lagerplatz":"B-02-01-01"' },
      },
      {
        name: 'during "Eingelagert!"',
        reach: async (page) => {
          await step(page, WALK_RECEIPT, waitLocked(page, wareneingangTexts.receipt));
          await step(page, '100001', waitLocked(page, wareneingangTexts.position));
          await step(page, '1', waitLocked(page, wareneingangTexts.amount));
          await step(page, 'B-02-01-01', () => expect(page.getByRole('status')).toBeVisible());
        },
        scan: '100001',
        lands: {
          locked: wareneingangTexts.position,
          text: startingWith(`100001 Kugelschreiber blau · ${wareneingangTexts.open} `),
        },
      },
      {
        name: '"Abschließen" asked',
        reach: async (page) => {
          await step(page, WALK_RECEIPT, waitLocked(page, wareneingangTexts.receipt));
          await page.getByRole('button', { name: wareneingangTexts.close }).click();
          await expect(page.getByRole('dialog')).toBeVisible();
        },
        scan: '100001',
        lands: { refused: answerFirst() },
        skip: ['button focused', 'background tapped'],
      },
    ],
  },
];

// ── The walk ────────────────────────────────────────────────────────────────────────────────────────────

// The walk runs as the demo's shift lead: the packing states reach 'packed' with the cheat code, which
// only a shift lead may scan (DESIGN §9). The handheld's screens are the same for every role.
test.beforeAll(async ({ request }) => {
  const res = await request.post('/api/user/login', { data: { username: 'leitung', password: 'leitung' } });
  const answer = await res.json();
  token = answer.token;
  userId = answer.id;
  // 100002 first without a Charge (a scan of it asks for one), then as announced; 100001 for every booking.
  await pushReceipt(request, WALK_RECEIPT, [
    { article: '100002', expected: 1000 },
    { article: '100002', expected: 1000, charge: 'WALK-1', mhd: '2027-12-31' },
    { article: '100001', expected: 100_000 },
  ]);
  await pushReceipt(request, CLOSED_RECEIPT, [{ article: '100001', expected: 1 }]);
  const closed = await request.post('/api/wareneingang/abschliessen', {
    headers: { authorization: `Bearer ${token}`, 'x-idempotency-key': crypto.randomUUID() },
    data: { wareneingang: CLOSED_RECEIPT },
  });
  expect([200, 409]).toContain(closed.status());
});

/** Scanning a cart number opens that cart: it is closed again, so the next walk and the customs spec find none. */
async function closeOpenCart(request: APIRequestContext): Promise<void> {
  const headers = { authorization: `Bearer ${token}` };
  const open = await (await request.get('/api/zollpaketerfassung/checkWagen', { headers })).json();
  if (!open.found) return;
  const closed = await request.put('/api/zollpaketerfassung/paket', {
    headers: { ...headers, 'x-idempotency-key': crypto.randomUUID() },
    data: { lieferschein: '', wagennummer: open.wagennummer, close: true },
  });
  expect(closed.status()).toBe(200);
}

/** Sets up a replenishment task (A-01-01-02 below its minimum, A-01-01-01 to take from) and takes it. */
async function takeReplenishmentTask(page: Page): Promise<void> {
  await setStock(page, 'A-01-01-02', '100001', 10);
  await setStock(page, 'A-01-01-01', '100001', 50);
  await page.getByRole('button', { name: texts.nachschub.reload }).click();
  await page
    .getByRole('button', { name: texts.nachschub.taskButton(texts.nachschub.start, '100001', 'A-01-01-02') })
    .click();
  await expect(page.getByLabel(texts.nachschub.scanSource)).toBeVisible();
}

async function stockOf(page: Page, location: string, article: string): Promise<number> {
  const headers = { authorization: `Bearer ${token}` };
  const lp = await (await page.request.get(`/api/inventur/findlp/${location}`, { headers })).json();
  const art = await (await page.request.get(`/api/inventur/findarticle/${article}`, { headers })).json();
  const res = await page.request.get(`/api/umlagern/checklparticle/${lp.id}/${art.id}`, { headers });
  return (await res.json()).amount;
}

/**
 * One page for the whole walk, without request interception: the app's files come from the browser's cache,
 * so opening a screen takes a fraction of a fresh page's time. A state that needs a faked answer (`ownPage`)
 * gets a page of its own.
 */
const walker = test.extend<object, { walkPage: Page }>({
  walkPage: [
    async ({ browser }, use) => {
      const context = await browser.newContext(test.info().project.use);
      const page = await context.newPage();
      await use(page);
      await context.close();
    },
    { scope: 'worker' },
  ],
});

/**
 * Every state is walked as left; of its other variants (the background tapped, a button focused) `npm test`
 * walks one, the two taking turns from state to state, so each screen meets both and the walk takes two
 * thirds of the time (about two minutes less). `WALK_VARIANTS=all` walks every variant of every state — do
 * so after a change to the scan router or to how a screen moves its focus; `WALK_VARIANTS=other` walks the
 * half the default leaves out.
 */
const walkedVariants = (() => {
  const chosen = process.env.WALK_VARIANTS ?? 'sample';
  if (!['sample', 'other', 'all'].includes(chosen))
    throw new Error(`WALK_VARIANTS must be sample, other or all, not '${chosen}'`);
  let turn = chosen === 'other' ? 1 : 0;
  return (screen: Screen, state: State): Variant[] => {
    const possible = VARIANTS.filter(
      (v) => !state.skip?.includes(v) && !(screen.loggedOut && v === 'button focused'),
    );
    // The screen's first state, reached by opening it: walked 'screen opening' too, in every walk but 'other'.
    const opening: Variant[] =
      screen.openedFrom && state === screen.states[0] && !state.reach && chosen !== 'other'
        ? ['screen opening']
        : [];
    if (chosen === 'all') return [...possible, ...opening];
    const others = possible.filter((v) => v !== 'as left');
    const asLeft = possible.includes('as left') ? (['as left'] as Variant[]) : [];
    if (others.length < 2) return chosen === 'other' ? [] : [...possible, ...opening];
    const other = others[turn++ % 2] as Variant;
    return chosen === 'other' ? [other] : [...asLeft, other, ...opening];
  };
})();

/**
 * One test per walk of a state: the rows are built again when it runs (`screens()`), so what it looks for is
 * in the language the test process reads then (German unless `useLanguage` chose another).
 */
function walkTest(screenAt: number, stateAt: number, variant: Variant, language: Language): void {
  const screen = screens()[screenAt] as Screen;
  const state = screen.states[stateAt] as State;
  const name = `${state.name} · ${variant}`;
  const run = async (page: Page, request: APIRequestContext) => {
    const rows = screens()[screenAt] as Screen;
    const row = rows.states[stateAt] as State;
    await walk(page, request, rows, row, variant, language).finally(() => rows.after?.(request));
  };
  // Opening a screen with its code late needs a page whose requests can be held back.
  if (state.ownPage || variant === 'screen opening') walker(name, ({ page, request }) => run(page, request));
  else walker(name, ({ walkPage, request }) => run(walkPage, request));
}

screens().forEach((screen, screenAt) => {
  walker.describe(screen.name, () => {
    screen.states.forEach((state, stateAt) => {
      for (const variant of walkedVariants(screen, state)) walkTest(screenAt, stateAt, variant, 'de');
    });
  });
});

async function walk(
  page: Page,
  request: APIRequestContext,
  screen: Screen,
  state: State,
  variant: Variant,
  language: Language,
) {
  const login = screen.login ? await screen.login(request) : { token, id: userId, name: 'Schicht Leitung' };
  // The worker reads the walk's language on the server too (its refusals): a screen's own worker is new each
  // walk; the shift lead's is set once for the whole walk in that language.
  if (language !== 'de' && screen.login) await setLanguageOfLogin(request, login.token, language);
  if (screen.path === '/paketinhalt') packing = await openLine(request);
  if (screen.name === 'Kommissionierung') picking = { note: await newPickNote(request) };
  if (screen.path === '/zollpaket')
    customs = { first: await importDeliveryNote(request), second: await importDeliveryNote(request) };
  const code = fillIn(state.scan);
  const expected =
    'request' in state.lands
      ? { request: fillIn(state.lands.request) }
      : 'refused' in state.lands
        ? { refused: fillIn(state.lands.refused) }
        : state.lands;
  // Logged in as the shift lead, or not at all; the device's settings as they come, in the walk's language
  // (the device's choice, and the worker's as a login keeps it: src/web/state/language.ts).
  await page.goto('/healthz');
  await page.evaluate(
    ([t, id, name, language]) => {
      localStorage.clear();
      sessionStorage.clear();
      if (language !== 'de') localStorage.setItem('lagerscannerSprache', language);
      if (t) {
        localStorage.setItem('vmAccessKey', t);
        localStorage.setItem('vmUserName', name);
        localStorage.setItem('vmUserID', String(id));
        if (language !== 'de') localStorage.setItem('lagerscannerSpracheNutzer', language);
      }
    },
    [screen.loggedOut ? null : login.token, login.id, login.name, language] as const,
  );
  const openedFrom = variant === 'screen opening' ? screen.openedFrom : undefined;
  if (openedFrom) {
    await recordRefusals(page);
    await page.goto(openedFrom);
  } else {
    await page.goto(screen.path);
    // The screen's code is loaded ('Lädt …' gone) and it shows its controls.
    if (screen.ready) await screen.ready(page);
    else await expect(page.locator('main :is(input, button, a)').first()).toBeVisible();
    await state.reach?.(page);
    // Let what the state started settle (a lookup, a dialog's focus), as a worker's next scan comes later.
    await page.waitForTimeout(150);
  }

  if (variant === 'background tapped') {
    await page.locator('h1, h2').first().click();
  } else if (variant === 'button focused') {
    await page.getByRole('button', { name: withAnyArguments(texts.app.logout) }).focus();
  }

  const sent: Request[] = [];
  const record = (r: Request) => {
    if (r.url().includes('/api/')) sent.push(r);
  };
  page.on('request', record);
  const lockedBefore = await page.locator('.locked-value').allTextContents();
  try {
    if (openedFrom) await openAndScan(page, screen.path, code);
    else await wedgeScan(page, code);
    await lands(page, expected, sent);
    // A refused scan changed nothing on screen either: no field was locked by it.
    if ('refused' in expected)
      expect(await page.locator('.locked-value').allTextContents()).toEqual(lockedBefore);
    // Opened and scanned at once: no part of the scan was refused on the way (the menu's 'hier wird nichts
    // gescannt' for its head), and a call the scan made carries all of it.
    if (openedFrom) {
      expect(await refusalsShown(page), 'refusals').toEqual('refused' in expected ? [expected.refused] : []);
      if ('request' in expected)
        expect(sent.map((r) => decodeURIComponent(r.url()) + (r.postData() ?? '')).join(' ')).toContain(code);
    }
  } finally {
    page.off('request', record);
  }
}

/**
 * Taps the screen's entry in the menu that is open and scans right after the tap, on a handheld's slower
 * CPU (4×): every script fetched from the tap on (the screen's code) comes `OPENING_CODE_LATE_MS` late.
 */
async function openAndScan(page: Page, path: string, code: string): Promise<void> {
  const entry = page.locator(`a[href="${path}"]`);
  await expect(entry).toBeVisible();
  // What the menu fetches by itself (the capture screens' code, right after the login) has come.
  await page.waitForLoadState('networkidle');
  await page.route('**/assets/*.js', async (route) => {
    await new Promise((r) => setTimeout(r, OPENING_CODE_LATE_MS));
    await route.fallback();
  });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  try {
    await wedgeScan(page, code, 'Enter', { tapFirst: entry });
  } finally {
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    await cdp.detach();
  }
}

/**
 * From the next page load on, every message the banner shows is recorded — each time it is shown, the same
 * one twice too (a key hides it at once, so the banner on screen at the end may not say all).
 */
async function recordRefusals(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const shown: string[] = [];
    (window as unknown as { refusalsShown: string[] }).refusalsShown = shown;
    let showing = '';
    new MutationObserver(() => {
      const banner = document.querySelector<HTMLElement>('.banner');
      const now = banner && !banner.hidden ? (banner.textContent ?? '') : '';
      if (now !== '' && now !== showing) shown.push(now);
      showing = now;
    }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
  });
}

const refusalsShown = (page: Page) =>
  page.evaluate(() => (window as unknown as { refusalsShown: string[] }).refusalsShown);

async function lands(page: Page, expected: Landing, sent: Request[]): Promise<void> {
  const mentions = (part: string) => {
    const [method, path] = part.startsWith('GET ') ? ['GET', part.slice(4)] : [null, part];
    return sent.some((r) =>
      method
        ? r.method() === method && decodeURIComponent(r.url()).includes(path)
        : decodeURIComponent(r.url()).includes(path) || (r.postData() ?? '').includes(path),
    );
  };
  if ('locked' in expected) {
    await expect(lockedValue(page, expected.locked)).toHaveText(expected.text);
  } else if ('value' in expected) {
    await expect(page.getByLabel(expected.value, { exact: true })).toHaveValue(expected.text);
  } else if ('request' in expected) {
    await expect
      .poll(() => mentions(expected.request), { message: `a call with ${expected.request}` })
      .toBe(true);
  } else if ('status' in expected) {
    await expect(page.getByRole('status')).toContainText(expected.status);
  } else if ('refused' in expected) {
    await expect(banner(page)).toHaveText(expected.refused);
    await page.waitForTimeout(300);
    expect(
      sent.filter((r) => r.method() !== 'GET').map((r) => r.url()),
      'nothing booked',
    ).toEqual([]);
  } else {
    await expected.shows(page);
  }
  // A burst's Enter never pressed the button that had the focus.
  expect(sent.map((r) => r.url()).filter((u) => u.includes('/api/user/logout'))).toEqual([]);
  await expect(
    page
      .getByRole('button', { name: withAnyArguments(texts.app.logout) })
      .or(page.getByText(texts.login.heading)),
  ).not.toHaveCount(0);
}

// ── The walk in Polish ──────────────────────────────────────────────────────────────────────────────────

/** The demo card's worker, logged in by API to set their language (the login screen's walks log in with it). */
async function cardWorker(request: APIRequestContext): Promise<string> {
  const res = await request.post('/api/user/login/qrcode', { data: { stechuhrdevice: DEMO_CARD } });
  expect(res.status()).toBe(200);
  return (await res.json()).token;
}

/**
 * The walk once more, in Polish (issue 43; Polish runs long, and the crews are largely Polish): the device,
 * the shift lead and each screen's own worker read Polish, and the rows expect the Polish words
 * (`useLanguage('pl')`). Sampled to keep CI's time (every state 'as left' adds 137 walks, 5½ minutes):
 * - one posture, 'as left': the others (the background tapped, a button focused, the screen opening) move the
 *   focus, never a text, and the German walk takes them all;
 * - every screen, and of its states the first and every third after it (0, 3, 6 …), leaving out those walked
 *   while an answer is held back (`ownPage`: timing, the same in every language) — 50 walks, about 100 s.
 * What a language can break is met on every screen: the title and controls it opens with, the labels and
 * buttons each walked state is reached by, its locked fields and success views, and each kind of refusal
 * (nothing scanned here, answer first, digits only, type it in, a screen's own words). `WALK_VARIANTS=all`
 * walks every state in Polish too (after a change to a catalogue or to how a screen names its fields).
 */
walker.describe('auf Polnisch', () => {
  const sampled = process.env.WALK_VARIANTS !== 'all';
  walker.beforeAll(async ({ request }) => {
    await setLanguageOfLogin(request, token, 'pl');
    await setLanguageOfLogin(request, await cardWorker(request), 'pl');
  });
  // The shift lead and the card's worker are the demo's, shared with other specs (one worker runs them all):
  // German again even when a walk failed.
  walker.afterAll(async ({ request }) => {
    await setLanguageOfLogin(request, token, 'de');
    await setLanguageOfLogin(request, await cardWorker(request), 'de');
  });
  walker.beforeEach(() => useLanguage('pl'));
  walker.afterEach(() => useLanguage('de'));
  screens().forEach((screen, screenAt) => {
    walker.describe(screen.name, () => {
      screen.states.forEach((state, stateAt) => {
        // A state walked while an answer is held back tests timing, the same in every language.
        if (sampled && (stateAt % 3 !== 0 || state.ownPage)) return;
        if (!state.skip?.includes('as left')) walkTest(screenAt, stateAt, 'as left', 'pl');
      });
    });
  });
});
